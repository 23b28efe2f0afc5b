// `BENCH_ONLY=capacity npm run bench`: what one user action costs, the inputs of docs/capacity.md. The system
// `npm start` runs (services and gateway, no web; its own database, ports + BENCH_PORT_OFFSET, topic prefix),
// called through the gateway as the demo client and operator would, one kind of action after another:
//   login, an order created, its positions added, the order list, the order card (get_by_id + positions +
//   timeline), the order formed (draft → сформирован, its positions with it), a staff edit of the order and of
//   a position, a wallet transfer, the wallet list.
// For each kind it prints, per action: the CPU each process spent (gateway, svc-*, PostgreSQL's backends;
// what the events it caused cost their consumers included: each kind ends when every outbox is drained and
// the services are idle again), the rows it added per table, the events per topic and the bytes the tables
// grew by; and at the end every table's rows with their average size (pg_column_size) and their share of
// the table's size with its indexes. BENCH_CAPACITY_ORDERS (default 200), BENCH_CAPACITY_POSITIONS (per
// order, default 5), BENCH_CAPACITY_CONCURRENCY (default 4), BENCH_CAPACITY_DATABASE (default
// caravan_bench_capacity), BENCH_CAPACITY_JSON=<file> (the figures as JSON too).
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { buildIfStale } from '../build.mjs';
import * as infra from '../infra.mjs';
import { startSystemProcess } from '../system.mjs';
import { cpuDuring, exitByGoals, missGoal, systemProcesses } from './service.mjs';

const require = createRequire(import.meta.url);
const offset = Number(process.env.BENCH_PORT_OFFSET ?? 20000);
const DATABASE = process.env.BENCH_CAPACITY_DATABASE ?? 'caravan_bench_capacity';
const ORDERS = Number(process.env.BENCH_CAPACITY_ORDERS ?? 200);
const POSITIONS = Number(process.env.BENCH_CAPACITY_POSITIONS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CAPACITY_CONCURRENCY ?? 4);
const SCHEMAS = ['orders', 'payments', 'carriers', 'identity'];
const base = `http://127.0.0.1:${8080 + offset}`;
const log = (...a) => console.log('[bench capacity]', ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

buildIfStale({ web: false });
const { Client } = require('pg');

async function post(path, token, body, headers = {}) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'auth-token': token } : {}), ...headers },
    body: JSON.stringify(body),
  });
  const reply = await res.json();
  if (!reply.ok) throw new Error(`${path} ${JSON.stringify(body).slice(0, 200)}: ${reply.message}`);
  return reply.result;
}
const call = (token, method, params, headers) =>
  post('/api/call_pg_func', token, { method, params }, headers);
const login = (email, password) => post('/api/login', null, { login: email, password });

/** Runs `work(i)` for i < n, `CONCURRENCY` at a time. */
async function pool(n, work) {
  let next = 0;
  const results = new Array(n);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) {
        const i = next++;
        results[i] = await work(i);
      }
    }),
  );
  return results;
}

// ------------------------------------------------------------------------------------------------ the database

/** Every table of the services' schemas: its rows and its size with indexes and TOAST (bytes). */
async function tables(db) {
  const { rows } = await db.query(
    `select n.nspname || '.' || c.relname as name, pg_total_relation_size(c.oid)::bigint as bytes
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and n.nspname = any($1) and c.relname not like 'knex%'`,
    [SCHEMAS],
  );
  const result = new Map();
  for (const { name, bytes } of rows) {
    const {
      rows: [{ n }],
    } = await db.query(`select count(*)::int as n from ${name}`);
    result.set(name, { rows: n, bytes: Number(bytes) });
  }
  return result;
}

/** The newest outbox row id of each schema: the events written after it are the action's. */
async function outboxMarks(db) {
  const marks = {};
  for (const s of SCHEMAS)
    marks[s] = Number((await db.query(`select coalesce(max(id), 0) as id from ${s}.outbox`)).rows[0].id);
  return marks;
}

