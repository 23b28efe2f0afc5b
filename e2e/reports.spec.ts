import type { Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { CLIENT, expect, formedOrder, login, ok, test } from './support';

/**
 * The client order report (issue 19; docs/adr/0024-reports.md) in Chromium against the whole system: a
 * client opens the report from the menu and sees their own orders' sums — the same as their orders list
 * adds up — and the orders, among them one the spec makes for itself; the Excel file downloads and
 * opens with the same rows and totals. A second client's report holds none of it.
 */
const CLIENT2 = { email: 'client2@caravan.local', password: 'caravan123' };

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const nbsp = (s: string | null) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ');
/** '1 234,56 ₽' as the page shows a sum of kopecks */
const rubles = (kopecks: bigint) => {
  const whole = (kopecks / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  return `${whole},${(kopecks % 100n).toString().padStart(2, '0')} ₽`;
};
/** A sum in kopecks: exact from the API's decimal text, rounded from a spreadsheet cell's number. */
const kopecksOf = (value: string | number | null) =>
  typeof value === 'number' ? BigInt(Math.round(value * 100)) : BigInt((value ?? '0.00').replace('.', ''));

/** Every order of the reader, page after page of their orders list, with its price parts. */
async function ordersOf(page: Page) {
  const all: Any[] = [];
  let cursor: string | null = null;
  do {
    const result = await ok(page, 'client_order_list', { per_page: 100, ...(cursor ? { cursor } : {}) });
    all.push(...result.items);
    cursor = result.next_cursor;
  } while (cursor);
  return all;
}

test('a client sees their own orders’ sums and downloads the same rows as Excel', async ({
  page,
  browser,
}) => {
  // the order the spec makes goes through the whole system (pricing, events): slow on a busy machine
  test.setTimeout(150_000);
  await login(page, CLIENT);
  const orderId = await formedOrder(page);
  const order = await ok(page, 'client_order_get_by_id', { id: orderId });

  // what their orders add up to, from the orders list: the goods (none for self-bought ones) and the total
  const orders = await ordersOf(page);
  expect(orders.map((o) => o.id)).toContain(orderId);
  const goods = orders.reduce<bigint>(
    (sum, o) => sum + (o.buyout_type === 'self' ? 0n : kopecksOf(o.buyout_price_rur)),
    0n,
  );
  const total = orders.reduce<bigint>((sum, o) => sum + kopecksOf(o.total_price_rur), 0n);

  await page.getByRole('navigation', { name: 'меню' }).getByText('отчёт по заказам').click();
  await expect(page.getByRole('heading', { name: 'Отчёт по заказам' })).toBeVisible();
  await page.getByTestId('report-period-all').click();
  await expect(page).toHaveURL(/all=1/);
  await expect(page.getByTestId('report-total-orders')).toContainText(String(orders.length));
  expect(nbsp(await page.getByTestId('report-total-product').textContent())).toContain(rubles(goods));
  expect(nbsp(await page.getByTestId('report-total-delivery').textContent())).toContain(
    rubles(total - goods),
  );
  expect(nbsp(await page.getByTestId('report-total-total').textContent())).toContain(rubles(total));
  // the charts and the client's one line of the summary
  await expect(page.getByTestId('report-chart-month').getByTestId('chart-bar').first()).toBeAttached();
  await expect(page.getByTestId('report-chart-stage').getByTestId('chart-bar').first()).toBeAttached();
  await expect(page.getByTestId('report-client-row')).toHaveCount(1);

  // the orders, newest first: the spec's own order at the top, with its sums
  const rows = page.getByTestId('report-row');
  await expect(rows.first().getByRole('link', { name: order.title, exact: true })).toHaveAttribute(
    'href',
    `/client_order/${orderId}`,
  );
  expect(nbsp(await rows.first().textContent())).toContain(
    rubles(kopecksOf(order.total_price_rur)).replace(' ₽', ''),
  );
  while (await page.getByTestId('report-more').isVisible()) {
    const shown = await rows.count();
    await page.getByTestId('report-more').click();
    await expect.poll(() => rows.count()).toBeGreaterThan(shown);
  }
  await expect(rows).toHaveCount(orders.length);
  const pageIds = await rows
    .getByRole('link')
    .evaluateAll((links) => links.map((a) => Number(a.getAttribute('href')!.split('/').pop())));

  // the Excel file: the same rows in the same order, the same totals
  const download = page.waitForEvent('download');
  await page.getByTestId('report-download').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('отчёт по заказам.xlsx');
  await expect(page.getByText('файл отчёт по заказам.xlsx скачан')).toBeVisible();
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(await file.path());
  const sheet = book.getWorksheet('Заказы')!;
  const cells: unknown[][] = [];
  sheet.eachRow((row) => cells.push((row.values as unknown[]).slice(1)));
  const [header, ...body] = cells;
  const totalRow = body.pop()!;
  expect(header).toEqual([
    '№',
    'заказ',
    'номер заказа',
    'клиент',
    'этап',
    'создан',
    'товары, ₽',
    'доставка, ₽',
    'сумма, ₽',
  ]);
  expect(body.map((r) => r[0])).toEqual(pageIds);
  const own = body.find((r) => r[0] === orderId)!;
  expect(own[1]).toBe(order.title);
  expect(kopecksOf(own[8] as number)).toBe(kopecksOf(order.total_price_rur));
  expect(totalRow[1]).toBe('итого');
  expect(kopecksOf(totalRow[6] as number)).toBe(goods);
  expect(kopecksOf(totalRow[8] as number)).toBe(total);
  const clients = book.getWorksheet('Клиенты')!;
  expect(clients.rowCount).toBe(3); // the header, the client, the total

  // another client's report holds none of it
  const other = await browser.newPage();
  await login(other, CLIENT2);
  await other.goto('/client_order_report?all=1');
  await expect(other.getByRole('heading', { name: 'Отчёт по заказам' })).toBeVisible();
  await expect(
    other.getByTestId('report-total-orders').or(other.getByText('ничего не найдено')),
  ).toBeVisible();
  await expect(other.getByRole('link', { name: order.title, exact: true })).toHaveCount(0);
  const theirs = await ok(other, 'client_order_report_rows', { per_page: 500 });
  expect(theirs.items.map((r: Any) => r.id)).not.toContain(orderId);
  await other.close();
});
