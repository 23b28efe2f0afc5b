import { CARRIER_MESSAGES, JDE_STATUS_LABELS } from '@caravan/contracts';
import { Refusal, renderInWorld, USERS, type Answers } from '@caravan/ui-kit/testing';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CarrierSync, SYNC_TEXTS } from './CarrierSync';

/** The PEC / JDE sync buttons on the card (spec orders-payments-calls §5, §8; issue 18). */
const api = (type: string, access_token: string) => ({
  type,
  api_data: { client_id: '', access_token },
  recipient_cost_commission: '0',
});
const operator = (tokens: Record<string, string>) => ({
  id: 5,
  transport_company_data: Object.entries(tokens).map(([type, token]) => api(type, token)),
  client_list: [],
});
const order = (carrier: string, number: string, state: string | null = null) => ({
  id: 40,
  operator_id: 5,
  transport_company_rus: carrier,
  transport_company_rus_order_number: number,
  transport_company_rus_delivery_state: state,
});
const PEC = '123456789012';
const JDE16 = '1234567890123456';
const show = (
  values: Record<string, unknown>,
  answers: Answers = {},
  tokens = { pec: 'pec-token', jde: 'jde-token' },
) =>
  renderInWorld(<CarrierSync id={40} values={values} />, {
    user: USERS.operator,
    answers: { operator_get_by_id: () => operator(tokens), ...answers },
  });
const settled = async (gateway: { of(m: string): unknown[] }) => {
  await waitFor(() => expect(gateway.of('operator_get_by_id')).toHaveLength(1));
  await new Promise((r) => setTimeout(r, 0));
};

test('PEC sync asks PEC about this order and tells its status', async () => {
  const { gateway } = show(order('pec', PEC, 'В пути'), {
    '/api/pec_order_get': () => ({
      info: { cargoStatus: 'Прибыл', receivedByClientDateTime: null, deliveryPlanDate: null },
      services: { sum: '1450.00' },
    }),
  });
  await userEvent.click(await screen.findByTestId('pec-sync'));
  expect(await screen.findByText(SYNC_TEXTS.synced('Прибыл'))).toBeInTheDocument();
  expect(gateway.of('/api/pec_order_get').map((c) => c.params)).toEqual([{ order_id: 40 }]);
});

test('a failed JDE sync says to try again', async () => {
  show(order('jde', JDE16, 'OnRoad'), {
    '/api/jde_order_get': () => new Refusal('ЖелДор: сервис недоступен'),
  });
  await userEvent.click(await screen.findByTestId('jde-sync'));
  expect(await screen.findByText(CARRIER_MESSAGES.somethingWrongRetry)).toBeInTheDocument();
});

test('JDE sync tells the status in words', async () => {
  show(order('jde', '1234567890123456789', 'OnRoad'), {
    '/api/jde_order_get': () => ({ status: 'Delivering', date: '25.11.2026' }),
  });
  await userEvent.click(await screen.findByTestId('jde-sync'));
  expect(await screen.findByText(SYNC_TEXTS.synced(JDE_STATUS_LABELS.Delivering))).toBeInTheDocument();
});

test.each([
  ['a PEC number of the wrong length', order('pec', '12345678901')],
  ['a delivered PEC cargo', order('pec', PEC, 'Выдан получателю')],
  ['a JDE number of the wrong length', order('jde', '123456789012345')],
  ['a delivered JDE cargo', order('jde', JDE16, 'Delivered')],
])('no sync button for %s', async (_, values) => {
  const { gateway } = show(values);
  await settled(gateway);
  expect(screen.queryByTestId('pec-sync')).not.toBeInTheDocument();
  expect(screen.queryByTestId('jde-sync')).not.toBeInTheDocument();
});

test("without the carrier's access token the button is disabled", async () => {
  show(order('pec', PEC), {}, { pec: '', jde: 'jde-token' });
  expect(await screen.findByTestId('pec-sync')).toBeDisabled();
});
