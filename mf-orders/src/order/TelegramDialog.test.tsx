import { TELEGRAM_MESSAGES } from '@caravan/contracts';
import { Refusal, renderInWorld, USERS } from '@caravan/ui-kit/testing';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TelegramDialog } from './TelegramDialog';

/** The order's telegram message dialog (spec §2, §5, §7 client_order_tg_send; ADR 0022). */
const recipient =
  (linked: number, side: 'operator' | 'client' = 'operator') =>
  () => ({
    side,
    title: side === 'operator' ? 'Восточный экспресс' : 'ООО «Ромашка»',
    linked,
  });

test('a client writes to the order’s operator: at least 5 characters, then it is sent and the dialog closes', async () => {
  const onClose = jest.fn();
  const { gateway } = renderInWorld(<TelegramDialog orderId={7} onClose={onClose} />, {
    user: USERS.client,
    answers: {
      client_order_tg_recipient: recipient(1),
      client_order_tg_send: () => ({ sent: 1, message: TELEGRAM_MESSAGES.sent(1) }),
    },
  });
  expect(await screen.findByText('сообщение оператору «Восточный экспресс» в Telegram')).toBeInTheDocument();
  await userEvent.type(screen.getByTestId('telegram-msg'), 'ок?');
  expect(screen.getByTestId('telegram-send')).toBeDisabled();
  await userEvent.type(screen.getByTestId('telegram-msg'), ' Когда выкупите?');
  expect(screen.getByTestId('telegram-send')).toBeEnabled();
  await userEvent.click(screen.getByTestId('telegram-send'));
  expect(await screen.findByText(TELEGRAM_MESSAGES.sent(1))).toBeInTheDocument();
  expect(gateway.of('client_order_tg_send').map((c) => c.params)).toEqual([
    { id: 7, msg: 'ок? Когда выкупите?' },
  ]);
  expect(gateway.of('client_order_tg_recipient')[0]!.params).toEqual({ id: 7 });
  expect(onClose).toHaveBeenCalled();
});

test('with nobody of the other side linked to Telegram, sending is off and the spec’s words say why', async () => {
  const { gateway } = renderInWorld(<TelegramDialog orderId={7} onClose={() => {}} />, {
    user: USERS.operator,
    answers: { client_order_tg_recipient: recipient(0, 'client') },
  });
  expect(await screen.findByTestId('telegram-no-recipient')).toHaveTextContent(
    TELEGRAM_MESSAGES.noTelegramId,
  );
  expect(screen.getByText('сообщение клиенту «ООО «Ромашка»» в Telegram')).toBeInTheDocument();
  await userEvent.type(screen.getByTestId('telegram-msg'), 'Товар выкуплен');
  expect(screen.getByTestId('telegram-send')).toBeDisabled();
  expect(gateway.of('client_order_tg_send')).toHaveLength(0);
});

test('a refusal is shown in words and the dialog keeps the text', async () => {
  const onClose = jest.fn();
  renderInWorld(<TelegramDialog orderId={7} onClose={onClose} />, {
    user: USERS.client,
    answers: {
      client_order_tg_recipient: recipient(1),
      client_order_tg_send: () => new Refusal(TELEGRAM_MESSAGES.blocked),
    },
  });
  await screen.findByText('сообщение оператору «Восточный экспресс» в Telegram');
  await userEvent.type(screen.getByTestId('telegram-msg'), 'Вы здесь?');
  await userEvent.click(screen.getByTestId('telegram-send'));
  expect(await screen.findByText(TELEGRAM_MESSAGES.blocked)).toBeInTheDocument();
  expect(screen.getByTestId('telegram-msg')).toHaveValue('Вы здесь?');
  expect(onClose).not.toHaveBeenCalled();
});