/** Events written since `marks`, per topic (the run's topic prefix taken off). */
async function eventsSince(db, marks) {
  const topics = {};
  for (const s of SCHEMAS) {
    const { rows } = await db.query(
      `select topic, count(*)::int as n from ${s}.outbox where id > $1 group by topic`,
      [marks[s]],
    );
    for (const { topic, n } of rows) {
      const name = /(?:gateway|orders|payments|carriers)\.[a-z_]+\.v\d+$/.exec(topic)?.[0] ?? topic;
      topics[name] = (topics[name] ?? 0) + n;
    }
  }
  return topics;
}

const SERVICES = (used) => used.filter(([name]) => name !== 'this bench' && name !== 'postgres');

async function outboxesPending(db) {
  let pending = 0;
  for (const s of SCHEMAS)
    pending += (await db.query(`select count(*)::int as n from ${s}.outbox where sent_at is null`)).rows[0].n;
  return pending;
}

/**
 * What each process spends a second doing nothing (the consumers' fetch loops, the relays' and workers'
 * polls, the probes): the quietest of five 3-second windows once the outboxes are drained (the first ones
 * may still see the start's replication).
 */
async function idleRates(db, processes) {
  while ((await outboxesPending(db)) > 0) await sleep(200);
  let quietest = null;
  for (let i = 0; i < 5; i++) {
    const { used } = await cpuDuring(processes, () => sleep(3000));
    const total = SERVICES(used).reduce((a, [, s]) => a + s, 0);
    if (!quietest || total < quietest.total) quietest = { total, used };
  }
  return new Map(quietest.used.map(([name, s]) => [name, s / 3]));
}

/** Until every outbox is sent and the services spend no more than at rest for a second: the consumers are done. */
async function quiet(db, processes, idle) {
  const deadline = Date.now() + 120_000;
  const atRest = SERVICES([...idle]).reduce((a, [, s]) => a + s, 0);
  while (Date.now() < deadline) {
    if ((await outboxesPending(db)) === 0) {
      const { used } = await cpuDuring(processes, () => sleep(1000));
      // 30 ms a second above rest is work still going on (a consumer's transaction is a few ms)
      if (SERVICES(used).reduce((a, [, s]) => a + s, 0) <= atRest + 0.03) return;
    } else await sleep(200);
  }
  throw new Error('the system did not come to rest within 2 minutes');
}

// ------------------------------------------------------------------------------------------------ the actions

/** The demo data an order needs: a route with a product type, as a demo order of the demo client has them. */
async function demoRoute(admin) {
  const orders = await call(admin, 'client_order_list', { per_page: 50 });
  const order = orders.items.find((o) => o.logistic_route_id && Number(o.client_id) === 1);
  if (!order) throw new Error('no demo order of client 1 with a route');
  const positions = await call(admin, 'client_order_position_list', {
    per_page: 50,
    where_param: [{ field: 'client_order_id', op: '=', value: order.id }],
  });
  const typed = positions.items.find((p) => p.type_id);
  if (!typed) throw new Error(`no position of order ${order.id} with a product type`);
  return { operatorId: order.operator_id, routeId: order.logistic_route_id, typeId: typed.type_id };
}

