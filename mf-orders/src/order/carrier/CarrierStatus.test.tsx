import { CDEK_STATUS_TEXT, type ShipmentView } from '@caravan/contracts';
import { renderInWorld, USERS } from '@caravan/ui-kit/testing';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CarrierStatus } from './CarrierStatus';

/** The carrier status on the order card (issue 18): current status, last check, last failure, history. */
const shipment = (over: Partial<ShipmentView> = {}): ShipmentView => ({
  client_order_id: 40,
  carrier: 'cdek',
  number: '1234567890',
  uuid: '72753031-0b9c-4c43-9d6f-6c0f2f4d1a11',
  vendor_status: 'ACCEPTED_IN_RECIPIENT_CITY',
  label: 'в городе получателя',
  tooltip: null,
  last_confirmed_at: '2026-11-24T09:05:00Z',
  last_error: null,
  final: false,
  history: [],
  ...over,
});
const order = (over: Record<string, unknown> = {}) => ({
  id: 40,
  transport_company_rus: 'cdek',
  transport_company_rus_order_number: '1234567890',
  carrier_statuses: [
    // the carrier the order had before: not this shipment's history
    {
      carrier: 'pec',
      vendor_status: 'Принят к перевозке',
      label: 'Принят к перевозке',
      status_at: '2026-11-24T08:00:00Z',
      city: 'Москва',
    },
    {
      carrier: 'cdek',
      vendor_status: 'CREATED',
      label: 'создан',
      status_at: '2026-11-20T10:00:00Z',
      city: null,
    },
    {
      carrier: 'cdek',
      vendor_status: 'ACCEPTED_IN_RECIPIENT_CITY',
      label: 'в городе получателя',
      status_at: '2026-11-23T15:30:00Z',
      city: 'Казань',
    },
    {
      carrier: 'cdek',
      vendor_status: 'SENT_TO_RECIPIENT_CITY',
      label: 'в пути в город получателя',
      status_at: '2026-11-22T08:00:00Z',
      city: 'Москва',
    },
  ],
  ...over,
});

test('shows the CDEK status in its words with the explanation, the last check in Moscow time and the history newest first', async () => {
  const { gateway } = renderInWorld(<CarrierStatus id={40} values={order()} />, {
    user: USERS.client,
    answers: { client_order_shipment_get: () => shipment() },
  });
  const label = await screen.findByTestId('carrier-status-label');
  expect(label).toHaveTextContent(CDEK_STATUS_TEXT.ACCEPTED_IN_RECIPIENT_CITY.label);
  await userEvent.hover(label);
  expect(await screen.findByText(CDEK_STATUS_TEXT.ACCEPTED_IN_RECIPIENT_CITY.tooltip)).toBeInTheDocument();
  expect(screen.getByTestId('carrier-last-check')).toHaveTextContent(
    'последняя проверка: 24-11-2026 12:05 МСК',
  );
  const lines = within(screen.getByTestId('carrier-history')).getAllByRole('row');
  expect(lines.map((l) => l.textContent)).toEqual([
    '23-11-2026 18:30 МСКв городе получателяКазань',
    '22-11-2026 11:00 МСКв пути в город получателяМосква',
    '20-11-2026 13:00 МСКсоздан',
  ]);
  expect(gateway.of('client_order_shipment_get')[0]!.params).toEqual({ client_order_id: 40 });
  expect(screen.queryByTestId('carrier-last-error')).not.toBeInTheDocument();
});

test("another carrier's status is shown by its label, and a failure of the last check in words", async () => {
  renderInWorld(
    <CarrierStatus id={40} values={order({ transport_company_rus: 'pec', carrier_statuses: [] })} />,
    {
      answers: {
        client_order_shipment_get: () =>
          shipment({
            carrier: 'pec',
            vendor_status: 'Прибыл',
            label: 'Прибыл',
            last_error: 'сервис ПЭК не ответил',
            history: [
              { vendor_status: 'Прибыл', label: 'Прибыл', status_at: '2026-11-23T07:00:00Z', city: 'Тверь' },
            ],
          }),
      },
    },
  );
  expect(await screen.findByTestId('carrier-status-label')).toHaveTextContent('Прибыл');
  expect(screen.getByTestId('carrier-last-error')).toHaveTextContent('сервис ПЭК не ответил');
  expect(screen.getByTestId('carrier-history')).toHaveTextContent('23-11-2026 10:00 МСКПрибылТверь');
});

test('an order with a carrier the system does not follow asks nothing and shows nothing', async () => {
  const { gateway } = renderInWorld(
    <CarrierStatus id={40} values={order({ transport_company_rus: 'business_lines' })} />,
  );
  await new Promise((r) => setTimeout(r, 0));
  expect(screen.queryByTestId('carrier-status')).not.toBeInTheDocument();
  expect(gateway.calls).toHaveLength(0);
});
