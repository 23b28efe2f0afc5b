import { BULK_MESSAGES } from '@caravan/contracts';
import { sheetWithoutRefs, workbookParts, zipOf } from './fixtures/invoices/handWritten';
import { ordersWorld, type Any, type OrdersWorld } from './support';

/**
 * Issue 17, an import that reads what suppliers send (docs/adr/0016-import-as-suppliers-write.md): a
 * Chinese supplier's invoice as LibreOffice writes it goes through the endpoint (column mapping,
 * flagged rows) and its yuan prices become the positions' price_cny.
 */
let w: OrdersWorld;
beforeAll(async () => {
  w = await ordersWorld('orders-import-suppliers');
});
afterAll(async () => {
  await w?.stop();
});
jest.setTimeout(60_000);

const invoice = () =>
  zipOf(
    workbookParts(
      sheetWithoutRefs([
        ['PI NO.: YW-88'],
        ['ITEM NO.\n货号', 'DESCRIPTION\n品名', "Q'TY", 'UNIT PRICE\n(RMB)', 'AMOUNT\n(RMB)'],
        ['A-1', 'Silicone case', '1,200', '6.80', '8,160.00'],
        ['A-2', 'Type-C cable', '3,000 pcs', '3.25', '9,000.00'],
      ]),
    ),
  );

it('reads a yuan invoice with its mapping and flagged rows, and imports price_cny', async () => {
  const order = await w.draftOrder();
  const reply = await w.upload(
    'client_order_excel_import',
    [invoice(), 'PI.xlsx'],
    { type: 'invoice', orderId: String(order.id) },
    w.users.clientA,
  );
  expect(reply.ok).toBe(true);
  const read = reply.result;
  expect(read.number).toBe('YW-88');
  expect(read.rows.map((r: Any) => [r.title, r.amount, r.price_cny, r.price_no_nds])).toEqual([
    ['Silicone case', '1200', '6.80', null],
    ['Type-C cable', '3000', '3.25', null],
  ]);
  expect(read.columns.map((c: Any) => c.target)).toEqual(['title', 'amount', 'price_cny', 'sum_cny']);
  expect(read.flags).toEqual([
    { row: 1, message: BULK_MESSAGES.importSumMismatch('9000.00', '3000', '3.25', '9750.00') },
  ]);

  const before = await w.orders.db('client_order_position').where({ client_order_id: order.id });
  expect(before).toHaveLength(0);
  const imported = await w.call(
    'client_order_position_import',
    {
      client_order_id: order.id,
      source: 'excel',
      order_number: read.number,
      positions: read.rows.map((r: Any) => ({ title: r.title, amount: r.amount, price_cny: r.price_cny })),
    },
    w.users.clientA,
  );
  expect(imported.ok).toBe(true);
  const stored = await w.orders
    .db('client_order_position')
    .where({ client_order_id: order.id })
    .orderBy('id')
    .select('title', 'amount', 'price_cny', 'sell_price_no_nds_rur');
  expect(
    stored.map((r) => [r.title, String(r.amount), String(r.price_cny), r.sell_price_no_nds_rur]),
  ).toEqual([
    ['Silicone case', '1200.00', '6.80', null],
    ['Type-C cable', '3000.00', '3.25', null],
  ]);
});
