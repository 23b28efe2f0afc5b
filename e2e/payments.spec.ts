import type { Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import {
  ADMIN,
  callAsPage,
  CLIENT,
  expect,
  formedOrder,
  login,
  ok,
  sentToRussia,
  test,
  topUpThroughBank,
  waitingForPayment,
} from './support';

/**
 * Paying orders (issue 11; docs/adr/0012-payments.md), in Chromium against the whole system with its
 * sandbox bank: the client pays an order's goods from the wallet and another order's delivery by card on
 * the bank's page, the card updates live, the PDF invoice reads right; an admin marks the rest of the
 * delivery paid; a second client sees none of it. The spec makes its own orders, so it passes alone and
 * repeated.
 */
const CLIENT2 = { email: 'client2@caravan.local', password: 'caravan123' };

const nbsp = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

/**
 * Two orders of client 1 the spec makes for itself: one whose goods wait for payment, one sent to Russia
 * whose goods the admin marked paid and whose delivery is due.
 */
async function ordersWithDues(client: Page, admin: Page) {
  const goodsId = await formedOrder(client);
  await waitingForPayment(admin, goodsId);
  const deliveryId = await sentToRussia(client, admin);
  const dueOf = async (id: number) =>
    ((await ok(client, 'client_order_dues', { per_page: 50 })).rows as Due[]).find((r) => r.id === id);
  await expect.poll(async () => Number((await dueOf(goodsId))?.product_due ?? 0)).toBeGreaterThan(10_000);
  await expect.poll(async () => Number((await dueOf(deliveryId))?.delivery_due ?? 0)).toBeGreaterThan(10_000);
  const delivery = (await dueOf(deliveryId))!;
  expect(Number(delivery.product_due)).toBe(0);
  return { goods: (await dueOf(goodsId))!, delivery };
}
type Due = { id: number; title: string; stage: string; product_due: string; delivery_due: string };

async function openPayment(page: Page, orderId: number) {
  await page.goto(`/client_order/${orderId}`);
  await page.getByTestId('order-pay').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('payment-dues')).toBeVisible();
  return dialog;
}

/** The text of a PDF, page by page, as a reader would select it. */
async function pdfText(file: string) {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(await readFile(file)) }).promise;
  let text = '';
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    text += content.items.map((item) => ('str' in item ? item.str : '')).join(' ') + '\n';
  }
  return nbsp(text).replace(/\s+/g, ' ');
}

