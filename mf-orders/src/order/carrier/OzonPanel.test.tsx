import { CARRIER_MESSAGES, type OzonPosting } from '@caravan/contracts';
import { listOf, Refusal, renderInWorld, USERS, type Answers } from '@caravan/ui-kit/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import '../../routes';
import { PositionTable } from '../PositionTable';
import { OzonPanel } from './OzonPanel';

/** The Ozon posting panel and the Ozon column (spec orders-payments-calls §2, §4, §5; issue 18). */
const posting = (over: Partial<OzonPosting> = {}): OzonPosting => ({
  posting_number: '0123456789-0001-1',
  status: 'delivering',
  products: [
    {
      name: 'Кроссовки беговые',
      sku: 1001,
      offer_id: 'RUN-42',
      quantity: 2,
      price: '4990.00',
      currency_code: 'RUB',
    },
  ],
  weight: '1.950',
  delivering_date: '2026-11-28T00:00:00Z',
  ...over,
});
const position = (id: number, title: string, ozonData: unknown = null) => ({
  id,
  title,
  client_order_id: 40,
  stage: 'sent_to_ru',
  amount: '2.00',
  price_cny: '100.00',
  waybill: 'SF1234567890',
  product_images: [],
  files: [],
  options: { client_id: 2, ozonData },
  deleted: false,
});
const order = {
  id: 40,
  stage: 'sent_to_ru',
  transport_company_rus: 'ozon',
  transport_company_rus_order_number: '  0123456789-0001-1 ',
  weight: '2.000',
  to_door_delivery_date: '2026-11-28',
};

/** The card with a carrier switch, as the user changes transport_company_rus. */
function Card({ carrier = 'ozon' }: { carrier?: string }) {
  const [current, setCurrent] = useState(carrier);
  const values = { ...order, transport_company_rus: current };
  return (
    <>
      <button onClick={() => setCurrent(current === 'ozon' ? 'pec' : 'ozon')}>сменить перевозчика</button>
      <OzonPanel id={40} values={values} />
      <PositionTable order={values} orderId={40} editable={false} />
    </>
  );
}
const show = (
  answers: Answers = {},
  rows = [position(1, 'Кроссовки беговые'), position(2, 'Носки')],
  user = USERS.operator,
) =>
  renderInWorld(<Card />, {
    user,
    answers: {
      client_order_position_list: () => listOf(rows),
      '/api/ozon_posting_get': () => posting(),
      client_order_position_update: (p: Record<string, unknown>) => p,
      ...answers,
    },
  });
const switchCarrier = () => userEvent.click(screen.getByRole('button', { name: 'сменить перевозчика' }));

test('an Ozon order fetches its posting by the trimmed number and lists its products', async () => {
  const { gateway } = show();
  const panel = await screen.findByTestId('ozon-panel');
  expect(panel).toHaveTextContent('0123456789-0001-1');
  expect(within(panel).getByTestId('ozon-product-1001')).toHaveTextContent('Кроссовки беговые');
  expect(gateway.of('/api/ozon_posting_get').map((c) => c.params)).toEqual([
    { client_order_id: 40, posting_number: '0123456789-0001-1' },
  ]);
});

test('linking a product to a position stores the product on it and says so; unlinking too', async () => {
  const { gateway } = show({}, [
    position(1, 'Кроссовки беговые', { sku: 1001, offer_id: 'RUN-42', quantity: 2 }),
    position(2, 'Носки'),
  ]);
  const select = await screen.findByRole('combobox', { name: 'позиция: Кроссовки беговые' });
  await waitFor(() => expect(select).toHaveValue('1'));
  await userEvent.selectOptions(select, '2');
  expect(await screen.findByText(CARRIER_MESSAGES.ozonLinked)).toBeInTheDocument();
  expect(gateway.of('client_order_position_update').map((c) => c.params)).toEqual([
    { id: 1, options: { client_id: 2, ozonData: null } },
    { id: 2, options: { client_id: 2, ozonData: { sku: 1001, offer_id: 'RUN-42', quantity: 2 } } },
  ]);
  await userEvent.selectOptions(select, '');
  expect(await screen.findByText(CARRIER_MESSAGES.ozonUnlinked)).toBeInTheDocument();
});

test('switching away from Ozon clears the posting and its column; switching back fetches it again', async () => {
  const { gateway } = show();
  await screen.findByTestId('ozon-panel');
  expect(await screen.findAllByTestId('ozon-cell')).toHaveLength(2);
  await switchCarrier();
  await waitFor(() => expect(screen.queryByTestId('ozon-panel')).not.toBeInTheDocument());
  expect(screen.queryByTestId('ozon-cell')).not.toBeInTheDocument();
  await switchCarrier();
  expect(await screen.findByTestId('ozon-panel')).toBeInTheDocument();
  expect(gateway.of('/api/ozon_posting_get')).toHaveLength(2);
});

test('a posting without products leaves the position table without the Ozon column', async () => {
  show({ '/api/ozon_posting_get': () => posting({ products: [] }) });
  await screen.findByTestId('ozon-panel');
  await screen.findByTestId('position-row-1');
  expect(screen.queryByTestId('ozon-cell')).not.toBeInTheDocument();
});

test("Ozon's refusal is shown in its words and no posting stays", async () => {
  show({ '/api/ozon_posting_get': () => new Refusal('Ozon: отправление не найдено') });
  expect(await screen.findByText('Ozon: отправление не найдено')).toBeInTheDocument();
  expect(screen.queryByTestId('ozon-panel')).not.toBeInTheDocument();
});

test('a posting disagreeing with the order is only logged for the operator to look at', async () => {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    show({ '/api/ozon_posting_get': () => posting({ weight: '2.300' }) });
    await screen.findByTestId('ozon-panel');
    await waitFor(() => expect(warn).toHaveBeenCalled());
    expect(String(warn.mock.calls[0]![0])).toContain('0123456789-0001-1');
    expect(warn.mock.calls[0]![1]).toEqual(['вес 2.300 кг ≠ 2.000 кг']);
  } finally {
    warn.mockRestore();
  }
});

test('a client sees the posting but cannot link its products', async () => {
  show({}, undefined, USERS.client);
  expect(await screen.findByRole('combobox', { name: 'позиция: Кроссовки беговые' })).toBeDisabled();
});
