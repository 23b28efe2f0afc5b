import type { Page } from '@playwright/test';
import { CLIENT, expect, formedOrder, login, ok, OPERATOR, test, waitingForPayment } from './support';

/**
 * Notifications (issue 19; docs/adr/0021-notifications.md), in Chromium against the whole system: a client
 * with the order card open sees the bell's badge rise when the operator moves the order, opens the drawer,
 * reads the notification with its order, marks it read, and the count drops — all live, no reload.
 */
type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The demo operator's operator (deploy seed: operator@caravan.local works for operator 1). */
const DEMO_OPERATOR_ID = 1;

const badge = (page: Page) => page.getByTestId('notification-badge');
/** The bell's count now (no badge: none unread). */
async function unread(page: Page) {
  if (!(await badge(page).count())) return 0;
  return parseInt((await badge(page).textContent()) ?? '0', 10);
}

test('the client on the order card sees the badge rise when the operator moves the order, and reads it in the drawer', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  await login(page, CLIENT);
  const orderId = await formedOrder(page, DEMO_OPERATOR_ID);
  const order = await ok(page, 'client_order_get_by_id', { id: orderId });
  await page.goto(`/client_order/${orderId}`);
  await expect(page.getByTestId('order-stage')).toHaveText('сформирован');
  // what the client had unread before (the demo data's top-ups, earlier tests): the bell shows it
  const me = await ok(page, 'user_current', {});
  const mine = await ok(page, 'notification_list', {
    per_page: 1,
    where_param: [
      { field: 'user_table_id', op: '=', value: me.id },
      { field: 'is_read', op: '=', value: false },
    ],
  });
  const before = mine.total as number;
  await expect.poll(() => unread(page)).toBe(Math.min(before, 99));

  // the operator, in a browser of their own, checks the goods and asks for payment
  const operator = await (await browser.newContext()).newPage();
  await login(operator, OPERATOR);
  await waitingForPayment(operator, orderId);

  // the client's open card: the stage moves and the bell counts the news, without a reload
  await expect(page.getByTestId('order-stage')).toHaveText('ожидает оплаты/выкупа');
  await expect.poll(() => unread(page)).toBeGreaterThan(before);
  const risen = await unread(page);

  await page.getByTestId('notification-bell').click();
  const drawer = page.getByTestId('notification-drawer');
  const item = drawer
    .getByTestId('notification-item')
    .filter({ hasText: 'заказ ожидает оплаты' })
    .filter({ hasText: String(order.title) });
  await expect(item).toHaveCount(1);
  await item.getByRole('button').first().click();
  const dialog = page.getByRole('dialog', { name: 'заказ ожидает оплаты' });
  await expect(dialog.getByTestId('notification-message')).toHaveText(
    `${order.title} перешёл на этап «ожидает оплаты/выкупа»`,
  );
  await expect(dialog.getByTestId('notification-order')).toContainText('этап: ожидает оплаты/выкупа');
  await dialog.getByRole('button', { name: 'прочитано' }).click();
  await expect(dialog).toHaveCount(0);
  // read: gone from the drawer, the count one less
  await expect(item).toHaveCount(0);
  await expect.poll(() => unread(page)).toBe(risen - 1);

  // it was the client's own copy: the operator who moved the order has none of it
  const theirs = (
    await ok(operator, 'notification_list', {
      where_param: [{ field: 'item_id', op: '=', value: orderId }],
    })
  ).items as Any[];
  expect(theirs.filter((n) => n.label === 'заказ ожидает оплаты')).toEqual([]);
  await operator.context().close();
});
