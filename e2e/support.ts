import { expect, test as base, type Browser, type Locator, type Page } from '@playwright/test';
import { checkReply, takeMismatches, watchBrowser, writeCoverage } from './openapiConformance';

/**
 * Every test fails on an uncaught error in any of its pages: a crashed screen is never a silent pass.
 * And on a reply of /api that does not match /api/openapi.json (docs/adr/0026), in any of its browsers.
 */
export const test = base.extend<
  { failOnPageErrors: void; repliesMatchOpenApi: void },
  { browser: Browser; openApiCoverage: void }
>({
  failOnPageErrors: [
    async ({ context }, use) => {
      const errors: string[] = [];
      const watch = (page: Page) => page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
      context.pages().forEach(watch);
      context.on('page', watch);
      await use();
      expect(errors, 'uncaught errors in the page').toEqual([]);
    },
    { auto: true },
  ],
  browser: [
    async ({ browser }, use) => {
      watchBrowser(browser);
      await use(browser);
    },
    { scope: 'worker' },
  ],
  repliesMatchOpenApi: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      await use();
      expect(await takeMismatches(), 'replies that do not match /api/openapi.json').toEqual([]);
    },
    { auto: true },
  ],
  openApiCoverage: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      await use();
      writeCoverage(workerInfo.project.outputDir, workerInfo.workerIndex);
    },
    { scope: 'worker', auto: true },
  ],
});
export { expect };

export const ADMIN = { email: 'admin@caravan.local', password: 'caravan-admin' };
export const CLIENT = { email: 'client@caravan.local', password: 'caravan123' };
export const OPERATOR = { email: 'operator@caravan.local', password: 'caravan123' };

/**
 * The session token of each user this worker has logged in through the form. A later `login` of that user, in
 * a new page or browser context, opens the app with it, as a returning user's browser does. That skips the
 * form and the password hash (scrypt with the production parameters, ≈ 0.5 s of the machine's 2 cores) paid
 * once per user instead of at each of the specs' 70 logins. A token the gateway no longer accepts sends the
 * app to the login page, and the user logs in through the form again.
 */
const sessions = new Map<string, string>();

export async function login(page: Page, user: { email: string; password: string }) {
  const menu = page.getByRole('navigation', { name: 'меню' });
  const loginButton = page.getByRole('button', { name: 'войти' });
  const token = sessions.get(user.email);
  if (token) {
    // once per tab (sessionStorage): a reload or a later logout in the spec is not undone
    await page.addInitScript((stored) => {
      if (window.sessionStorage.getItem('e2e-session-restored')) return;
      window.sessionStorage.setItem('e2e-session-restored', '1');
      window.localStorage.setItem('authToken', stored);
    }, token);
  }
  await page.goto('/');
  await expect(menu.or(loginButton)).toBeVisible();
  if (token && (await menu.isVisible())) return;
  await page.getByLabel('email').fill(user.email);
  await page.getByLabel('пароль').fill(user.password);
  await loginButton.click();
  await expect(menu).toBeVisible();
  const fresh = await page.evaluate(() => window.localStorage.getItem('authToken'));
  if (fresh) sessions.set(user.email, fresh);
}

/** A procedure call as the logged-in browser user (same token, same gateway). */
export async function callAsPage(page: Page, method: string, params: unknown) {
  const token = await page.evaluate(() => window.localStorage.getItem('authToken'));
  const res = await page.request.post('/api/call_pg_func', {
    headers: { 'Auth-token': token ?? '' },
    data: { method, params },
  });
  const reply = (await res.json()) as { ok: boolean; result: any; message?: string }; // eslint-disable-line @typescript-eslint/no-explicit-any
  const call = { httpMethod: 'POST', path: '/api/call_pg_func', method, status: res.status(), body: reply };
  expect(await checkReply(call), 'the reply matches /api/openapi.json').toBeNull();
  return reply;
}

