import type { Page } from '@playwright/test';
import {
  ADMIN,
  callAsPage,
  CLIENT,
  expect,
  formedOrder,
  login,
  ok,
  test,
  waitingForPayment,
} from './support';

/**
 * Money follows the goods (issue 17; docs/adr/0013-money-follows-the-goods.md), in Chromium against the
 * whole system: a paid order of the client is split by staff; both cards show nothing due for the goods
 * (never a negative due), the child reads 'оплачен', and the widget's dues (the write-off) offer neither.
 * The spec makes its own order (from the demo client's route and goods), so it passes alone and repeated.
 */
type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

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
