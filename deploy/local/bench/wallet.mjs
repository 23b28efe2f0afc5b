// `node deploy/local/bench/wallet.mjs`: money operations per second under contention (issue 11), measured
// at svc-payments (POST /rpc with signed identities, no gateway) on its own database
// (caravan_bench_wallet, recreated) and port (+25000). Beside another run on the same machine:
// BENCH_PORT_OFFSET (or BENCH_WALLET_PORT_OFFSET) moves the port, BENCH_DATABASE_PREFIX renames the
// database (<prefix>_wallet) and its topics.
//   1. contended: BENCH_WALLET_OPS transfers of 1 ₽ out of ONE wallet into another, BENCH_WALLET_CONCURRENCY at
//      once, each with its Idempotency-Key — every one waits for the same row lock (the ledger's worst case)
//   2. spread: the same number over 20 pairs of wallets (20 clients paying at once)
//   3. debits racing for too little money: 500 concurrent 1 ₽ transfers out of a wallet holding 100 ₽
//      (exactly 100 pass; the others are refused in words)
// After each, the ledger is checked: every wallet's balance = Σ of its movements. Goals (issue 21, on 2
// cores with PostgreSQL and this client beside the service): contended ≥ 500 ops/s with p95 ≤ 150 ms,
// spread ≥ 1,000 ops/s with p95 ≤ 500 ms (issue 11's, kept). Exits 1 when one misses.
import { randomUUID } from 'node:crypto';
import { URLSearchParams } from 'node:url';
import { cpus, loadavg } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildIfStale } from '../build.mjs';
import * as infra from '../infra.mjs';
import {
  cpuMs,
  exitByGoals,
  identityHeader,
  missGoal,
  signIdentity,
  startBenchService,
  summary,
  verdict,
} from './service.mjs';

const require = createRequire(import.meta.url);
const offset = Number(process.env.BENCH_WALLET_PORT_OFFSET ?? process.env.BENCH_PORT_OFFSET ?? 25000);
const database = `${process.env.BENCH_DATABASE_PREFIX ?? 'caravan_bench'}_wallet`;
const OPS = Number(process.env.BENCH_WALLET_OPS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_WALLET_CONCURRENCY ?? 50);
const GOALS = { contendedOps: 500, contendedP95Ms: 150, spreadOps: 1000, spreadP95Ms: 500 };
const log = (...a) => console.log('[bench wallet]', ...a);

buildIfStale({ web: false });
const { Client } = require('pg');
const { signedForm } = require(path.join(infra.root, 'svc-payments/dist/src/adapters/modulbank/sandbox.js'));
const { acquirerConfig } = require(
  path.join(infra.root, 'svc-payments/dist/src/adapters/modulbank/index.js'),
);

