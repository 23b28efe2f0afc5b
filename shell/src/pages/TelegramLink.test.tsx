import { TELEGRAM_MESSAGES, type TelegramLink as Link } from '@caravan/contracts';
import { renderInWorld, USERS } from '@caravan/ui-kit/testing';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TelegramLink, TelegramState } from './TelegramLink';

/** /profile's Telegram (ADR 0022): a one-time code for the bot, the link once the bot made it, unlink. */
const none: Link = {
  user_id: 2,
  state: null,
  telegram_id: null,
  username: null,
  first_name: null,
  linked_at: null,
  broken_at: null,
  broken_reason: null,
};
const linked: Link = {
  ...none,
  state: 'linked',
  telegram_id: '701',
  first_name: 'Ирина',
  username: 'irina_s',
  linked_at: '2026-11-24T10:00:00.000Z',
};
const code = {
  code: 'K7M2P9QX',
  expires_at: '2026-11-24T10:15:00.000Z',
  bot_username: 'caravan_sandbox_bot',
  bot_link: 'http://127.0.0.1:4018/?start=K7M2P9QX',
};

test('a code for the bot, then the link the bot made (the page asks until it is there)', async () => {
  let current = none;
  const { gateway } = renderInWorld(<TelegramLink />, {
    user: USERS.client,
    answers: {
      telegram_link_get: () => current,
      telegram_link_code_create: () => code,
    },
  });
  expect(await screen.findByTestId('telegram-state')).toHaveTextContent('Telegram не привязан');
  await userEvent.click(screen.getByTestId('telegram-get-code'));
  expect(await screen.findByTestId('telegram-code')).toHaveTextContent('K7M2P9QX');
  expect(screen.getByText(/отправьте этот код боту @caravan_sandbox_bot/)).toBeInTheDocument();
  expect(screen.getByTestId('telegram-open-bot')).toHaveAttribute('href', code.bot_link);
  // the user sends the code to the bot; the next ask finds the link
  current = linked;
  expect(await screen.findByText('привязан: Ирина @irina_s', {}, { timeout: 5000 })).toBeInTheDocument();
  expect(await screen.findByText('Telegram привязан')).toBeInTheDocument();
  expect(screen.queryByTestId('telegram-code')).not.toBeInTheDocument();
  expect(gateway.of('telegram_link_get').length).toBeGreaterThan(1);
});

test('a broken link says why; unlinking drops it', async () => {
  let current: Link = { ...linked, state: 'broken', broken_reason: 'Forbidden: bot was blocked by the user' };
  const { gateway } = renderInWorld(<TelegramLink />, {
    user: USERS.client,
    answers: {
      telegram_link_get: () => current,
      telegram_link_unlink: () => {
        current = none;
        return { ...none, message: TELEGRAM_MESSAGES.unlinked };
      },
    },
  });
  expect(await screen.findByTestId('telegram-state')).toHaveTextContent(
    'связь нарушена (Forbidden: bot was blocked by the user): привяжите Telegram заново',
  );
  await userEvent.click(screen.getByTestId('telegram-unlink'));
  expect(await screen.findByText(TELEGRAM_MESSAGES.unlinked)).toBeInTheDocument();
  expect(
    await screen.findByText('Telegram не привязан: сообщения по заказам сюда не приходят'),
  ).toBeInTheDocument();
  expect(gateway.of('telegram_link_unlink')).toHaveLength(1);
});

test('an admin sees another user’s link on /users/{id}, read only', async () => {
  const { gateway } = renderInWorld(<TelegramState userId={5} />, {
    answers: { telegram_link_get: () => linked },
  });
  expect(await screen.findByTestId('telegram-state')).toHaveTextContent('привязан: Ирина @irina_s');
  expect(gateway.of('telegram_link_get')[0]!.params).toEqual({ user_id: 5 });
});