function kinds(who, demo, made) {
  const orderOf = (i) => made.orders[i % made.orders.length];
  return [
    {
      name: 'login (password check, session)',
      n: 20,
      calls: 1,
      run: () => login('client@caravan.local', 'caravan123'),
    },
    {
      name: 'order created (client)',
      n: ORDERS,
      calls: 1,
      run: async () =>
        made.orders.push(
          await call(who.client, 'client_order_update', {
            id: -1,
            client_id: 1,
            operator_id: demo.operatorId,
            logistic_route_id: demo.routeId,
            buyout_type: 'self',
            delivery_type: 'to_door',
          }),
        ),
    },
    {
      name: 'position added (client)',
      n: ORDERS * POSITIONS,
      calls: 1,
      run: async (i) =>
        made.positions.push(
          await call(who.client, 'client_order_position_update', {
            id: -1,
            client_order_id: orderOf(i % ORDERS).id,
            title: `Кроссовки беговые, размер ${36 + (i % 10)}`,
            link: `https://item.taobao.com/item.htm?id=${600000000 + i}`,
            waybill: `YT${7300000000 + i}`,
            type_id: demo.typeId,
            price_cny: String(50 + (i % 400)),
            amount: String(1 + (i % 20)),
          }),
        ),
    },
    {
      name: 'order list, first page (client)',
      n: ORDERS,
      calls: 1,
      run: () => call(who.client, 'client_order_list', { per_page: 50 }),
    },
    {
      name: 'order card: order, positions, timeline (client)',
      n: ORDERS,
      calls: 3,
      run: (i) =>
        Promise.all([
          call(who.client, 'client_order_get_by_id', { id: orderOf(i).id }),
          call(who.client, 'client_order_position_list', {
            per_page: 50,
            order_by: 'id asc',
            where_param: [{ field: 'client_order_id', op: '=', value: orderOf(i).id }],
          }),
          call(who.client, 'client_order_timeline', { id: orderOf(i).id }),
        ]),
    },
    {
      name: `order formed, ${POSITIONS} positions with it (client)`,
      n: ORDERS,
      calls: 1,
      run: (i) => call(who.client, 'client_order_created', { id: orderOf(i).id }),
    },
    {
      name: 'order edited (operator)',
      n: ORDERS,
      calls: 1,
      run: (i) => call(who.operator, 'client_order_update', { id: orderOf(i).id, comment: `проверено ${i}` }),
    },
    {
      name: 'position edited (operator)',
      n: ORDERS,
      calls: 1,
      run: (i) =>
        call(who.operator, 'client_order_position_update', {
          id: made.positions[i * POSITIONS].id,
          weight: String(0.5 + (i % 10) / 10),
        }),
    },
    {
      name: 'wallet transfer, 1 ₽ (client)',
      n: ORDERS,
      calls: 1,
      run: () =>
        call(
          who.client,
          'wallet_transfer',
          { sender_wallet_id: made.wallets.from, receiver_wallet_id: made.wallets.to, amount: '1' },
          { 'idempotency-key': randomUUID() },
        ),
    },
    {
      name: 'wallet list (client)',
      n: ORDERS,
      calls: 1,
      run: () => call(who.client, 'wallet_list', { per_page: 50 }),
    },
  ];
}

/** The client's rouble wallet with the demo balance and a second one to move money into. */
async function wallets(admin, client) {
  const list = await call(client, 'wallet_list', { per_page: 50 });
  const from = list.items.find((w) => Number(w.currency_id) === 2 && Number(w.amount) >= ORDERS);
  if (!from) throw new Error('the demo client has no rouble wallet holding enough');
  const to = await call(admin, 'wallet_update', { id: -1, title: 'Резерв', client_id: 1, currency_id: 2 });
  return { from: from.id, to: to.id };
}

// ------------------------------------------------------------------------------------------------ the report

const round = (v, d = 2) => Math.round(v * 10 ** d) / 10 ** d;

/** Per action: CPU ms per process (what it spends at rest over the same time taken off), rows and bytes per table, events per topic. */
function perAction(kind, cpu, idle, before, after, events) {
  const per = (v) => v / kind.n;
  const net = (name, s) => Math.max(0, s - (idle.get(name) ?? 0) * cpu.seconds);
  const grown = [...after]
    .map(([name, a]) => {
      const b = before.get(name) ?? { rows: 0, bytes: 0 };
      return { name, rows: per(a.rows - b.rows), bytes: per(a.bytes - b.bytes) };
    })
    .filter((t) => t.rows !== 0 || t.bytes !== 0);
  return {
    name: kind.name,
    actions: kind.n,
    callsPerAction: kind.calls,
    wallSeconds: round(cpu.seconds),
    cpuMsPerAction: Object.fromEntries(cpu.used.map(([name, s]) => [name, round(per(net(name, s) * 1000))])),
    rowsPerAction: Object.fromEntries(grown.filter((t) => t.rows).map((t) => [t.name, round(t.rows, 3)])),
    bytesPerAction: Object.fromEntries(grown.map((t) => [t.name, Math.round(t.bytes)])),
    eventsPerAction: Object.fromEntries(Object.entries(events).map(([t, n]) => [t, round(per(n), 3)])),
  };
}