const port = 4002 + offset;
const svc = await startBenchService({
  service: 'svc-payments',
  database,
  port,
  env: { PUBLIC_URL: `http://127.0.0.1:${port}` },
  // BENCH_WALLET_PROFILE=<dir>: the service's CPU profile, written there when it stops
  nodeArgs: process.env.BENCH_WALLET_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_WALLET_PROFILE}`]
    : [],
});
const admin = signIdentity(1, ['admin']);

async function call(identity, method, params, key) {
  const t = performance.now();
  const res = await fetch(`${svc.base}/rpc`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [identityHeader()]: identity,
      ...(key ? { 'idempotency-key': key } : {}),
    },
    body: JSON.stringify({ method, params }),
  });
  return { ms: performance.now() - t, body: await res.json() };
}

/** A client's two rouble wallets, the first funded by the bank (a signed callback, as in production). */
async function walletsOf(clientId, funds) {
  const identity = signIdentity(100 + clientId, ['client'], { client_ids: [clientId] });
  const ids = [];
  for (const title of ['Основной', 'Резерв']) {
    const { body } = await call(admin, 'wallet_update', {
      id: -1,
      title,
      client_id: clientId,
      currency_id: 2,
    });
    if (!body.ok) throw new Error(body.message);
    ids.push(body.result.id);
  }
  const res = await fetch(`${svc.base}/api/modul_sbp_create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [identityHeader()]: identity },
    body: JSON.stringify({ type: 'link', operation_type: 'wallet', wallet_id: ids[0], amount: funds }),
  });
  const created = await res.json();
  if (!created.ok) throw new Error(created.message);
  const db = new Client({ connectionString: svc.databaseUrl });
  await db.connect();
  const {
    rows: [payment],
  } = await db.query('select amount_with_fee from payments.acquiring_payment where id = $1', [
    created.result.payment_id,
  ]);
  await db.end();
  const config = acquirerConfig({});
  const callback = await fetch(`${svc.base}/api/acquiring/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(
      signedForm(
        {
          merchant: config.MODULBANK_MERCHANT,
          order_id: String(created.result.payment_id),
          transaction_id: `bench-${created.result.payment_id}`,
          amount: payment.amount_with_fee,
          currency: 'RUB',
          state: 'COMPLETE',
          testing: '1',
        },
        config.MODULBANK_SECRET,
      ),
    ).toString(),
  });
  if (callback.status !== 200) throw new Error(`top-up callback answered ${callback.status}`);
  return { identity, from: ids[0], to: ids[1] };
}

/** CPU used so far by the service and by the PostgreSQL backends serving its database (ms). */
async function cpuSoFar(db) {
  const { rows } = await db.query('select pid from pg_stat_activity where datname = current_database()');
  const backends = new Map(rows.map((r) => [r.pid, cpuMs(r.pid) ?? 0]));
  return { service: cpuMs(svc.pid) ?? 0, backends };
}

/** Where the CPU of a burst went, per transfer: the service's one thread and PostgreSQL's backends. */
function cpuPerOp(before, after, ops) {
  let postgres = 0;
  for (const [pid, ms] of after.backends) postgres += ms - (before.backends.get(pid) ?? 0);
  return { serviceMs: (after.service - before.service) / ops, postgresMs: postgres / ops };
}

/** Runs `ops` transfers of 1 ₽ with `concurrency` in flight over the given pairs; rate, latencies, CPU. */
async function burst(pairs, ops, concurrency) {
  const monitor = new Client({ connectionString: svc.databaseUrl });
  await monitor.connect();
  const cpuBefore = await cpuSoFar(monitor);
  const latencies = [];
  let next = 0;
  let passed = 0;
  let refused = 0;
  const messages = new Set();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < ops) {
        const pair = pairs[next++ % pairs.length];
        const { ms, body } = await call(
          pair.identity,
          'wallet_transfer',
          { sender_wallet_id: pair.from, receiver_wallet_id: pair.to, amount: '1' },
          randomUUID(),
        );
        latencies.push(ms);
        if (body.ok) passed++;
        else {
          refused++;
          messages.add(body.message);
        }
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuPerOp(cpuBefore, await cpuSoFar(monitor), ops);
  await monitor.end();
  return {
    rate: ops / seconds,
    seconds,
    passed,
    refused,
    messages: [...messages],
    cpu,
    ...summary(latencies),
  };
}

/** Every wallet's balance equals the sum of its movements (the ledger's invariant). */
async function ledgerHolds() {
  const db = new Client({ connectionString: svc.databaseUrl });
  await db.connect();
  const { rows } = await db.query(
    `select w.id, w.amount::text as amount,
            coalesce(sum(case f.direction when 'in' then f.amount else -f.amount end), 0)::numeric(14,2)::text as moved
       from payments.wallet w left join payments.fin_operation f on f.wallet_id = w.id
      group by w.id, w.amount`,
  );
  await db.end();
  return rows.every((r) => r.amount === r.moved);
}

const line = (name, r, goalOps, goalP95) =>
  log(
    `${name.padEnd(34)} ${r.rate.toFixed(0).padStart(5)} ops/s (goal ≥ ${goalOps}) ${verdict(r.rate >= goalOps)}; ` +
      `latency p50 ${r.p50.toFixed(0)} ms, p95 ${r.p95.toFixed(0)} ms (goal ≤ ${goalP95}) ${verdict(r.p95 <= goalP95)}; ` +
      `CPU per transfer: svc-payments ${r.cpu.serviceMs.toFixed(2)} ms, PostgreSQL ${r.cpu.postgresMs.toFixed(2)} ms`,
  );

try {
  log(
    `${cpus().length} cores, load average ${loadavg()[0].toFixed(2)}; ${OPS} transfers of 1 ₽, ${CONCURRENCY} at once`,
  );
  const one = await walletsOf(1, String(OPS + 10));
  await burst([one], 100, 10); // warm-up
  const contended = await burst([one], OPS, CONCURRENCY);
  line('one wallet (every call on one lock)', contended, GOALS.contendedOps, GOALS.contendedP95Ms);

  const pairs = [];
  for (let c = 2; c < 22; c++) pairs.push(await walletsOf(c, String(OPS)));
  const spread = await burst(pairs, OPS, CONCURRENCY);
  line('20 wallets (20 clients at once)', spread, GOALS.spreadOps, GOALS.spreadP95Ms);

  const poor = await walletsOf(30, '100');
  const race = await burst([poor], 500, CONCURRENCY);
  const exact = race.passed === 100 && race.refused === 400;
  log(
    `500 debits of 1 ₽ racing for 100 ₽: ${race.passed} passed, ${race.refused} refused (${race.messages.join('; ')}) ` +
      `in ${(race.seconds * 1000).toFixed(0)} ms — ${verdict(exact)}`,
  );
  const holds = await ledgerHolds();
  log(`ledger: every balance = Σ of its movements — ${verdict(holds)}`);
} catch (err) {
  console.error(err);
  missGoal();
} finally {
  await svc.stop();
}
exitByGoals();
