// `node deploy/local/bench/reports.mjs`: the client order report at 1,000,000 orders (issue 19,
// docs/adr/0024-reports.md), measured at the service (svc-orders' POST /rpc and its HTTP path with a
// signed identity, no gateway), on its own database (BENCH_REPORTS_DATABASE, default
// caravan_bench_reports, recreated) and ports (+BENCH_REPORTS_PORT_OFFSET, default 23000). Orders are
// seeded in SQL with generate_series: 1,000 clients, 20 operators serving 50 clients each, one order
// every 30 s over the last ~347 days, priced. Prints p50/p95 of the summary and of a page of rows for
// an admin, a client and an operator (all time, the last quarter, the last month), the time of the
// Excel download, and with BENCH_REPORTS_EXPLAIN=1 the plans of the summary's query.
// BENCH_REPORTS_ROWS (orders, default 1,000,000), BENCH_REPORTS_SAMPLES (calls per case, default 30).
import { cpus, loadavg } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildIfStale } from '../build.mjs';
import * as infra from '../infra.mjs';
import {
  exitByGoals,
  identityHeader,
  missGoal,
  percentile,
  rpc,
  signIdentity,
  startBenchService,
  verdict,
} from './service.mjs';

const require = createRequire(import.meta.url);
const offset = Number(process.env.BENCH_REPORTS_PORT_OFFSET ?? 23000);
const SAMPLES = Number(process.env.BENCH_REPORTS_SAMPLES ?? 30);
const ORDERS = Number(process.env.BENCH_REPORTS_ROWS ?? 1_000_000);
const DATABASE = process.env.BENCH_REPORTS_DATABASE ?? 'caravan_bench_reports';
const CLIENTS = 1000;
const OPERATORS = 20;
/** The goals: a client's or an operator's report as quick as a list page; an admin's whole year in a second. */
const SCOPED_GOAL_MS = 100;
const ADMIN_GOAL_MS = 1000;
const log = (...a) => console.log('[bench reports]', ...a);

buildIfStale({ web: false });
const { ORDER_STAGES } = require(path.join(infra.root, 'libs/contracts/dist/index.js'));
const { Client } = require('pg');

const svc = await startBenchService({
  service: 'svc-orders',
  database: DATABASE,
  port: 4001 + offset,
  topicPrefix: 'bench-reports-',
});
const { base, databaseUrl: DATABASE_URL } = svc;

/** The client and operator whose users the bench calls as (operator 7 serves client 7). */
const CLIENT_ID = 7;
const OPERATOR_ID = 1 + ((CLIENT_ID - 1) % OPERATORS);
const WHO = {
  admin: signIdentity(1, ['admin']),
  client: signIdentity(2, ['client'], { client_ids: [CLIENT_ID] }),
  operator: signIdentity(3, ['operator'], { operator_ids: [OPERATOR_ID] }),
};

const call = async (who, method, params) => (await rpc(base, WHO[who], method, params)).result;

async function download(who, params) {
  const t = performance.now();
  const res = await fetch(`${base}/api/client_order_report_download`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [identityHeader()]: WHO[who] },
    body: JSON.stringify(params),
  });
  if (!res.headers.get('content-type')?.includes('spreadsheetml'))
    throw new Error(`download as ${who}: ${JSON.stringify(await res.json())}`);
  const bytes = (await res.arrayBuffer()).byteLength;
  return { ms: performance.now() - t, bytes };
}

