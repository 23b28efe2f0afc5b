import { Refusal, renderInWorld, USERS } from '@caravan/ui-kit/testing';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NotificationChannels } from './NotificationChannels';

/** The channel choice on /profile (docs/adr/0021): the app always; email and Telegram saved at once. */
test('the app is always on; a tick on email is saved and shown', async () => {
  let stored = { app: true, email: false, telegram: false };
  const { gateway } = renderInWorld(<NotificationChannels />, {
    user: USERS.client,
    answers: {
      notification_channels_get: () => stored,
      notification_channels_update: (p: { email?: boolean }) => {
        stored = { ...stored, ...p };
        return { ...stored, message: 'способы получения уведомлений сохранены' };
      },
    },
  });
  const app = screen.getByRole('checkbox', { name: 'в приложении' });
  expect(app).toBeChecked();
  expect(app).toBeDisabled();
  const email = screen.getByRole('checkbox', { name: 'по электронной почте' });
  await waitFor(() => expect(email).toBeEnabled());
  expect(email).not.toBeChecked();
  await userEvent.click(email);
  expect(await screen.findByText('способы получения уведомлений сохранены')).toBeInTheDocument();
  await waitFor(() => expect(email).toBeChecked());
  expect(screen.getByRole('checkbox', { name: 'в Telegram' })).not.toBeChecked();
  expect(gateway.of('notification_channels_update').map((c) => c.params)).toEqual([{ email: true }]);
});

test('a refusal is shown and the choice stays as stored', async () => {
  renderInWorld(<NotificationChannels />, {
    user: USERS.client,
    answers: {
      notification_channels_get: () => ({ app: true, email: false, telegram: false }),
      notification_channels_update: () => new Refusal('сервис временно недоступен, повторите попытку'),
    },
  });
  const telegram = screen.getByRole('checkbox', { name: 'в Telegram' });
  await waitFor(() => expect(telegram).toBeEnabled());
  await userEvent.click(telegram);
  expect(await screen.findByText('сервис временно недоступен, повторите попытку')).toBeInTheDocument();
  expect(telegram).not.toBeChecked();
});

const link = (state: 'linked' | null) => ({
  user_id: USERS.client.id,
  state,
  telegram_id: state ? '700' : null,
  username: null,
  first_name: null,
  linked_at: null,
  broken_at: null,
  broken_reason: null,
});

test('Telegram chosen while it is not linked: the page says nothing goes there until it is', async () => {
  renderInWorld(<NotificationChannels />, {
    user: USERS.client,
    answers: {
      notification_channels_get: () => ({ app: true, email: false, telegram: true }),
      telegram_link_get: () => link(null),
    },
  });
  expect(await screen.findByTestId('telegram-channel-waits')).toHaveTextContent(
    'Telegram не привязан: уведомления пойдут туда, когда вы привяжете его выше',
  );
});

test('Telegram chosen and linked: no warning', async () => {
  const { gateway } = renderInWorld(<NotificationChannels />, {
    user: USERS.client,
    answers: {
      notification_channels_get: () => ({ app: true, email: false, telegram: true }),
      telegram_link_get: () => link('linked'),
    },
  });
  await waitFor(() => expect(screen.getByRole('checkbox', { name: 'в Telegram' })).toBeChecked());
  await waitFor(() => expect(gateway.of('telegram_link_get')).toHaveLength(1));
  await new Promise((r) => setTimeout(r, 50));
  expect(screen.queryByTestId('telegram-channel-waits')).not.toBeInTheDocument();
});
