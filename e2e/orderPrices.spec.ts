import type { Page } from '@playwright/test';
import { callAsPage, CLIENT, expect, login, OPERATOR, test } from './support';

/**
 * The position table's prices (issue 17, ADR 0018): the per-unit and per-kg columns are filled for
 * the client and the operator (the order carries the rate it is priced at and its route's buyout
 * commission). The spec makes its own draft order, copying where the client's latest order goes.
 */

async function newPricedOrder(page: Page) {
  const latest = (await callAsPage(page, 'client_order_list', { per_page: 1 })).result.items[0];
  const order = await callAsPage(page, 'client_order_update', {
    id: -1,
    title: `цены e2e ${Date.now()}`,
    client_id: latest.client_id,
    operator_id: latest.operator_id,
    logistic_route_id: latest.logistic_route_id,
    consolidation_warehouse_id: latest.consolidation_warehouse_id,
    to_warehouse_id: latest.to_warehouse_id,
    buyout_type: 'operator',
    delivery_type: latest.delivery_type,
  });
  expect(order, order.message).toMatchObject({ ok: true });
  const position = await callAsPage(page, 'client_order_position_update', {
    id: -1,
    client_order_id: order.result.id,
    title: 'Кружка керамическая',
    price_cny: '20',
    amount: '5',
    weight: '0.4',
  });
  expect(position, position.message).toMatchObject({ ok: true });
  return order.result.id as number;
}

/** The cell of the first position under a column header of the table. */
async function cellUnder(page: Page, header: string) {
  const table = page.getByTestId('position-table');
  await expect(table.getByTestId('position-row-1')).toBeVisible();
  const headers = await table.locator('thead th').allInnerTexts();
  const index = headers.map((h) => h.trim()).indexOf(header);
  expect(index, `column '${header}' in ${headers.join(' | ')}`).toBeGreaterThanOrEqual(0);
  return table.getByTestId('position-row-1').locator('td').nth(index);
}

test('the per-unit and per-kg prices of a position are shown to the client and the operator', async ({
  page,
  browser,
}) => {
  await login(page, CLIENT);
  const id = await newPricedOrder(page);
  const seen = (await callAsPage(page, 'client_order_get_by_id', { id })).result;
  expect(Number(seen.rate_cny), 'the order carries the yuan rate it is priced at').toBeGreaterThan(0);
  const money = /^\d[\d\s\u00a0]*,\d\d\s₽$/;
  for (const viewer of [page, await browser.newPage()]) {
    if (viewer !== page) await login(viewer, OPERATOR);
    await viewer.goto(`/client_order/${id}`);
    await expect(await cellUnder(viewer, 'выкуп + доставка за ед., ₽')).toHaveText(money);
    await expect(await cellUnder(viewer, 'цена за кг, ₽')).toHaveText(money);
  }
});