function printAction(r) {
  log(`\n${r.name}: ${r.actions} actions (${r.callsPerAction} call(s) each) in ${r.wallSeconds} s`);
  const cpu = Object.entries(r.cpuMsPerAction).filter(([name]) => name !== 'this bench');
  log(`  CPU ms per action: ${cpu.map(([n, ms]) => `${n} ${ms}`).join(', ')}`);
  const rows = Object.entries(r.rowsPerAction);
  if (rows.length) log(`  rows per action: ${rows.map(([t, n]) => `${t} ${n}`).join(', ')}`);
  const events = Object.entries(r.eventsPerAction);
  if (events.length) log(`  events per action: ${events.map(([t, n]) => `${t} ${n}`).join(', ')}`);
  const bytes = Object.values(r.bytesPerAction).reduce((a, b) => a + b, 0);
  if (bytes) log(`  tables grew by ${bytes} bytes per action (indexes and TOAST included)`);
}

/** Each table with rows: count, average row (pg_column_size), total size with indexes per row. */
async function rowSizes(db) {
  const result = [];
  for (const [name, { rows, bytes }] of await tables(db)) {
    if (!rows) continue;
    const {
      rows: [{ avg }],
    } = await db.query(`select avg(pg_column_size(t.*))::float as avg from ${name} t`);
    result.push({ name, rows, avgRowBytes: Math.round(avg), totalBytesPerRow: Math.round(bytes / rows) });
  }
  return result.sort((a, b) => b.rows - a.rows);
}

/**
 * A table's columns an insert may give (not identity, not generated), and for each unique index that no
 * fresh identity value keeps unique, one of its columns changed in a copy: a uuid drawn anew, a number
 * shifted past the largest, a text with a suffix.
 */
async function copyableColumns(db, table) {
  const { rows: columns } = await db.query(
    `select a.attnum as num, a.attname as name, format_type(a.atttypid, a.atttypmod) as type,
            a.attidentity <> '' or coalesce(pg_get_expr(d.adbin, d.adrelid), '') like 'nextval%' as fresh
       from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''`,
    [table],
  );
  const { rows: uniques } = await db.query(
    `select i.indkey::int2[] as cols from pg_index i where i.indrelid = $1::regclass and i.indisunique`,
    [table],
  );
  const byNum = new Map(columns.map((c) => [c.num, c]));
  const rank = (c) =>
    c.type === 'uuid' ? 0 : /int|numeric/.test(c.type) ? 1 : /^(text|character varying)/.test(c.type) ? 2 : 9;
  const changed = new Set();
  for (const { cols } of uniques) {
    const members = cols.map((n) => byNum.get(n)).filter(Boolean);
    if (members.some((c) => c.fresh || changed.has(c.name))) continue;
    const pick = members.sort((a, b) => rank(a) - rank(b))[0];
    if (pick) changed.add(pick.name);
  }
  return columns
    .filter((c) => !c.fresh)
    .map((c) => {
      const col = `"${c.name}"`;
      if (!changed.has(c.name)) return { name: col, value: col };
      if (c.type === 'uuid') return { name: col, value: 'gen_random_uuid()' };
      if (/int|numeric/.test(c.type))
        return { name: col, value: `${col} + (select max(${col}) from ${table})` };
      // a random suffix, kept within a varchar's length
      const fresh = `${col} || '~' || substr(md5(random()::text), 1, 12)`;
      const length = /\((\d+)\)/.exec(c.type)?.[1];
      return { name: col, value: length ? `right(${fresh}, ${length})` : fresh };
    });
}

/**
 * Bytes a row takes at scale, indexes and TOAST included: each table that grew copied onto itself (unique
 * columns made unique again) until it holds `target` rows, both sides vacuumed (a fresh GIN index keeps new
 * entries in its pending list, which vacuum merges), the growth over the rows added. Small tables overstate
 * (a page, an index's root) what a row costs; this is the figure that scales.
 */