/** A form control by its label, whether or not the label marks it required ('название *'). */
export const field = (scope: Page | Locator, label: string) =>
  scope.getByLabel(new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?\\s*$`));

/** The list page's own container (its search box is not a reference select's 'поиск'). */
export const list = (page: Page) => page.locator('.caravan-document-list');
/** The list page's search box, scoped to the list. */
export const listSearch = (page: Page) => list(page).getByRole('textbox', { name: 'поиск', exact: true });

/**
 * Picks a row from the reference select that `trigger` opens: the one open popover, its search, the
 * row once the list holds the search's rows; then waits until the popover is gone, so that no closing
 * popover's 'поиск' box is still on screen when the next step looks for one.
 */
export async function pick(page: Page, trigger: Locator, search: string | null, option: string) {
  const popover = page.locator('.caravan-ref-menu');
  await expect(popover).toHaveCount(0);
  await trigger.click();
  await expect(popover).toHaveCount(1);
  if (search !== null) await popover.getByRole('textbox', { name: 'поиск', exact: true }).fill(search);
  // the rows of the typed search, not the ones they replace (a row clicked as the list changes moves away)
  await expect(popover.getByRole('menu')).toHaveAttribute('aria-busy', 'false');
  await popover.getByRole('menuitem', { name: option, exact: true }).click();
  await expect(popover).toHaveCount(0);
}

/** Opens a reference select by its label, searches and picks a row. */
export async function choose(
  page: Page,
  label: string,
  search: string,
  option = search,
  scope: Page | Locator = page,
) {
  await pick(page, field(scope, label), search, option);
}

/** The seeded route Иу → Москва, Складочная for toys: 300 kg in 2 m³ costs 750 $. */
export async function fillCalculator(page: Page, weight: string) {
  await page.goto('/logistic_route/widget');
  await choose(page, 'откуда (город в Китае)', 'Иу');
  await choose(page, 'склад прибытия', 'Складочная', 'Москва, Складочная');
  await choose(page, 'тип товара', 'Игрушки');
  await field(page, 'вес, кг').fill(weight);
  await field(page, 'объём, м³').fill('2');
}

// ── orders a spec makes for itself (so it passes alone, in any order and repeated) ──

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A call that must succeed; a refusal fails the test with its message. */
export async function ok(page: Page, method: string, params: unknown) {
  const reply = await callAsPage(page, method, params);
  expect(reply, `${method}: ${reply.message ?? ''}`).toMatchObject({ ok: true });
  return reply.result as Any;
}

/**
 * A formed order of the demo client with two positions, priced like one of their orders (of `operatorId`,
 * when given: the operator who is to move it).
 */
export async function formedOrder(client: Page, operatorId?: number) {
  // a product type the client's goods already have, and an order of theirs with a route and an operator
  // (asked of the server: specs running beside this one add positions and orders without them)
  const typed = { field: 'type_id', op: 'not_null' };
  const [item] = (await ok(client, 'client_order_position_list', { per_page: 1, where_param: [typed] }))
    .items as Any[];
  expect(item, 'a demo position with a product type').toBeTruthy();
  const operator =
    operatorId === undefined
      ? { field: 'operator_id', op: 'not_null' }
      : { field: 'operator_id', op: '=', value: operatorId };
  const [model] = (
    await ok(client, 'client_order_list', {
      per_page: 1,
      where_param: [{ field: 'logistic_route_id', op: 'not_null' }, operator],
    })
  ).items as Any[];
  expect(model, 'a demo order with a route').toBeTruthy();
  const draft = {
    id: -1,
    client_id: model.client_id,
    operator_id: model.operator_id,
    logistic_route_id: model.logistic_route_id,
    buyout_type: 'operator',
    delivery_type: 'to_door',
  };
  // a system just started may not have replicated the operators into svc-orders yet (a fresh topic prefix
  // waits out the broker's first 'not the leader' answers): a refused draft writes nothing, so ask again
  let order: Any = null;
  await expect
    .poll(
      async () => {
        const reply = await callAsPage(client, 'client_order_update', draft);
        if (reply.ok) order = reply.result;
        return reply.ok ? 'ok' : reply.message;
      },
      { timeout: 90_000, intervals: [1000] },
    )
    .toBe('ok');
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
export async function waitingForPayment(staff: Page, orderId: number) {
  const positions = (await ok(staff, 'client_order_position_list', { client_order_id: orderId }))
    .items as Any[];
  for (const position of positions)
    await ok(staff, 'client_order_position_action', { id: position.id, action: 'checked' });
  await ok(staff, 'client_order_buyout_waiting', { id: orderId });
}

/**
 * An order of the demo client sent to Russia with its delivery priced and its goods marked paid by the admin:
 * the positions bought out, sent to and received at the consolidation warehouse, then 'отправлен в РФ'.
 */
export async function sentToRussia(client: Page, admin: Page) {
  const orderId = await formedOrder(client);
  await waitingForPayment(admin, orderId);
  await expect
    .poll(
      async () =>
        (await callAsPage(admin, 'client_order_payment_receive', { id: orderId, prepare: true })).ok,
    )
    .toBe(true);
  await ok(admin, 'client_order_payment_receive', { id: orderId, kind: 'product', type: 'manual' });
  const today = new Date().toISOString().slice(0, 10);
  const positions = (await ok(admin, 'client_order_position_list', { client_order_id: orderId }))
    .items as Any[];
  for (const [i, position] of positions.entries()) {
    await ok(admin, 'client_order_position_action', { id: position.id, action: 'buyout_done' });
    await ok(admin, 'client_order_position_update', { id: position.id, waybill: `SF77000${orderId}${i}` });
    await ok(admin, 'client_order_position_action', {
      id: position.id,
      action: 'warehouse_waiting',
      receive_date: today,
    });
    await ok(admin, 'client_order_position_action', {
      id: position.id,
      action: 'warehouse_received',
      receive_record: { date: today, amount: 1, transporter: 'SF Express', cost: null, comment: '' },
    });
  }
  const received = await ok(admin, 'client_order_get_by_id', { id: orderId });
  expect(received.stage).toBe('warehouse_received');
  await ok(admin, 'client_order_update', {
    id: orderId,
    stage: 'sent_to_ru',
    version: received.version,
    send_date: today,
    shipment_article: `E2E-${orderId}`,
    volume: '0.5',
    weight: '120',
    amount: 2,
    to_ru_delivery_price: '300',
  });
  return orderId;
}

/**
 * Tops a wallet up through the sandbox bank as a payer would: an SBP link from /api/modul_sbp_create,
 * 'оплатить' on the bank's page, then the balance rises by `amount`.
 */
export async function topUpThroughBank(page: Page, walletId: number, amount: number) {
  const before = Number((await ok(page, 'wallet_get_by_id', { id: walletId })).amount);
  const token = await page.evaluate(() => window.localStorage.getItem('authToken'));
  const res = await page.request.post('/api/modul_sbp_create', {
    headers: { 'Auth-token': token ?? '' },
    data: {
      type: 'link',
      operation_type: 'wallet',
      wallet_id: walletId,
      amount: String(amount),
      comment: '',
    },
  });
  const created = (await res.json()) as { ok: boolean; result: { sbp_link?: string }; message?: string };
  expect(created, created.message).toMatchObject({ ok: true });
  const payer = await page.context().newPage();
  await payer.goto(created.result.sbp_link!);
  await payer.getByRole('button', { name: 'оплатить' }).click();
  await expect(payer.getByText('платёж выполнен')).toBeVisible();
  await payer.close();
  await expect
    .poll(async () => Number((await ok(page, 'wallet_get_by_id', { id: walletId })).amount))
    .toBeCloseTo(before + amount, 2);
}