test('a client pays goods from the wallet and delivery by card, gets the invoice; an admin marks the rest paid', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await login(page, CLIENT);
  const staff = await browser.newPage();
  await login(staff, ADMIN);
  const { goods, delivery } = await ordersWithDues(page, staff);
  await staff.close();
  // 'Основной' gets the 1 000 ₽ paid below through the bank first, whatever other specs left in it
  const main = (await callAsPage(page, 'wallet_list', { per_page: 50 })).result.items.find(
    (w: { title: string; currency_id: number }) => w.title === 'Основной' && w.currency_id === 2,
  );
  await topUpThroughBank(page, main.id, 1000);
  const walletBefore = (await callAsPage(page, 'wallet_get_by_id', { id: main.id })).result;

  // the goods, 1 000 ₽ from the wallet
  let dialog = await openPayment(page, goods.id);
  await dialog.getByText('с кошелька', { exact: true }).click();
  await dialog.getByLabel('сумма, ₽').fill('1000');
  await dialog.getByTestId('payment-pay').click();
  await expect(dialog.getByText('готово!')).toBeVisible();
  await expect(dialog.getByText('товар оплачен частично')).toBeVisible();
  await dialog.getByRole('button', { name: 'закрыть' }).click();
  await expect(page.getByTestId('product-payment-state')).toHaveText('оплачен частично');
  const walletAfter = (await callAsPage(page, 'wallet_get_by_id', { id: walletBefore.id })).result;
  expect(Number(walletAfter.amount)).toBeCloseTo(Number(walletBefore.amount) - 1000, 2);

  // the delivery, 10 000 ₽ by card: the bank's page opens in a new tab, the payer pays there
  dialog = await openPayment(page, delivery.id);
  await expect(dialog.getByLabel('доставка')).toBeChecked();
  await dialog.getByText('карта', { exact: true }).click();
  await dialog.getByLabel('сумма, ₽').fill('10000');
  // the card fee: 10 000 / (1 − 2.5%) = 10 256.41
  await expect(dialog.getByText('к оплате с комиссией: 10 256,41 ₽')).toBeVisible();
  const bankPage = page.waitForEvent('popup');
  await dialog.getByTestId('payment-pay').click();
  await expect(dialog.getByTestId('bank-waiting')).toBeVisible();
  const bank = await bankPage;
  await expect(bank.locator('body')).toContainText('10 256,41');
  await bank.getByRole('button', { name: 'оплатить' }).click();
  await expect(bank.locator('body')).toContainText('платёж выполнен');
  await bank.close();
  // the result arrives by itself: the order's stream (or the dialog's polling)
  await expect(dialog.getByText('готово!')).toBeVisible();
  await expect(dialog.getByText('доставка оплачена частично')).toBeVisible();
  await dialog.getByRole('button', { name: 'закрыть' }).click();
  await expect(page.getByTestId('delivery-payment-state')).toHaveText('оплачена частично');

  // the invoice as PDF, its text as the client's accountant reads it
  const download = page.waitForEvent('download');
  await page.getByTestId('invoice-pdf').click();
  const file = await (await download).path();
  await expect(page.getByText(/файл .* скачан/)).toBeVisible();
  const text = await pdfText(file);
  expect(text).toContain('Счёт на оплату');
  expect(text).toContain(`Счёт на оплату № ${delivery.id}`);
  expect(text).toContain(
    'Поставщик (Исполнитель): Общество с ограниченной ответственностью «Восточный экспресс», ИНН 7728041125',
  );
  expect(text).toContain(
    'Покупатель (Заказчик): Общество с ограниченной ответственностью «Ромашка», ИНН 7725012341',
  );
  expect(text).toContain('Доставка до РФ');
  expect(text).toMatch(/Всего к оплате: [\d ]+,\d\d/);
  expect(text).toMatch(/[А-Я][а-я ]+ рубл(ь|я|ей) \d\d копе(йка|йки|ек)/);
  expect(text).toContain('Руководитель Ли Вэй');

  // an admin marks the rest of the delivery paid
  const admin = await browser.newPage();
  await login(admin, ADMIN);
  dialog = await openPayment(admin, delivery.id);
  await dialog.getByText('доставка', { exact: true }).click();
  await dialog.getByText('отметить оплаченным (администратор)', { exact: true }).click();
  await dialog.getByTestId('payment-pay').click();
  await expect(dialog.getByText('состояние оплаты товара/доставки изменено')).toBeVisible();
  await dialog.getByRole('button', { name: 'закрыть' }).click();
  await expect(admin.getByTestId('delivery-payment-state')).toHaveText('оплачена до двери');
  await admin.close();
  // the client's open card follows live
  await expect(page.getByTestId('delivery-payment-state')).toHaveText('оплачена до двери');

  // a second client sees none of it
  const other = await browser.newPage();
  await login(other, CLIENT2);
  expect(await callAsPage(other, 'client_order_get_by_id', { id: delivery.id })).toMatchObject({
    ok: false,
    message: 'запись не найдена',
  });
  expect(
    await callAsPage(other, 'client_order_payment_receive', { id: delivery.id, prepare: true }),
  ).toMatchObject({
    ok: false,
    message: 'запись не найдена',
  });
  const theirs = await callAsPage(other, 'fin_operation_list', { per_page: 100 });
  expect(theirs.ok).toBe(true);
  expect(theirs.result.items.length).toBeGreaterThan(0);
  expect(theirs.result.items.every((o: { wallet_id: number }) => o.wallet_id !== walletBefore.id)).toBe(true);
  const payments = await callAsPage(other, 'order_payment_list', { per_page: 100 });
  expect(
    payments.result.items.some((p: { client_order_id: number }) => p.client_order_id === delivery.id),
  ).toBe(false);
  await other.close();
});