/** p50 / p95 of `SAMPLES` calls after 3 warm-up ones; of 3 when one call takes over a second. */
async function measure(run) {
  const t0 = performance.now();
  await run();
  const slow = performance.now() - t0 > 1000;
  for (let i = 0; i < (slow ? 0 : 2); i++) await run();
  const samples = [];
  for (let i = 0; i < (slow ? 3 : SAMPLES); i++) {
    const t = performance.now();
    await run();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

// ---------------------------------------------------------------- seeding

const hash = (x, salt = 0) => `(hashint4((${x})::int + ${salt}) & 2147483647)`;

async function seed(db) {
  const t0 = performance.now();
  await db.query(
    `insert into orders.client (title, type)
     select 'Клиент ' || g, case when g % 3 = 1 then 'self' else 'company' end from generate_series(1, ${CLIENTS}) g`,
  );
  // the orders' indexes are built after the load (as a bulk import does); triggers are off for it
  const { rows: indexes } = await db.query(
    `select indexname, indexdef from pg_indexes
      where schemaname = 'orders' and tablename = 'client_order' and indexname not like '%pkey'`,
  );
  for (const { indexname } of indexes) await db.query(`drop index orders."${indexname}"`);
  await db.query('set session_replication_role = replica');
  await db.query(
    `insert into orders.client_order (id, deleted, created_at, updated_at, title, client_id, operator_id,
        order_number, stage, logistic_route_id, buyout_type, buyout_price_rur, total_price_rur, client_title)
     select g, g % 100 = 0, t, t, 'заказ ' || g, c, 1 + (c - 1) % ${OPERATORS},
        case when s <> 'draft' then 'ЗК-' || g else '' end, s, 1 + g % 8,
        case when g % 10 = 0 then 'self' else 'operator' end, b, b + d, 'Клиент ' || c
       from (select g, now() - make_interval(secs => (${ORDERS}::int - g) * 30) as t,
                    1 + ${hash('g', 1)} % ${CLIENTS} as c,
                    (array[${ORDER_STAGES.map((s) => `'${s}'`).join(',')}])[1 + ${hash('g', 2)} % ${ORDER_STAGES.length}] as s,
                    ((${hash('g', 3)} % 10000000) / 100.0)::numeric(14,2) as b,
                    ((${hash('g', 4)} % 2000000) / 100.0)::numeric(14,2) as d
               from generate_series(1, ${ORDERS}) g) x`,
  );
  await db.query('set session_replication_role = origin');
  await db.query(`select setval('orders.client_order_id_seq', ${ORDERS})`);
  await db.query("set maintenance_work_mem = '512MB'");
  for (const { indexdef } of indexes) await db.query(indexdef);
  await db.query('vacuum analyze orders.client_order');
  const { rows } = await db.query(
    `select count(*)::int as n, pg_size_pretty(pg_total_relation_size('orders.client_order')) as size
       from orders.client_order`,
  );
  log(`seeded ${rows[0].n} orders (${rows[0].size}) in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  return rows[0].n;
}

// ---------------------------------------------------------------- cases

const day = (d) => d.toISOString().slice(0, 10);
const daysAgo = (n) => day(new Date(Date.now() - n * 86_400_000));
const PERIODS = {
  all: {},
  quarter: { created_from: daysAgo(91), created_to: daysAgo(0) },
  month: { created_from: daysAgo(30), created_to: daysAgo(0) },
};

async function explain(db, who) {
  // the summary's query as the service sends it, from the log of a real call
  const scope = {
    admin: '',
    client: `and o.client_id in (${CLIENT_ID})`,
    operator: `and o.operator_id in (${OPERATOR_ID})`,
  }[who];
  await db.query('begin');
  await db.query("set local work_mem = '32MB'");
  const { rows } = await db.query(
    `explain (analyze, buffers, costs off)
     select grouping(client_id), grouping(x.month), grouping(stage), client_id, to_char(month, 'YYYY-MM'), stage,
            sum(n), round(sum(product), 2), round(sum(price - product), 2), round(sum(price), 2)
       from (select o.client_id, o.stage, date_trunc('month', o.created_at at time zone 'Europe/Moscow') as month,
                    count(*) as n, sum(case when o.buyout_type = 'self' then 0 else coalesce(o.buyout_price_rur, 0) end) as product,
                    sum(coalesce(o.total_price_rur, 0)) as price
               from orders.client_order o
              where o.deleted = false ${scope}
                and o.created_at >= ($1::date)::timestamp at time zone 'Europe/Moscow'
              group by 1, 2, 3) x
      group by grouping sets ((client_id), (x.month), (stage), ())`,
    [PERIODS.quarter.created_from],
  );
  await db.query('rollback');
  console.log(
    `\nEXPLAIN ANALYZE, summary of the last quarter as ${who}:\n${rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`,
  );
}

const fmt = (r) => `${r.p50.toFixed(1).padStart(6)} / ${r.p95.toFixed(1).padStart(6)}`;

try {
  const db = new Client({ connectionString: DATABASE_URL });
  await db.connect();
  const count = await seed(db);
  const loadBefore = loadavg()[0];
  const results = {};
  const orders = {};
  for (const who of ['admin', 'client', 'operator']) {
    results[who] = {};
    for (const [period, filters] of Object.entries(PERIODS)) {
      orders[`${who}.${period}`] = (
        await call(who, 'client_order_report_summary', filters)
      ).total.order_count;
      results[who][`summary.${period}`] = await measure(() =>
        call(who, 'client_order_report_summary', filters),
      );
    }
    results[who]['rows.first'] = await measure(() => call(who, 'client_order_report_rows', {}));
    let cursor;
    for (let i = 0; i < 20; i++)
      cursor = (await call(who, 'client_order_report_rows', { cursor })).next_cursor;
    results[who]['rows.follow'] = await measure(() => call(who, 'client_order_report_rows', { cursor }));
  }
  const downloads = {
    client: await download('client', PERIODS.all),
    operator: await download('operator', PERIODS.month),
    admin: await download('admin', { created_from: daysAgo(7), created_to: daysAgo(0) }),
  };
  if (process.env.BENCH_REPORTS_EXPLAIN)
    for (const who of ['admin', 'operator', 'client']) await explain(db, who);
  await db.end();

  console.log(
    `\nclient order report, ${count} orders, at the service; ${SAMPLES} sequential calls per case after 3 warm-up (3 calls where one takes over a second)` +
      `\nload average (1 min, ${cpus().length} cores) ${loadBefore.toFixed(1)} before the calls, ${loadavg()[0].toFixed(1)} after` +
      `\nclient: client ${CLIENT_ID} (~1/${CLIENTS} of orders); operator: operator ${OPERATOR_ID} (~1/${OPERATORS} of orders)` +
      `\np50 / p95 in ms; goals p95 ≤ ${SCOPED_GOAL_MS} ms for a client and an operator, ≤ ${ADMIN_GOAL_MS} ms for an admin\n`,
  );
  const cases = [
    ['summary.all', 'summary, all time'],
    ['summary.quarter', 'summary, last 91 days'],
    ['summary.month', 'summary, last 30 days'],
    ['rows.first', 'rows, first page (50)'],
    ['rows.follow', 'rows, page 21 (next_cursor ×20)'],
  ];
  console.log(
    `${'case'.padEnd(34)} ${'admin'.padStart(15)}  ${'client'.padStart(15)}  ${'operator'.padStart(15)}`,
  );
  for (const [key, label] of cases) {
    const cells = ['admin', 'client', 'operator'].map((who) => results[who][key]);
    const ok =
      cells[0].p95 <= ADMIN_GOAL_MS && cells[1].p95 <= SCOPED_GOAL_MS && cells[2].p95 <= SCOPED_GOAL_MS;
    console.log(`${label.padEnd(34)} ${cells.map((r) => fmt(r).padStart(15)).join('  ')}   ${verdict(ok)}`);
  }
  console.log(
    `orders in the summary: ${Object.entries(orders)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
  );
  console.log('\nExcel download (one call each):');
  for (const [who, label] of [
    ['client', 'client, all time'],
    ['operator', 'operator, last 30 days'],
    ['admin', 'admin, last 7 days'],
  ])
    console.log(
      `  ${label.padEnd(28)} ${downloads[who].ms.toFixed(0).padStart(6)} ms, ${(downloads[who].bytes / 1024).toFixed(0)} KB`,
    );
} catch (err) {
  missGoal();
  console.error(err);
} finally {
  await svc.stop();
}
exitByGoals();
