import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { IDENTITY_HEADER, type Identity } from '@caravan/contracts';
import {
  DEV_IDENTITY_SECRET,
  eventually,
  freePort,
  identityOf,
  ServiceProcess,
  signIdentity,
  startService,
  type RunningService,
} from '@caravan/service-kit';
import knex, { type Knex } from 'knex';
import { carriersService } from '../../svc-carriers/src/app';
import { specCountries } from '../../svc-carriers/test/fixtures';
import { acquirerConfig } from '../src/adapters/modulbank';
import { signedForm } from '../src/adapters/modulbank/sandbox';

/**
 * A process killed at the worst moment (issue 11): svc-payments and svc-orders run as their own
 * processes (the built dist, as `npm start` runs them); a burst of wallet payments of orders and of
 * the bank's top-up callbacks goes on while svc-payments, then svc-orders, is SIGKILLed and restarted.
 * Every request is retried with its Idempotency-Key (callbacks as the bank retries them) until answered.
 * Afterwards nothing is lost or duplicated: one ledger row per payment, balances equal to their
 * movements, and svc-orders' paid amounts equal to what svc-payments recorded.
 */
const root = path.resolve(__dirname, '../..');
const prefix = `${process.env.KAFKA_TOPIC_PREFIX ?? ''}payments-crash-`;
const admin = identityOf({ user_id: 1, roles: ['admin'] });
const ORDERS = 6;
const PARTS = 8; // wallet payments of 100 ₽ per order
const TOP_UPS = 6; // bank callbacks of 1 000 ₽ during the burst
const secret = acquirerConfig({}).MODULBANK_SECRET;
const merchant = acquirerConfig({}).MODULBANK_MERCHANT;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A service as its own process on this run's topics, restartable on the same port. */
const serviceProcess = (name: 'orders' | 'payments', port: number, env: Record<string, string>) =>
  new ServiceProcess(
    `svc-${name}/dist/src/main.js`,
    port,
    { ...env, KAFKA_TOPIC_PREFIX: prefix, LOG_LEVEL: 'error', SEED_DEMO: 'false' },
    root,
  );

let carriers: RunningService;
let orders: ServiceProcess;
let payments: ServiceProcess;
let db: Knex;
/** Calls that found the process down and were made again: proof the kills hit the burst. */
let retried = 0;

/** A call as the UI makes it: its Idempotency-Key kept, retried on any failure to answer. */
async function callUntilAnswered(
  url: () => string,
  method: string,
  params: unknown,
  who: Identity,
  key = randomUUID(),
) {
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(`${url()}/rpc`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [IDENTITY_HEADER]: signIdentity(who, process.env.IDENTITY_TOKEN_SECRET ?? DEV_IDENTITY_SECRET),
          'idempotency-key': key,
        },
        body: JSON.stringify({ method, params }),
      });
      if (res.status < 500) return (await res.json()) as { ok: boolean; result: Any; message?: string };
    } catch {
      // the process is down: the UI's retry comes a moment later with the same key
    }
    retried++;
    if (attempt > 300) throw new Error(`${method} never answered`);
    await sleep(150);
  }
}
/** The bank posts its callback until it is answered 200 (as Modulbank retries). */
async function callbackUntilAnswered(form: Record<string, string>) {
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(`${payments.url}/api/acquiring/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      });
      if (res.status === 200) return;
      if (res.status < 500) throw new Error(`callback refused: ${res.status}`);
    } catch (err) {
      if ((err as Error).message.startsWith('callback refused')) throw err;
    }
    if (attempt > 300) throw new Error('callback never answered');
    await sleep(150);
  }
}

beforeAll(async () => {
  const env = { DATABASE_URL: process.env.DATABASE_URL!, KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '' };
  carriers = await startService(carriersService({ ...process.env, KAFKA_TOPIC_PREFIX: prefix }));
  const [ordersPort, paymentsPort] = [await freePort(), await freePort()];
  orders = serviceProcess('orders', ordersPort, env);
  payments = serviceProcess('payments', paymentsPort, {
    ...env,
    PUBLIC_URL: `http://127.0.0.1:${paymentsPort}`,
  });
  await Promise.all([orders.start(), payments.start(), carriers.bus.ready]);
  db = knex({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 3 } });
}, 120_000);
afterAll(async () => {
  await Promise.all([orders?.stop(), payments?.stop(), carriers?.stop()]);
  await db?.destroy();
});

