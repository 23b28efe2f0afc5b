import type { Identity } from '@caravan/contracts';
import { callService, eventually, type RunningService } from '@caravan/service-kit';
import { ordersWorld, admin, type Any, type OrdersWorld } from '../../svc-orders/test/support';
import { signedForm } from '../src/adapters/modulbank/sandbox';
import { httpCall, sandboxMerchant, startPayments, withRate } from './support';

/**
 * Money in through the acquirer and orders paid (issue 11; docs/adr/0012-payments.md): the real
 * Modulbank client against the built-in sandbox bank, whose payer page completes or declines; signed
 * callbacks credit a wallet or an order once; forged, mismatched and replayed callbacks move nothing;
 * an order paid from the wallet, or marked paid by an admin, reaches svc-orders' paid amounts and states.
 */
let w: OrdersWorld;
let payments: RunningService;
let callbackBase: string;
const { secret, merchant } = sandboxMerchant;

beforeAll(async () => {
  w = await ordersWorld('payments-acquiring');
  payments = await startPayments('payments-acquiring');
  callbackBase = payments.url;
  await payments.bus.ready;
  await withRate(payments, w);
}, 60_000);
afterAll(async () => {
  await payments?.stop();
  await w?.stop();
});

const call = async (method: string, params: unknown, who: Identity = w.users.clientA) =>
  (await callService(payments.url, method, params, who)).body as {
    ok: boolean;
    result: Any;
    message?: string;
  };
const http = (path: string, body: unknown, who: Identity = w.users.clientA) =>
  httpCall(payments, path, body, who);
const postCallback = (form: Record<string, string>) =>
  fetch(`${callbackBase}/api/acquiring/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });

async function newWallet(clientId = w.clientA.id) {
  const reply = await call(
    'wallet_update',
    { id: -1, title: 'Для пополнений', client_id: clientId, currency_id: 2 },
    admin,
  );
  if (!reply.ok) throw new Error(reply.message);
  return reply.result.id as number;
}
const wallet = (id: number) => payments.db('wallet').where({ id }).first();
const payment = (id: number) => payments.db('acquiring_payment').where({ id }).first();
const movementsOf = (walletId: number) =>
  payments.db('fin_operation').where({ wallet_id: walletId }).orderBy('id');
/** What the payer's bank page does: open it, press the button. */
async function payOnBankPage(url: string, button: 'complete' | 'decline') {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const html = await page.text();
  const res = await fetch(`${url.replace(/\/(sbp|pay)\//, '/pay/')}/${button}`, {
    method: 'POST',
    redirect: 'manual',
  });
  expect(res.status).toBeLessThan(400);
  return html;
}
/** A callback as the bank would sign it, for a payment of ours. */
const bankCallback = (id: number, amount: string, fields: Record<string, string> = {}) =>
  signedForm(
    {
      merchant,
      order_id: String(id),
      transaction_id: `tx-${id}`,
      amount,
      currency: 'RUB',
      state: 'COMPLETE',
      testing: '1',
      unix_timestamp: String(Math.floor(Date.now() / 1000)),
      salt: 'a'.repeat(32),
      ...fields,
    },
    secret,
  );

