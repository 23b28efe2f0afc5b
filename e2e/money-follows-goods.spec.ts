import type { Page } from '@playwright/test';
import { ADMIN, callAsPage, CLIENT, expect, login, test } from './support';

/**
 * Money follows the goods (issue 17; docs/adr/0013-money-follows-the-goods.md), in Chromium against the
 * whole system: a paid order of the client is split by staff; both cards show nothing due for the goods
 * (never a negative due), the child reads 'оплачен', and the widget's dues (the write-off) offer neither.
 * The spec makes its own order (from the demo client's route and goods), so it passes alone and repeated.
 */
type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

async function ok(page: Page, method: string, params: unknown) {
  const reply = await callAsPage(page, method, params);
  expect(reply, `${method}: ${reply.message ?? ''}`).toMatchObject({ ok: true });
  return reply.result as Any;
}

/** A formed order of the demo client with two positions, priced like one of their orders. */
async function formedOrder(client: Page) {
  // a product type the client's goods already have, and an order of theirs with a route and an operator
  const goods = (await ok(client, 'client_order_position_list', { per_page: 50 })).items as Any[];
  const item = goods.find((p) => p.type_id);
  expect(item, 'a demo position with a product type').toBeTruthy();
  const orders = (await ok(client, 'client_order_list', { per_page: 50 })).items as Any[];
  const model = orders.find((o) => o.logistic_route_id && o.operator_id);
  expect(model, 'a demo order with a route').toBeTruthy();
  const order = await ok(client, 'client_order_update', {
    id: -1,
    client_id: model.client_id,
    operator_id: model.operator_id,
    logistic_route_id: model.logistic_route_id,
    buyout_type: 'operator',
    delivery_type: 'to_door',
  });
  for (const [title, amount] of [
    ['Кружка', '10'],
    ['Ложка', '5'],
  ])
    await ok(client, 'client_order_position_update', {
      id: -1,
      client_order_id: order.id,
      title,
      link: item.link || 'https://item.taobao.com/1',
      product_images: item.product_images?.length
        ? item.product_images
        : [{ file: '/api/files/0b6c1b2e.jpg', deleted: false }],
      type_id: item.type_id,
      // dearer than any demo wallet holds: auto-debit leaves it alone, the admin marks it paid (ADR 0012)
      price_cny: '20000',
      amount,
    });
  await ok(client, 'client_order_created', { id: order.id });
  await expect
    .poll(async () => Number((await ok(client, 'client_order_get_by_id', { id: order.id })).buyout_price_rur))
    .toBeGreaterThan(0);
  return order.id as number;
}

/** Staff check the positions and ask for payment: payment opens once the order is priced (ADR 0017). */
async function waitingForPayment(staff: Page, orderId: number) {
  const positions = (await ok(staff, 'client_order_position_list', { client_order_id: orderId }))
    .items as Any[];
  for (const position of positions)
    await ok(staff, 'client_order_position_action', { id: position.id, action: 'checked' });
  await ok(staff, 'client_order_buyout_waiting', { id: orderId });
}

const dueRow = (page: Page) =>
  page.getByTestId('price-breakdown').getByRole('row').filter({ hasText: 'к оплате за товар' });

test('a paid order split by staff: the child takes what was paid for its goods, nothing is billed twice', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await login(page, CLIENT);
  const parent = await formedOrder(page);
  const staff = await browser.newPage();
  await login(staff, ADMIN);
  await waitingForPayment(staff, parent);
  await expect
    .poll(
      async () => (await callAsPage(staff, 'client_order_payment_receive', { id: parent, prepare: true })).ok,
    )
    .toBe(true);
  await ok(staff, 'client_order_payment_receive', { id: parent, kind: 'product', type: 'manual' });
  await expect
    .poll(async () => (await ok(page, 'client_order_get_by_id', { id: parent })).product_payment_state)
    .toBe('paid');
  const [, spoons] = (await ok(page, 'client_order_position_list', { client_order_id: parent }))
    .items as Any[];
  const split = await ok(staff, 'client_order_split', {
    master_order_id: parent,
    position_list: [{ id: spoons.id, amount: 5 }],
  });
  const child = split.id as number;
  await staff.close();

  for (const id of [child, parent]) {
    await page.goto(`/client_order/${id}`);
    await expect(page.getByTestId('product-payment-state')).toHaveText('оплачен');
    await expect(dueRow(page)).toContainText(/0,00\s₽/);
    await expect(page.getByTestId('price-breakdown')).not.toContainText('−');
  }
  // the widget's dues and the write-off offer neither order
  const dues = (await ok(page, 'client_order_dues', { per_page: 50 })).rows as { id: number }[];
  expect(dues.map((r) => r.id)).not.toContain(parent);
  expect(dues.map((r) => r.id)).not.toContain(child);
});
