import { CARRIER_MESSAGES } from '@caravan/contracts';
import { provideSlot } from '@caravan/slots';
import { renderInWorld, USERS } from '@caravan/ui-kit/testing';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OrderPayment } from '../OrderPayment';
import { paymentLockedByCdek } from './paymentLock';

/** The payment card under a CDEK status (spec orders-payments-calls §4, §8; issue 18). */
// mf-wallet's payment dialog stands behind the 'order-payment' slot; here a marker shows it opened
beforeAll(() => provideSlot('order-payment', () => <div data-testid="payment-dialog" />));
const order = (state: string | null, carrier = 'cdek') => ({
  id: 7,
  stage: 'buyout_waiting',
  state: 'active',
  buyout_price_rur: '2500.00',
  product_paid_rur: '0',
  delivery_paid_rur: '0',
  product_payment_state: 'not_paid',
  delivery_payment_state: 'not_paid',
  transport_company_rus: carrier,
  transport_company_rus_delivery_state: state,
});

test('only CDEK statuses past ACCEPTED and CREATED lock the payment', () => {
  expect(paymentLockedByCdek(order('TAKEN_BY_COURIER'))).toBe(true);
  expect(paymentLockedByCdek(order('CREATED'))).toBe(false);
  expect(paymentLockedByCdek(order(null))).toBe(false);
  expect(paymentLockedByCdek(order('TAKEN_BY_COURIER', 'pec'))).toBe(false);
});

test('a client paying an order CDEK already carries is warned and the telegram dialog to the operator opens, no payment', async () => {
  renderInWorld(<OrderPayment id={7} values={order('SENT_TO_RECIPIENT_CITY')} />, {
    user: USERS.client,
    answers: {
      client_order_tg_recipient: () => ({ side: 'operator', title: 'Восточный экспресс', linked: 1 }),
    },
  });
  expect(screen.getByTestId('payment-cdek-locked')).toBeInTheDocument();
  await userEvent.click(screen.getByTestId('order-pay'));
  expect(await screen.findByText('сообщение оператору «Восточный экспресс» в Telegram')).toBeInTheDocument();
  expect(screen.getByTestId('telegram-note')).toHaveTextContent(CARRIER_MESSAGES.cdekLockedClient);
  expect(screen.queryByTestId('payment-dialog')).not.toBeInTheDocument();
});

test('an admin is reminded to fix the waybill by hand and may go on', async () => {
  renderInWorld(<OrderPayment id={7} values={order('SENT_TO_RECIPIENT_CITY')} />, { user: USERS.admin });
  await userEvent.click(screen.getByTestId('order-pay'));
  expect(await screen.findByText(CARRIER_MESSAGES.cdekLockedStaff)).toBeInTheDocument();
  expect(screen.getByTestId('payment-dialog')).toBeInTheDocument();
  expect(screen.queryByTestId('telegram-dialog')).not.toBeInTheDocument();
});

test('a CDEK order still at ACCEPTED is not locked: the payment opens', async () => {
  renderInWorld(<OrderPayment id={7} values={order('ACCEPTED')} />, { user: USERS.client });
  expect(screen.queryByTestId('payment-cdek-locked')).not.toBeInTheDocument();
  await userEvent.click(screen.getByTestId('order-pay'));
  expect(screen.getByTestId('payment-dialog')).toBeInTheDocument();
});
