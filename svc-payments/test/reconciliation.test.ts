import { IDENTITY_HEADER, type Identity } from '@caravan/contracts';
import {
  callService,
  DEV_IDENTITY_SECRET,
  eventually,
  signIdentity,
  startService,
  type RunningService,
} from '@caravan/service-kit';
import { ordersWorld, admin, type Any, type OrdersWorld } from '../../svc-orders/test/support';
import { signedForm } from '../src/adapters/modulbank/sandbox';
import { paymentsService } from '../src/app';
import { freePort, httpCall, sandboxMerchant } from './support';

/**
 * Money that never gets stuck (issue 17; docs/adr/0014-payments-reconciliation.md): the bank's callback
 * never reaches us (PUBLIC_URL points at a closed port, as when the gateway is down while the bank
 * retries), and the reconciliation asks the bank — the real Modulbank client against the sandbox bank.
 * Two replicas of svc-payments share the database and ask at once: a payment is credited once.
 */
let w: OrdersWorld;
let replicaA: RunningService;
let replicaB: RunningService;
let sandboxUrl: string;
const { secret, merchant } = sandboxMerchant;

/** A replica of svc-payments whose bank's callbacks go nowhere (the gateway is 'down'). */
async function replica(extra: Record<string, string>) {
  return startService(
    paymentsService({
      ...process.env,
      PORT: String(await freePort()),
      PUBLIC_URL: `http://127.0.0.1:${await freePort()}`,
      KAFKA_TOPIC_PREFIX: `${process.env.KAFKA_TOPIC_PREFIX ?? ''}payments-reconcile-`,
      // the bank would retry in an hour: within the test, only asking the bank settles a payment
      ACQUIRER_SANDBOX_CALLBACK_SCHEDULE: '3600',
      PAYMENTS_RECONCILE_EVERY_SECONDS: '0',
      ...extra,
    }),
  );
}

beforeAll(async () => {
  w = await ordersWorld('payments-reconcile');
  const sandboxPort = await freePort();
  sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  replicaA = await replica({ ACQUIRER_SANDBOX_PORT: String(sandboxPort) });
  // the second replica talks to the same bank: the first one's sandbox
  replicaB = await replica({ MODULBANK_URL: sandboxUrl });
  await Promise.all([replicaA.bus.ready, replicaB.bus.ready]);
}, 60_000);
afterAll(async () => {
  await replicaB?.stop();
  await replicaA?.stop();
  await w?.stop();
});

type Reply = { ok: boolean; result: Any; message?: string };
const call = async (svc: RunningService, method: string, params: unknown, who: Identity = admin) =>
  (await callService(svc.url, method, params, who)).body as Reply;
const http = (path: string, body: unknown, who: Identity = w.users.clientA) =>
  httpCall(replicaA, path, body, who);
async function newWallet() {
  const reply = await eventually('a wallet of client A', async () => {
    const r = await call(replicaA, 'wallet_update', {
      id: -1,
      title: 'Для сверки',
      client_id: w.clientA.id,
      currency_id: 2,
    });
    return r.ok ? r : null;
  });
  return reply.result.id as number;
}
const db = () => replicaA.db;
const payment = (id: number) => db()('acquiring_payment').where({ id }).first();
const walletAmount = async (id: number) => String((await db()('wallet').where({ id }).first()).amount);
const movementsOf = (walletId: number) => db()('fin_operation').where({ wallet_id: walletId }).orderBy('id');
/** The ledger in SQL: the wallet's balance is the sum of its movements. */
const ledgerBalance = async (walletId: number) =>
  String(
    (
      await db().raw(
        `select coalesce(sum(case when direction = 'in' then amount else -amount end), 0)::numeric(14,2) as s
           from fin_operation where wallet_id = ?`,
        [walletId],
      )
    ).rows[0].s,
  );
/** The payer on the bank's page presses a button (complete_silently: the bank tells no one). */
async function payerPresses(payerUrl: string, button: 'complete' | 'complete_silently' | 'decline') {
  const id = payerUrl.split('/').pop()!;
  const res = await fetch(`${sandboxUrl}/pay/${id}/${button}`, { method: 'POST', redirect: 'manual' });
  expect(res.status).toBeLessThan(400);
}
async function topUp(walletId: number, amount: string, type: 'img' | 'card' = 'img') {
  const created = await http('modul_sbp_create', {
    type,
    operation_type: 'wallet',
    wallet_id: walletId,
    amount,
  });
  expect(created.ok).toBe(true);
  return {
    id: created.result.payment_id as number,
    payerUrl: (created.result.sbp_link ?? created.result.bill.url) as string,
  };
}
const reconcile = (svc: RunningService, olderThan = 0) =>
  call(svc, 'acquiring_payment_reconcile', { older_than_seconds: olderThan });

