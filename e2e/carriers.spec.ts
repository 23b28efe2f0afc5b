import type { Page } from '@playwright/test';
import { PORT_OFFSET } from './playwright.config';
import { ADMIN, CLIENT, expect, login, ok, OPERATOR, sentToRussia, test } from './support';

/**
 * Carriers and tracking (issue 18; docs/adr/0020-carriers-and-tracking.md), in Chromium against the whole
 * system with the carriers' sandboxes `npm start` runs: an operator creates the CDEK waybill from the card,
 * the sandbox moves the parcel along and the client's open card follows to 'вручён получателю'; a PEC order
 * is synced by its button; an Ozon posting's product is linked to a position. Each test makes its own order.
 */
type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A carrier's sandbox, on the port `npm start` gives it (deploy/local/start.mjs). */
const SANDBOX_PORTS = { cdek: 4013, pec: 4014, ozon: 4016 } as const;
async function sandbox(page: Page, vendor: keyof typeof SANDBOX_PORTS, path: string, data: unknown = {}) {
  const res = await page.request.post(`http://127.0.0.1:${SANDBOX_PORTS[vendor] + PORT_OFFSET}${path}`, {
    data,
  });
  expect(res.ok(), `${vendor} sandbox ${path}: ${res.status()}`).toBe(true);
  return (await res.json()) as Any;
}

const stage = (page: Page) => page.getByTestId('order-stage');
const toast = (page: Page, text: string) => page.locator('.bp6-toast').filter({ hasText: text }).last();
const DELIVERY = {
  title: 'Офис Ромашки',
  address: 'Москва, ул. Складочная, 1',
  delivery_point_code: '',
  contact_name: 'Иван Петров',
  contact_phone: '+79161234567',
  city: 'Москва',
};

/** An order of the demo client at 'отправлен в РФ', handed to `carrier` (the admin's writes). */
async function orderFor(client: Page, admin: Page, carrier: string, extra: Record<string, unknown> = {}) {
  const id = await sentToRussia(client, admin);
  await ok(admin, 'client_order_update', {
    id,
    transport_company_rus: carrier,
    delivery_data: { ...DELIVERY, transport_company: carrier },
    ...extra,
  });
  return id;
}

async function asUser(page: Page, user: { email: string; password: string }) {
  const other = await page.context().browser()!.newContext();
  const p = await other.newPage();
  await login(p, user);
  return p;
}

test('an operator creates the CDEK waybill from the card; the client sees the parcel reach «вручён получателю» live', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await login(page, CLIENT);
  const admin = await asUser(page, ADMIN);
  const orderId = await orderFor(page, admin, 'cdek');

  // the operator: the draft from the card, confirmed
  const operator = await asUser(page, OPERATOR);
  await operator.goto(`/client_order/${orderId}`);
  const card = operator.getByTestId('order-carrier');
  await card.getByTestId('cdek-draft').click();
  const confirm = operator.getByRole('alertdialog');
  await confirm.getByRole('button', { name: 'создать накладную СДЭК' }).click();
  await expect(toast(operator, 'накладная СДЭК создана')).toBeVisible();
  // the waybill exists: the draft button is gone, the status is CDEK's
  await expect(card.getByTestId('cdek-draft')).toHaveCount(0);
  await expect(card.getByTestId('carrier-status-label')).toHaveText(/создан|принят СДЭК/);
  const order = await ok(admin, 'client_order_get_by_id', { id: orderId });
  expect(order.transport_company_rus_order_uuid).toMatch(/^[0-9a-f-]{36}$/);

  // the client watches the open card while CDEK moves the parcel (the sandbox posts CDEK's webhooks)
  await page.goto(`/client_order/${orderId}`);
  await expect(stage(page)).toHaveText('отправлен в РФ');
  const uuid = order.transport_company_rus_order_uuid as string;
  await sandbox(page, 'cdek', `/sandbox/shipments/${uuid}/advance`, { status: 'SENT_TO_RECIPIENT_CITY' });
  await expect(stage(page)).toHaveText('отправлен по адресу в РФ');
  await expect(page.getByTestId('carrier-status-label')).toHaveText('в пути в город получателя');
  await sandbox(page, 'cdek', `/sandbox/shipments/${uuid}/advance`, { status: 'DELIVERED' });
  await expect(stage(page)).toHaveText('вручён получателю');
  await expect(page.getByTestId('carrier-status-label')).toHaveText('вручён');
  await expect(page.getByTestId('carrier-history')).toContainText('в пути в город получателя');
  await expect(page.getByTestId('carrier-last-check')).toContainText('последняя проверка');

  // a replayed webhook moves nothing twice: the history holds each status once
  const history = (await ok(page, 'client_order_get_by_id', { id: orderId })).carrier_statuses as Any[];
  expect(history.filter((s) => s.vendor_status === 'DELIVERED')).toHaveLength(1);
  await operator.context().close();
  await admin.context().close();
});

test('a PEC order is synced by its button and reaches «вручён получателю»', async ({ page }) => {
  test.setTimeout(150_000);
  await login(page, CLIENT);
  const admin = await asUser(page, ADMIN);
  const cargo = await sandbox(page, 'pec', '/sandbox/shipments');
  const code = String(cargo.number ?? cargo.code);
  expect(code).toMatch(/^\d{12}$/);
  const orderId = await orderFor(page, admin, 'pec', { transport_company_rus_order_number: code });

  const operator = await asUser(page, OPERATOR);
  await operator.goto(`/client_order/${orderId}`);
  const sync = operator.getByTestId('order-carrier').getByTestId('pec-sync');
  await expect(sync).toBeVisible();
  // PEC hands the cargo over only now: the background polling (every 60 s) would otherwise see it first
  // and the button, rightly, goes away for a delivered cargo
  await sandbox(page, 'pec', `/sandbox/shipments/${code}/advance`, { status: 'Доставлен получателю' });
  await sync.click();
  await expect(toast(operator, 'статус перевозчика: Доставлен получателю')).toBeVisible();
  await expect(stage(operator)).toHaveText('вручён получателю');
  await expect(operator.getByTestId('carrier-status-label')).toHaveText('Доставлен получателю');
  await operator.context().close();
  await admin.context().close();
});

test("an operator links an Ozon posting's product to a position", async ({ page }) => {
  test.setTimeout(150_000);
  await login(page, CLIENT);
  const admin = await asUser(page, ADMIN);
  const posting = await sandbox(page, 'ozon', '/sandbox/shipments');
  const number = String(posting.posting_number);
  const product = (posting.products as Any[])[0];
  const orderId = await orderFor(page, admin, 'ozon', { transport_company_rus_order_number: ` ${number} ` });

  const operator = await asUser(page, OPERATOR);
  await operator.goto(`/client_order/${orderId}`);
  const panel = operator.getByTestId('ozon-panel');
  await expect(panel).toContainText(number);
  const row = panel.getByTestId(`ozon-product-${product.sku}`);
  await expect(row).toContainText(product.name);
  await row.getByRole('combobox').selectOption({ label: 'Кружка' });
  await expect(toast(operator, 'товар Ozon привязан')).toBeVisible();
  const positions = (await ok(admin, 'client_order_position_list', { client_order_id: orderId }))
    .items as Any[];
  const mug = positions.find((p) => p.title === 'Кружка');
  expect(mug.options.ozonData).toMatchObject({ sku: product.sku, offer_id: product.offer_id });
  await operator.context().close();
  await admin.context().close();
});