async function create(url: string, entity: string, fields: Record<string, unknown>, who: Identity = admin) {
  const reply = await callUntilAnswered(() => url, `${entity}_update`, { id: -1, ...fields }, who);
  if (!reply.ok) throw new Error(`${entity}: ${reply.message}`);
  return reply.result as Any;
}

it('loses and duplicates nothing when svc-payments and then svc-orders are killed during a burst of payments', async () => {
  // ---- the world: a client, their operator with a route and a rate, formed orders of 2 500 ₽ each ----
  const client = await create(orders.url, 'client', { title: 'ООО «Авария»', type: 'company' });
  const { china } = await specCountries(carriers, admin);
  const from = await create(carriers.url, 'city', { title: 'Иу-авария', country_id: china });
  const operator = await create(carriers.url, 'operator', {
    title: 'Оператор аварий',
    client_list: [{ id: client.id }],
  });
  const toys = await create(carriers.url, 'logistic_product_type', { title: 'Игрушки (авария)' });
  const route = await create(carriers.url, 'logistic_route', {
    title: 'Авиа авария',
    type: 'plane',
    operator_id: operator.id,
    from_city_id: from.id,
  });
  await create(carriers.url, 'logistic_route_logistic_product_type_link', {
    logistic_route_id: route.id,
    logistic_product_type_id: toys.id,
  });
  await create(payments.url, 'exchange_rate', {
    date: '2026-11-21',
    operator_id: operator.id,
    client_sell_rate_cny: '12.5',
    client_sell_rate_usd: '95',
  });
  const clientUser = identityOf({ user_id: 701, roles: ['client'], client_ids: [client.id] });
  const operatorUser = identityOf({ user_id: 702, roles: ['operator'], operator_ids: [operator.id] });
  await eventually('the references in svc-orders', async () => {
    const rows = await db('orders.replica').whereIn('entity', [
      'operator',
      'logistic_route_logistic_product_type_link',
      'exchange_rate',
    ]);
    return (
      rows.some((r) => r.entity === 'operator' && Number(r.id) === operator.id) &&
      rows.some((r) => r.entity === 'exchange_rate' && r.data.operator_id === operator.id) &&
      rows.some((r) => r.entity === 'logistic_route_logistic_product_type_link')
    );
  });
  const orderIds: number[] = [];
  for (let i = 0; i < ORDERS; i++) {
    const order = await create(
      orders.url,
      'client_order',
      {
        client_id: client.id,
        operator_id: operator.id,
        logistic_route_id: route.id,
        buyout_type: 'operator',
        delivery_type: 'to_door',
      },
      clientUser,
    );
    const position = await create(
      orders.url,
      'client_order_position',
      {
        client_order_id: order.id,
        title: `Игрушка ${i}`,
        link: 'https://item.taobao.com/1',
        product_images: [{ file: '/api/files/0b6c1b2e.jpg', deleted: false }],
        type_id: toys.id,
        price_cny: '20',
        amount: '10',
      },
      clientUser,
    );
    expect(
      await callUntilAnswered(() => orders.url, 'client_order_created', { id: order.id }, clientUser),
    ).toMatchObject({ ok: true });
    // payment opens once the operator priced the order and asked for it (docs/adr/0017)
    expect(
      await callUntilAnswered(
        () => orders.url,
        'client_order_position_action',
        { id: position.id, action: 'checked' },
        operatorUser,
      ),
    ).toMatchObject({ ok: true });
    expect(
      await callUntilAnswered(
        () => orders.url,
        'client_order_buyout_waiting',
        { id: order.id },
        operatorUser,
      ),
    ).toMatchObject({ ok: true });
    orderIds.push(order.id);
  }
  await eventually(
    'the orders in svc-payments',
    async () => {
      const rows = await db('payments.replica').where({ entity: 'client_order' }).whereIn('id', orderIds);
      return (
        rows.length === ORDERS &&
        rows.every((r) => r.data.stage === 'buyout_waiting' && r.data.buyout_price_rur === '2500.00')
      );
    },
    30_000,
  );
  const wallet = await create(payments.url, 'wallet', {
    title: 'Основной',
    client_id: client.id,
    currency_id: 2,
  });
  // money for the burst: a top-up by the bank before it, the rest arrives during it
  const topUp = async (amount: string) => {
    const res = await fetch(`${payments.url}/api/modul_sbp_create`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [IDENTITY_HEADER]: signIdentity(clientUser, process.env.IDENTITY_TOKEN_SECRET ?? DEV_IDENTITY_SECRET),
      },
      body: JSON.stringify({ type: 'link', operation_type: 'wallet', wallet_id: wallet.id, amount }),
    });
    const reply = (await res.json()) as Any;
    const row = await db('payments.acquiring_payment').where({ id: reply.result.payment_id }).first();
    return signedForm(
      {
        merchant,
        order_id: String(row.id),
        transaction_id: `tx-${row.id}`,
        amount: row.amount_with_fee,
        currency: 'RUB',
        state: 'COMPLETE',
        testing: '1',
      },
      secret,
    );
  };
  await callbackUntilAnswered(await topUp('5000'));
  const callbacks = [];
  for (let i = 0; i < TOP_UPS; i++) callbacks.push(await topUp('1000'));

  // ---- the burst, with the kills ----
  const intents = orderIds.flatMap((id) => Array.from({ length: PARTS }, () => ({ id, key: randomUUID() })));
  let done = 0;
  const answers: Any[] = [];
  const worker = async (queue: typeof intents) => {
    for (const intent of queue) {
      answers.push(
        await callUntilAnswered(
          () => payments.url,
          'client_order_payment_receive',
          { id: intent.id, kind: 'product', type: 'wallet', wallet_id: wallet.id, amount: '100' },
          clientUser,
          intent.key,
        ),
      );
      done++;
    }
  };
  const queues = Array.from({ length: 6 }, (_, w) => intents.filter((_i, n) => n % 6 === w));
  const chaos = (async () => {
    while (done < intents.length * 0.25) await sleep(20);
    await payments.kill();
    await payments.start();
    while (done < intents.length * 0.6) await sleep(20);
    await orders.kill();
    await sleep(500);
    await orders.start();
  })();
  retried = 0;
  await Promise.all([...queues.map(worker), Promise.all(callbacks.map(callbackUntilAnswered)), chaos]);

  // ---- nothing lost, nothing twice ----
  expect(retried).toBeGreaterThan(0);
  expect(answers.filter((a) => !a.ok)).toEqual([]);
  const operations = await db('payments.fin_operation').where({ wallet_id: wallet.id });
  const outs = operations.filter((o) => o.direction === 'out');
  const ins = operations.filter((o) => o.direction === 'in');
  expect(outs).toHaveLength(ORDERS * PARTS);
  expect(new Set(outs.map((o) => o.idempotency_key)).size).toBe(ORDERS * PARTS);
  expect(ins).toHaveLength(1 + TOP_UPS);
  const sum = (rows: Any[]) => rows.reduce((s, r) => s + Math.round(Number(r.amount) * 100), 0);
  const balance = (await db('payments.wallet').where({ id: wallet.id }).first()).amount;
  expect(Math.round(Number(balance) * 100)).toBe(sum(ins) - sum(outs));
  expect(balance).toBe((5000 + TOP_UPS * 1000 - ORDERS * PARTS * 100).toFixed(2));
  const recorded = await db('payments.order_payment').whereIn('client_order_id', orderIds);
  expect(recorded).toHaveLength(ORDERS * PARTS);
  await eventually(
    "svc-orders' paid amounts equal the ledger",
    async () => {
      const rows = await db('orders.client_order').whereIn('id', orderIds);
      return rows.every(
        (o) => o.product_paid_rur === (PARTS * 100).toFixed(2) && o.product_payment_state === 'partial',
      );
    },
    60_000,
  );
  const accounts = await db('payments.order_account').whereIn('client_order_id', orderIds);
  expect(accounts.map((a) => a.product_paid_rur)).toEqual(orderIds.map(() => (PARTS * 100).toFixed(2)));
}, 240_000);