describe('reconciliation with the bank', () => {
  it('credits once what the bank completed without telling us, with two replicas asking at once; a late callback moves nothing', async () => {
    const walletId = await newWallet();
    const { id, payerUrl } = await topUp(walletId, '1000');
    await payerPresses(payerUrl, 'complete_silently');
    // before: the bank has the money, we do not know it
    expect(await payment(id)).toMatchObject({ state: 'pending' });
    expect(await walletAmount(walletId)).toBe('0.00');

    // a payment younger than the threshold is not asked about
    expect((await reconcile(replicaA, 3600)).result).toMatchObject({ credited: 0 });
    expect(await payment(id)).toMatchObject({ state: 'pending' });

    const [a, b] = await Promise.all([reconcile(replicaA), reconcile(replicaB)]);
    expect(a.ok && b.ok).toBe(true);
    expect(a.result.credited + b.result.credited).toBe(1);
    expect(await payment(id)).toMatchObject({
      state: 'done',
      message: 'баланс пополнен на 1\u00a0000,00\u00a0₽',
    });
    expect(await walletAmount(walletId)).toBe('1000.00');
    expect(await ledgerBalance(walletId)).toBe('1000.00');
    expect(await movementsOf(walletId)).toMatchObject([
      { direction: 'in', amount: '1000.00', cause: 'top_up', wallet_amount_after: '1000.00' },
    ]);

    // the bank's callback comes after all (the gateway is back): answered OK, nothing moves again
    const late = await fetch(`${replicaA.url}/api/acquiring/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(
        signedForm(
          {
            merchant,
            order_id: String(id),
            transaction_id: String((await payment(id)).transaction_id),
            amount: '1007.05',
            currency: 'RUB',
            state: 'COMPLETE',
            testing: '1',
          },
          secret,
        ),
      ).toString(),
    });
    expect(late.status).toBe(200);
    expect(await movementsOf(walletId)).toHaveLength(1);
    expect(await ledgerBalance(walletId)).toBe('1000.00');
    // and asking again changes nothing
    await reconcile(replicaB);
    expect(await movementsOf(walletId)).toHaveLength(1);
  });

  it('expires what the bank declined or never started, with the reason; leaves what is still on the way; nothing moves', async () => {
    const walletId = await newWallet();
    const declined = await topUp(walletId, '500', 'card');
    await payerPresses(declined.payerUrl, 'decline'); // its callback goes nowhere
    const waiting = await topUp(walletId, '300');
    const neverStarted = await topUp(walletId, '200');
    // the service fell between the bank's answer and saving it: no transaction id, two minutes old
    await db()('acquiring_payment')
      .where({ id: neverStarted.id })
      .update({ transaction_id: '', created_at: db().raw(`now() - interval '2 minutes'`) });
    const unknown = await topUp(walletId, '100');
    await db()('acquiring_payment').where({ id: unknown.id }).update({ transaction_id: 'NOSUCHPAYMENT' });

    const outcome = await reconcile(replicaA);
    expect(outcome.ok).toBe(true);
    expect(await payment(declined.id)).toMatchObject({
      state: 'expired',
      message: 'платёж не состоялся: платёж отклонён плательщиком',
    });
    expect(await payment(neverStarted.id)).toMatchObject({
      state: 'expired',
      message: 'платёж не состоялся: банк не начал этот платёж',
    });
    expect(await payment(unknown.id)).toMatchObject({
      state: 'expired',
      message: 'платёж не состоялся: банк не начал этот платёж',
    });
    expect(await payment(waiting.id)).toMatchObject({ state: 'pending' });
    expect(await walletAmount(walletId)).toBe('0.00');
    expect(await movementsOf(walletId)).toHaveLength(0);

    // the payer who still pays the waiting one later is credited by the next run
    await payerPresses(waiting.payerUrl, 'complete');
    await reconcile(replicaB);
    expect(await payment(waiting.id)).toMatchObject({ state: 'done' });
    expect(await walletAmount(walletId)).toBe('300.00');
    expect(await ledgerBalance(walletId)).toBe('300.00');
  });

  it('refuses a non-admin the manual run', async () => {
    expect(
      await reconcile(replicaA).then(() =>
        call(replicaA, 'acquiring_payment_reconcile', {}, w.users.clientA),
      ),
    ).toMatchObject({
      ok: false,
      message: 'действие доступно только администратору',
    });
  });

  it('runs by itself every few seconds (PAYMENTS_RECONCILE_EVERY_SECONDS) for payments older than PAYMENTS_RECONCILE_AFTER_SECONDS', async () => {
    const walletId = await newWallet();
    const { id, payerUrl } = await topUp(walletId, '250');
    await payerPresses(payerUrl, 'complete_silently');
    const periodic = await replica({
      MODULBANK_URL: sandboxUrl,
      PAYMENTS_RECONCILE_EVERY_SECONDS: '0.5',
      PAYMENTS_RECONCILE_AFTER_SECONDS: '1',
    });
    try {
      await eventually(
        'the payment credited by the job',
        async () => (await payment(id)).state === 'done',
        15_000,
      );
      expect(await walletAmount(walletId)).toBe('250.00');
      expect(await movementsOf(walletId)).toHaveLength(1);
    } finally {
      await periodic.stop();
    }
  });
});

describe('amounts and references a column cannot hold, a database that drops', () => {
  it('refuses a top-up beyond MONEY_MAX in words (was a 500: numeric overflow); nothing is written', async () => {
    const walletId = await newWallet();
    const before = await db()('acquiring_payment').count({ n: '*' }).first();
    for (const amount of ['999999999999.99', '1000000000.01']) {
      const reply = await http('modul_sbp_create', {
        type: 'img',
        operation_type: 'wallet',
        wallet_id: walletId,
        amount,
      });
      expect(reply).toMatchObject({ ok: false });
      expect(reply.message).toContain('сумма, ₽');
      expect(reply.message).toContain('сумма не может быть больше 1 000 000 000,00');
    }
    expect(await db()('acquiring_payment').count({ n: '*' }).first()).toEqual(before);
    expect(await walletAmount(walletId)).toBe('0.00');
  });

  it('refuses a wallet in a currency nobody has (currency_id 999), naming the field; nothing is written', async () => {
    const before = await db()('wallet').count({ n: '*' }).first();
    const reply = await call(replicaA, 'wallet_update', {
      id: -1,
      title: 'В несуществующей валюте',
      client_id: w.clientA.id,
      currency_id: 999,
    });
    expect(reply).toMatchObject({ ok: false, message: 'валюта: нет такой записи (999)' });
    expect(await db()('wallet').count({ n: '*' }).first()).toEqual(before);
  });

  it('modul_sbp_create and the bank callback answer a dropped database connection with a retryable 503, not a 500', async () => {
    const walletId = await newWallet();
    const { id } = await topUp(walletId, '10');
    const admin = await replicaA.db.client.acquireConnection();
    /** Drops the connections of both calls once both wait for the lock (as a database restart would). */
    const terminateWaiting = async (like: string) => {
      const waiting = `from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query ilike ?`;
      await eventually('both calls waiting for the lock', async () => {
        const { rows } = await replicaA.db.raw(`select pid ${waiting}`, [like]);
        return rows.length >= 2;
      });
      await replicaA.db.raw(`select pg_terminate_backend(pid) ${waiting}`, [like]);
    };
    try {
      // another session holds the table: the service's statement waits, and its connection is dropped
      await replicaA.db.raw('begin').connection(admin);
      await replicaA.db
        .raw('lock table payments.acquiring_payment in access exclusive mode')
        .connection(admin);
      const createdStatus = fetch(`${replicaA.url}/api/modul_sbp_create`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [IDENTITY_HEADER]: signIdentity(
            w.users.clientA,
            process.env.IDENTITY_TOKEN_SECRET ?? DEV_IDENTITY_SECRET,
          ),
        },
        body: JSON.stringify({ type: 'img', operation_type: 'wallet', wallet_id: walletId, amount: '10' }),
      });
      const callback = fetch(`${replicaA.url}/api/acquiring/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(
          signedForm(
            {
              merchant,
              order_id: String(id),
              transaction_id: 'tx',
              amount: '10.08',
              currency: 'RUB',
              state: 'COMPLETE',
              testing: '1',
            },
            secret,
          ),
        ).toString(),
      });
      await terminateWaiting('%acquiring_payment%');
      await replicaA.db.raw('rollback').connection(admin);
      const [created, answered] = await Promise.all([createdStatus, callback]);
      expect(created.status).toBe(503);
      expect(await created.json()).toMatchObject({
        ok: false,
        message: 'сервис временно недоступен, повторите попытку',
      });
      expect(answered.status).toBe(503);
    } finally {
      await replicaA.db.client.releaseConnection(admin);
    }
    // nothing moved; the bank's retry of the callback then credits once
    expect(await walletAmount(walletId)).toBe('0.00');
  });
});