describe('a top-up through the bank', () => {
  it('by QR: the payer pays on the bank page, the wallet gets the amount once, the QR is an image', async () => {
    const walletId = await newWallet();
    const created = await http('modul_sbp_create', {
      type: 'img',
      operation_type: 'wallet',
      wallet_id: walletId,
      amount: '1000',
    });
    expect(created.ok).toBe(true);
    expect(Buffer.from(created.result.image, 'base64').subarray(1, 4).toString()).toBe('PNG');
    const pending = await payment(created.result.payment_id);
    // the payer pays the QR fee: 1000 / (1 − 0.7%) = 1007.05
    expect(pending).toMatchObject({ state: 'pending', amount: '1000.00', amount_with_fee: '1007.05' });
    const page = await payOnBankPage(created.result.sbp_link, 'complete');
    expect(page.replace(/[\u00a0\u202f]/g, ' ')).toContain('1 007,05 ₽');
    await eventually('the payment settled', async () => (await payment(pending.id)).state === 'done');
    expect((await wallet(walletId)).amount).toBe('1000.00');
    expect(await movementsOf(walletId)).toMatchObject([
      {
        direction: 'in',
        amount: '1000.00',
        cause: 'top_up',
        type: 'img',
        wallet_amount_before: '0.00',
        wallet_amount_after: '1000.00',
      },
    ]);
    expect((await payment(pending.id)).message).toBe('баланс пополнен на 1\u00a0000,00\u00a0₽');

    // the bank's retry of the same callback, and a replay of it, move nothing
    const replay = await postCallback(bankCallback(pending.id, '1007.05'));
    expect(replay.status).toBe(200);
    expect((await wallet(walletId)).amount).toBe('1000.00');
    expect(await movementsOf(walletId)).toHaveLength(1);
  });

  it('by card: a declined payment moves nothing and tells why', async () => {
    const walletId = await newWallet();
    const created = await http('modul_sbp_create', {
      type: 'card',
      operation_type: 'wallet',
      wallet_id: walletId,
      amount: '500',
    });
    expect(created.ok).toBe(true);
    await payOnBankPage(created.result.bill.url, 'decline');
    await eventually(
      'the payment failed',
      async () => (await payment(created.result.payment_id)).state === 'failed',
    );
    expect((await payment(created.result.payment_id)).amount_with_fee).toBe('512.82');
    expect((await payment(created.result.payment_id)).message).not.toBe('');
    expect((await wallet(walletId)).amount).toBe('0.00');
    expect(await movementsOf(walletId)).toHaveLength(0);
  });

  it('refuses a forged signature, a changed amount, another currency and a test callback for a live payment', async () => {
    const walletId = await newWallet();
    const created = await http('modul_sbp_create', {
      type: 'link',
      operation_type: 'wallet',
      wallet_id: walletId,
      amount: '200',
    });
    const id = created.result.payment_id as number;
    const genuine = bankCallback(id, '201.41');
    expect((await postCallback({ ...genuine, signature: 'f'.repeat(40) })).status).toBe(403);
    expect((await postCallback({ ...genuine, amount: '20000.00' })).status).toBe(403);
    expect((await postCallback(bankCallback(id, '20000.00'))).status).toBe(400);
    expect((await postCallback(bankCallback(id, '201.41', { currency: 'USD' }))).status).toBe(400);
    expect((await postCallback(bankCallback(999_999, '201.41'))).status).toBe(404);
    expect(await payment(id)).toMatchObject({ state: 'pending' });
    expect((await wallet(walletId)).amount).toBe('0.00');
    // the genuine one, twice at once: credited once
    const both = await Promise.all([postCallback(genuine), postCallback(genuine)]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect((await wallet(walletId)).amount).toBe('200.00');
    expect(await movementsOf(walletId)).toHaveLength(1);
  });

  it("refuses another client's wallet, a test flag from a client, and a top-up by 'wallet' (a transfer)", async () => {
    const theirs = await newWallet(w.clientB.id);
    const before = await payments.db('acquiring_payment').count({ n: '*' }).first();
    expect(
      await http('modul_sbp_create', {
        type: 'img',
        operation_type: 'wallet',
        wallet_id: theirs,
        amount: '10',
      }),
    ).toEqual({
      ok: false,
      result: null,
      message: 'запись не найдена',
    });
    const mine = await newWallet();
    expect(
      (await http('modul_sbp_create', { type: 'img', wallet_id: mine, amount: '10', test: true })).message,
    ).toBe('действие доступно только администратору');
    expect((await http('modul_sbp_create', { type: 'wallet', wallet_id: mine, amount: '10' })).message).toBe(
      'пополнение из другого кошелька делается переводом между кошельками',
    );
    expect((await http('modul_sbp_create', { type: 'img', wallet_id: mine, amount: '0' })).message).toContain(
      'сумма',
    );
    expect(await payments.db('acquiring_payment').count({ n: '*' }).first()).toEqual(before);
  });
});

describe('the bank on the way, and what waits for it', () => {
  it('a state on the way changes nothing; COMPLETE after FAILED (a retried card) credits once', async () => {
    const walletId = await newWallet();
    const created = await http('modul_sbp_create', {
      type: 'card',
      operation_type: 'wallet',
      wallet_id: walletId,
      amount: '100',
    });
    const id = created.result.payment_id as number;
    expect((await postCallback(bankCallback(id, '102.56', { state: 'PROCESSING' }))).status).toBe(200);
    expect(await payment(id)).toMatchObject({ state: 'pending' });
    expect((await postCallback(bankCallback(id, '102.56', { state: 'FAILED' }))).status).toBe(200);
    expect(await payment(id)).toMatchObject({ state: 'failed' });
    expect((await postCallback(bankCallback(id, '102.56'))).status).toBe(200);
    expect((await postCallback(bankCallback(id, '102.56'))).status).toBe(200);
    expect(await payment(id)).toMatchObject({ state: 'done' });
    expect((await wallet(walletId)).amount).toBe('100.00');
    expect(await movementsOf(walletId)).toHaveLength(1);
  });

  it('a wallet whose top-up waits for the bank is not deleted', async () => {
    const walletId = await newWallet();
    await http('modul_sbp_create', {
      type: 'link',
      operation_type: 'wallet',
      wallet_id: walletId,
      amount: '50',
    });
    expect(await call('wallet_update', { id: walletId, deleted: true })).toMatchObject({
      ok: false,
      message: 'у кошелька есть платёж, который ещё ждёт банка: удалить кошелёк можно после него',
    });
    expect((await wallet(walletId)).deleted).toBe(false);
  });

  it('only the client (or an admin) chooses the default wallet, and only a rouble one', async () => {
    // a wallet operator A reaches (theirs and the client's)
    const walletId = (
      await call(
        'wallet_update',
        { id: -1, title: 'С оператором', client_id: w.clientA.id, operator_id: w.opA.id },
        admin,
      )
    ).result.id as number;
    const yuan = (
      await call('wallet_update', { id: -1, title: 'Юани', client_id: w.clientA.id, currency_id: 1 }, admin)
    ).result.id;
    const before = await wallet(walletId);
    expect(
      await call('wallet_update', { id: walletId, options: { is_default: true } }, w.users.operatorA),
    ).toMatchObject({
      ok: false,
      message: 'основной кошелёк (автосписание) выбирает клиент',
    });
    expect(await wallet(walletId)).toEqual(before);
    expect(await call('wallet_update', { id: yuan, options: { is_default: true } })).toMatchObject({
      ok: false,
      message: 'основным может быть только рублёвый кошелёк: с него идут оплаты и автосписание',
    });
    expect(await call('wallet_update', { id: walletId, options: { is_default: true } })).toMatchObject({
      ok: true,
    });
    // and turned off again: no default wallet, no auto-debit
    expect(await call('wallet_update', { id: walletId, options: { is_default: false } })).toMatchObject({
      ok: true,
    });
    expect((await wallet(walletId)).options).toEqual({ is_default: false });
  });
});

/** A formed order of client A with one position of 10 × ¥20: buyout 10 × 20 × 12.5 = 2500 ₽. */
async function formedOrder() {
  const order = await w.draftOrder();
  await w.create(
    w.orders,
    'client_order_position',
    {
      client_order_id: order.id,
      title: 'Мягкая игрушка',
      link: 'https://item.taobao.com/1',
      product_images: [{ file: '/api/files/0b6c1b2e.jpg', deleted: false }],
      type_id: w.toys.id,
      price_cny: '20',
      amount: '10',
    },
    w.users.clientA,
  );
  expect(await w.call('client_order_created', { id: order.id }, w.users.clientA)).toMatchObject({ ok: true });
  await eventually('the formed order in svc-payments', async () => {
    const r = await payments.db('replica').where({ entity: 'client_order', id: order.id }).first();
    return r?.data.stage === 'created' && r.data.buyout_price_rur === '2500.00';
  });
  return order.id as number;
}
/** The formed order checked and priced by its operator, who asks for payment: payment opens (ADR 0017). */
async function pricedOrder() {
  const orderId = await formedOrder();
  for (const id of await positionIds(orderId))
    expect(
      await w.call('client_order_position_action', { id, action: 'checked' }, w.users.operatorA),
    ).toMatchObject({ ok: true });
  expect(await w.call('client_order_buyout_waiting', { id: orderId }, w.users.operatorA)).toMatchObject({
    ok: true,
  });
  await eventually('the order waiting for payment in svc-payments', async () => {
    const r = await payments.db('replica').where({ entity: 'client_order', id: orderId }).first();
    return r?.data.stage === 'buyout_waiting';
  });
  return orderId;
}
const orderRow = (id: number) => w.orders.db('client_order').where({ id }).first();
const positionIds = (orderId: number) =>
  w.orders.db('client_order_position').where({ client_order_id: orderId }).orderBy('id').pluck('id');
const positionStages = (orderId: number) =>
  w.orders.db('client_order_position').where({ client_order_id: orderId }).orderBy('id').pluck('stage');

describe('paying an order', () => {
  it('prepare tells why an order cannot be paid: a draft', async () => {
    const draft = await w.draftOrder();
    await eventually('the draft in svc-payments', () =>
      payments.db('replica').where({ entity: 'client_order', id: draft.id }).first(),
    );
    expect(await call('client_order_payment_receive', { id: draft.id, prepare: true })).toEqual({
      ok: false,
      result: null,
      message: 'оплата в Caravan недоступна: заказ ещё не сформирован',
    });
  });

  it('refuses to pay a formed order its operator has not priced yet, and nothing is paid', async () => {
    const orderId = await formedOrder();
    const walletId = await newWallet();
    const before = await wallet(walletId);
    const notPriced =
      'оплата в Caravan недоступна: оператор ещё не проверил и не оценил позиции заказа: оплата откроется, когда заказ будет ожидать оплаты';
    expect(await call('client_order_payment_receive', { id: orderId, prepare: true })).toEqual({
      ok: false,
      result: null,
      message: notPriced,
    });
    expect(
      await call('client_order_payment_receive', {
        id: orderId,
        kind: 'product',
        type: 'wallet',
        wallet_id: walletId,
      }),
    ).toEqual({ ok: false, result: null, message: notPriced });
    expect(await payments.db('order_payment').where({ client_order_id: orderId })).toEqual([]);
    expect(await wallet(walletId)).toEqual(before);
  });

  it('from the wallet: part, then the rest; svc-orders follows with paid amounts, states and positions', async () => {
    const orderId = await pricedOrder();
    const walletId = await newWallet();
    await payments.db.transaction(async (trx) => {
      await trx('wallet')
        .where({ id: walletId })
        .update({ options: { is_default: true } });
    });
    const created = await http('modul_sbp_create', {
      type: 'link',
      operation_type: 'wallet',
      wallet_id: walletId,
      amount: '3000',
    });
    await postCallback(bankCallback(created.result.payment_id, '3021.15'));
    expect((await wallet(walletId)).amount).toBe('3000.00');

    expect(await call('client_order_payment_receive', { id: orderId, prepare: true })).toMatchObject({
      ok: true,
      result: { product_due: '2500.00' },
    });
    const part = await call('client_order_payment_receive', {
      id: orderId,
      kind: 'product',
      type: 'wallet',
      amount: '1000',
    });
    expect(part).toMatchObject({
      ok: true,
      result: { message: 'товар оплачен частично', product_payment_state: 'partial' },
    });
    await eventually('svc-orders applied the part', async () => {
      return (await orderRow(orderId)).product_payment_state === 'partial';
    });
    expect(await positionStages(orderId)).toEqual(['created']);
    expect(
      (
        await call('client_order_payment_receive', {
          id: orderId,
          kind: 'product',
          type: 'wallet',
          amount: '1600',
        })
      ).message,
    ).toBe('сумма больше суммы к оплате: 1\u00a0500,00\u00a0₽');
    const rest = await call('client_order_payment_receive', { id: orderId, kind: 'product', type: 'wallet' });
    expect(rest).toMatchObject({
      ok: true,
      result: { message: 'товар оплачен полностью', product_payment_state: 'paid' },
    });
    expect((await wallet(walletId)).amount).toBe('500.00');
    await eventually('svc-orders applied the payments', async () => {
      const o = await orderRow(orderId);
      return o.product_paid_rur === '2500.00' && o.product_payment_state === 'paid';
    });
    // paid in full: the positions awaiting payment read 'оплачена', with their history
    expect(await positionStages(orderId)).toEqual(['buyout_waiting']);
    const movements = await movementsOf(walletId);
    expect(movements.map((m: Any) => [m.direction, m.amount, m.cause])).toEqual([
      ['in', '3000.00', 'top_up'],
      ['out', '1000.00', 'order_product'],
      ['out', '1500.00', 'order_product'],
    ]);
    expect(
      (await call('client_order_payment_receive', { id: orderId, kind: 'product', type: 'wallet' })).message,
    ).toBe('оплата в Caravan недоступна: товар уже оплачен или оплачивать нечего');
  });

  it("refuses what the client cannot pay, another client's order and a hand-set paid amount", async () => {
    const orderId = await pricedOrder();
    const before = await orderRow(orderId);
    // client A's wallets hold less than 2500 now? a fresh client B cannot even see the order
    expect(
      await call('client_order_payment_receive', { id: orderId, prepare: true }, w.users.clientB),
    ).toMatchObject({
      ok: false,
      message: 'запись не найдена',
    });
    expect(
      await call(
        'client_order_payment_receive',
        { id: orderId, kind: 'product', type: 'manual' },
        w.users.clientA,
      ),
    ).toMatchObject({ ok: false, message: 'отметить оплату может только администратор' });
    expect(
      await call(
        'client_order_payment_receive',
        { id: orderId, kind: 'product', type: 'wallet' },
        w.users.operatorA,
      ),
    ).toMatchObject({ ok: false, message: 'недостаточно прав для этого действия' });
    expect(
      await w.call('client_order_update', { id: orderId, product_paid_rur: '2500' }, admin),
    ).toMatchObject({
      ok: false,
      message: 'оплаченные суммы и состояния оплаты меняются только платежами (окно оплаты заказа)',
    });
    expect(
      await w.call('client_order_update', { id: orderId, product_payment_state: 'paid' }, admin),
    ).toMatchObject({
      ok: false,
    });
    // CDEK collects only for an order it carries (a CDEK waybill)
    expect(
      await w.call(
        'client_order_update',
        { id: orderId, delivery_payment_state: 'in_cdek' },
        w.users.clientA,
      ),
    ).toMatchObject({ ok: false, message: 'оплата в СДЭК доступна только для заказа с накладной СДЭК' });
    expect(await orderRow(orderId)).toEqual(before);
    expect(await payments.db('order_payment').where({ client_order_id: orderId })).toHaveLength(0);
    // 'pay later' is the client's choice while nothing is paid
    expect(
      await w.call(
        'client_order_update',
        { id: orderId, product_payment_state: 'in_caravan' },
        w.users.clientA,
      ),
    ).toMatchObject({ ok: true });
    expect((await orderRow(orderId)).product_payment_state).toBe('in_caravan');
  });

  it("client_order_dues: a client's own orders with something to pay; no one else's", async () => {
    const orderId = await pricedOrder();
    // an answer, never a refusal: a refused call would 'not contain' the order just as well
    const ids = (r: Any) => {
      expect(r).toMatchObject({ ok: true });
      return r.result.rows.map((o: Any) => o.id);
    };
    const mine = await call('client_order_dues', { per_page: 50 });
    expect(ids(mine)).toContain(orderId);
    expect(mine.result.rows.find((o: Any) => o.id === orderId)).toMatchObject({
      product_due: '2500.00',
      due: '2500.00',
    });
    expect(ids(await call('client_order_dues', { client_id: w.clientA.id }, w.users.clientB))).not.toContain(
      orderId,
    );
    expect(ids(await call('client_order_dues', { client_id: w.clientA.id }, w.users.operatorA))).toContain(
      orderId,
    );
    // operator B serves client A too, but this order is operator A's
    expect(
      ids(await call('client_order_dues', { client_id: w.clientA.id }, w.users.operatorB)),
    ).not.toContain(orderId);
  });

  it('client_order_dues leaves out a formed order the operator has not priced: the write-off cannot pay it', async () => {
    const formed = await formedOrder();
    await eventually('the formed order in svc-payments', async () => {
      const r = await payments.db('replica').where({ entity: 'client_order', id: formed }).first();
      return r?.data.stage === 'created';
    });
    const priced = await pricedOrder();
    const dues = await call('client_order_dues', { per_page: 50 });
    expect(dues).toMatchObject({ ok: true });
    const ids = dues.result.rows.map((o: Any) => o.id);
    expect(ids).toContain(priced);
    expect(ids).not.toContain(formed);
    // and paying it is refused with the reason the card shows
    expect(await call('client_order_payment_receive', { id: formed, prepare: true })).toMatchObject({
      ok: false,
      message: expect.stringContaining('оператор ещё не проверил и не оценил позиции заказа'),
    });
  });

  it('an admin marks the product paid', async () => {
    const orderId = await pricedOrder();
    const marked = await call(
      'client_order_payment_receive',
      { id: orderId, kind: 'product', type: 'manual' },
      admin,
    );
    expect(marked).toMatchObject({
      ok: true,
      result: { message: 'состояние оплаты товара/доставки изменено' },
    });
    expect(marked.result).toMatchObject({ product_payment_state: 'paid', product_paid_rur: '2500.00' });
    await eventually(
      'svc-orders applied the mark',
      async () => (await orderRow(orderId)).product_payment_state === 'paid',
    );
    expect(await payments.db('order_payment').where({ client_order_id: orderId })).toMatchObject([
      { kind: 'product', type: 'manual', amount: '2500.00', product_paid_rur: '2500.00' },
    ]);
  });

  it('by card through the bank: recorded once however often the bank calls back', async () => {
    const orderId = await pricedOrder();
    const created = await http('modul_sbp_create', {
      type: 'card',
      operation_type: 'client_order',
      order_id: orderId,
      kind: 'product',
      amount: '2500',
    });
    expect(created.ok).toBe(true);
    // card fee 2.5%: 2500 / 0.975 = 2564.10
    expect(await payment(created.result.payment_id)).toMatchObject({
      amount_with_fee: '2564.10',
      client_order_id: orderId,
    });
    await payOnBankPage(created.result.bill.url, 'complete');
    await eventually(
      'the payment settled',
      async () => (await payment(created.result.payment_id)).state === 'done',
    );
    await postCallback(bankCallback(created.result.payment_id, '2564.10'));
    await eventually(
      'svc-orders applied it',
      async () => (await orderRow(orderId)).product_payment_state === 'paid',
    );
    expect((await orderRow(orderId)).product_paid_rur).toBe('2500.00');
    expect(await payments.db('order_payment').where({ client_order_id: orderId })).toHaveLength(1);
  });
});

describe('auto-debit of the default wallet', () => {
  /** The formed order checked by its operator and set waiting for payment. */
  async function waitingForPayment() {
    const orderId = await formedOrder();
    const [position] = await w.orders.db('client_order_position').where({ client_order_id: orderId });
    await w.call('client_order_position_action', { id: position.id, action: 'checked' }, w.users.operatorA);
    expect(await w.call('client_order_buyout_waiting', { id: orderId }, w.users.operatorA)).toMatchObject({
      ok: true,
    });
    return orderId;
  }

  it('pays the goods of an order waiting for payment in full, once; leaves it when the wallet is short', async () => {
    const walletId = await newWallet();
    expect(await call('wallet_update', { id: walletId, options: { is_default: true } })).toMatchObject({
      ok: true,
    });
    const created = await http('modul_sbp_create', {
      type: 'link',
      operation_type: 'wallet',
      wallet_id: walletId,
      amount: '3000',
    });
    await postCallback(bankCallback(created.result.payment_id, '3021.15'));
    // the other wallets of the client are no longer the default
    expect(
      await payments
        .db('wallet')
        .where({ client_id: w.clientA.id })
        .whereRaw(`(options->>'is_default')::boolean`)
        .pluck('id'),
    ).toEqual([walletId]);

    const paid = await waitingForPayment();
    await eventually(
      'the goods paid from the wallet',
      async () => (await orderRow(paid)).product_payment_state === 'paid',
    );
    expect((await wallet(walletId)).amount).toBe('500.00');
    expect((await movementsOf(walletId)).at(-1)).toMatchObject({
      direction: 'out',
      amount: '2500.00',
      cause: 'order_product',
    });

    const unpaid = await waitingForPayment();
    await eventually('svc-payments saw it wait', async () => {
      const r = await payments.db('replica').where({ entity: 'client_order', id: unpaid }).first();
      return r?.data.stage === 'buyout_waiting';
    });
    // another change of the waiting order (its number) brings the event again: still nothing moves
    await w.call('client_order_update', { id: paid, order_number: 'A-1' }, w.users.operatorA);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await wallet(walletId)).amount).toBe('500.00');
    expect((await orderRow(unpaid)).product_payment_state).toBe('not_paid');
    expect(await payments.db('order_payment').where({ client_order_id: paid })).toHaveLength(1);
    expect(await payments.db('auto_debit').where({ client_order_id: unpaid }).first()).toMatchObject({
      outcome: 'wallet short of 2500.00',
    });

    // money arriving later does not make a later change of the waiting order debit it: auto-debit looks once
    const more = await http('modul_sbp_create', {
      type: 'link',
      operation_type: 'wallet',
      wallet_id: walletId,
      amount: '3000',
    });
    await postCallback(bankCallback(more.result.payment_id, '3021.15'));
    await w.call('client_order_update', { id: unpaid, order_number: 'A-2' }, w.users.operatorA);
    await eventually('svc-payments saw the change', async () => {
      const r = await payments.db('replica').where({ entity: 'client_order', id: unpaid }).first();
      return r?.data.order_number === 'A-2';
    });
    await new Promise((r) => setTimeout(r, 1000));
    expect((await wallet(walletId)).amount).toBe('3500.00');
    expect((await orderRow(unpaid)).product_payment_state).toBe('not_paid');
  });
});
