import type { Page } from '@playwright/test';
import { callAsPage, expect, login, OPERATOR, test } from './support';

/** The operator checks and buys out eight positions with one click each (issue 17: it took sixteen). */

const PNG = [{ file: '/api/files/00000000-0000-4000-8000-000000000000.png', deleted: false }];
const toast = (page: Page, text: string) => page.locator('.bp6-toast').filter({ hasText: text }).last();

async function done(page: Page, method: string, params: unknown) {
  const reply = await callAsPage(page, method, params);
  expect(reply.message ?? null).toBeNull();
  return reply.result;
}

test("'проверено' and 'выкуплено' on the selection move every selected position at once", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await login(page, OPERATOR);
  const order = await done(page, 'client_order_update', {
    id: -1,
    client_id: 1,
    operator_id: 1,
    logistic_route_id: 1,
    buyout_type: 'operator',
    delivery_type: 'to_door',
  });
  const [toys] = (await done(page, 'logistic_product_type_list', { search: 'Игрушки' })).items;
  for (let i = 1; i <= 8; i++)
    await done(page, 'client_order_position_update', {
      id: -1,
      client_order_id: order.id,
      title: `Игрушка ${i}`,
      type_id: toys.id,
      link: 'https://detail.1688.com/offer/1.html',
      product_images: PNG,
      price_cny: '20.00',
      amount: '2',
    });
  await done(page, 'client_order_created', { id: order.id });

  await page.goto(`/client_order/${order.id}`);
  const table = page.getByTestId('position-table');
  await expect(table.locator('tbody tr')).toHaveCount(8);
  await table.getByLabel('выбрать все').check({ force: true });
  await table.getByTestId('bulk-step-verification_done').click();
  await expect(toast(page, 'этап в 8 позициях изменён')).toBeVisible();

  await done(page, 'client_order_buyout_waiting', { id: order.id });
  await page.reload();
  await expect(table.locator('tbody tr')).toHaveCount(8);
  await table.getByLabel('выбрать все').check({ force: true });
  await expect(table.getByTestId('bulk-step-buyout_done')).toHaveText('выкуплено (8)');
  await table.getByTestId('bulk-step-buyout_done').click();
  await expect(toast(page, 'этап в 8 позициях изменён')).toBeVisible();

  const positions = await done(page, 'client_order_position_list', {
    where_param: [{ field: 'client_order_id', op: '=', value: order.id }],
    per_page: 100,
  });
  expect(positions.items.map((p: { stage: string }) => p.stage)).toEqual(Array(8).fill('buyout_done'));
});