async function bytesPerRowAtScale(db, names, target = 16_000) {
  const result = [];
  for (const table of names) {
    await db.query(`vacuum analyze ${table}`);
    const size = async () =>
      (
        await db.query(
          `select pg_total_relation_size($1::regclass)::bigint as bytes, (select count(*) from ${table})::int as n`,
          [table],
        )
      ).rows[0];
    const before = await size();
    if (!before.n) continue;
    const cols = await copyableColumns(db, table);
    let n = before.n;
    for (let i = 0; i < 5 && n < target; i++) {
      await db.query(
        `insert into ${table} (${cols.map((c) => c.name).join(', ')}) select ${cols.map((c) => c.value).join(', ')} from ${table}`,
      );
      n *= 2;
    }
    await db.query(`vacuum analyze ${table}`);
    const after = await size();
    if (after.n === before.n) continue;
    result.push({
      name: table,
      rows: after.n,
      bytesPerRow: Math.round((Number(after.bytes) - Number(before.bytes)) / (after.n - before.n)),
    });
  }
  return result;
}

// ------------------------------------------------------------------------------------------------ the run

const system = await startSystemProcess({
  offset,
  database: DATABASE,
  prefix: 'bench-capacity',
  web: false,
  readyPath: '/api/readyz',
});
const db = new Client({ connectionString: await infra.ensurePostgres(DATABASE) });
try {
  await db.connect();
  const processes = () => systemProcesses(system.pid, db);
  const who = {
    admin: (await login('admin@caravan.local', 'caravan-admin')).token,
    client: (await login('client@caravan.local', 'caravan123')).token,
    operator: (await login('operator@caravan.local', 'caravan123')).token,
  };
  const demo = await demoRoute(who.admin);
  const made = { orders: [], positions: [], wallets: await wallets(who.admin, who.client) };
  const idle = await idleRates(db, processes);
  await quiet(db, processes, idle);
  log(
    `at rest, CPU ms a second: ${[...idle].map(([n, s]) => `${n} ${Math.round(s * 1000)}`).join(', ')} (taken off each figure)`,
  );
  log(
    `${cpus().length} cores, load average ${loadavg()[0].toFixed(2)}; ${ORDERS} orders of ${POSITIONS} positions, ` +
      `${CONCURRENCY} calls at once, through the gateway`,
  );
  const results = [];
  for (const kind of kinds(who, demo, made)) {
    const before = await tables(db);
    const marks = await outboxMarks(db);
    const cpu = await cpuDuring(processes, async () => {
      await pool(kind.n, kind.run);
      await quiet(db, processes, idle);
    });
    const r = perAction(kind, cpu, idle, before, await tables(db), await eventsSince(db, marks));
    printAction(r);
    results.push(r);
  }
  const sizes = await rowSizes(db);
  const grown = [...new Set(results.flatMap((r) => Object.keys(r.rowsPerAction)))];
  const atScale = new Map((await bytesPerRowAtScale(db, grown)).map((t) => [t.name, t]));
  log(
    '\nrows by table: count, average row (pg_column_size), table + indexes + TOAST per row as they are, ' +
      'and at scale (the table copied onto itself to ≥ 16,000 rows, vacuumed: the growth per row added)',
  );
  for (const t of sizes) {
    const scaled = atScale.get(t.name);
    t.bytesPerRowAtScale = scaled?.bytesPerRow ?? null;
    log(
      `  ${t.name.padEnd(48)} ${String(t.rows).padStart(7)} ${String(t.avgRowBytes).padStart(6)} B ${String(t.totalBytesPerRow).padStart(7)} B` +
        (scaled ? ` ${String(scaled.bytesPerRow).padStart(6)} B at ${scaled.rows}` : ''),
    );
  }
  log(`load average at the end ${loadavg()[0].toFixed(2)}`);
  if (process.env.BENCH_CAPACITY_JSON)
    writeFileSync(
      process.env.BENCH_CAPACITY_JSON,
      JSON.stringify({ orders: ORDERS, positions: POSITIONS, actions: results, sizes }, null, 2),
    );
} catch (err) {
  missGoal();
  console.error(err);
} finally {
  await db.end().catch(() => {});
  await system.stop();
}
exitByGoals();
