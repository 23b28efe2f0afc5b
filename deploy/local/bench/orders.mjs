// `node deploy/local/bench/orders.mjs`: the orders lists at 1,000,000 orders and about 5,000,000
// positions (issue 9), measured at the service (svc-orders' POST /rpc with a signed identity, no
// gateway), on its own database (caravan_bench_orders, recreated) and ports (+22000). Rows are seeded
// in SQL with generate_series, not through the API: 1,000 clients, 20 operators serving 50 clients
// each, orders spread over the clients (one client reaches about 1/1000 of them) and over the stages,
// 1–9 positions an order and one order of 200 positions for the order card.
// Prints p50/p95 of client_order_list and client_order_position_list for an admin, a client and an
// operator (first page, a page reached by following next_cursor, a page far down, a stage filter, a
// search) and of the order card, next to the goals: a list p95 ≤ 50 ms, the card p95 ≤ 100 ms, a position search
// p95 ≤ 30 ms (issue 21).
// BENCH_ORDERS_ROWS (orders, default 1,000,000), BENCH_ORDERS_SAMPLES (calls per case, default 100).
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildIfStale } from '../build.mjs';
import * as infra from '../infra.mjs';
import { exitByGoals, missGoal, percentile, verdict } from './service.mjs';

const root = infra.root;
const require = createRequire(import.meta.url);
const offset = Number(process.env.BENCH_ORDERS_PORT_OFFSET ?? 22000);
const port = 4001 + offset;
const base = `http://127.0.0.1:${port}`;
const SAMPLES = Number(process.env.BENCH_ORDERS_SAMPLES ?? 100);
const ORDERS = Number(process.env.BENCH_ORDERS_ROWS ?? 1_000_000);
const CLIENTS = 1000;
const OPERATORS = 20;
const BRANDS = 1000;
const CARD_POSITIONS = 200;
/** Pages followed by next_cursor before the measured one. */
const FOLLOW = 20;
const LIST_GOAL_MS = 50;
const CARD_GOAL_MS = 100;
/** Issue 21: a position search at 5M positions (a brand with > 1,000 matches; one waybill), p95. */
const POSITION_SEARCH_GOALS_MS = { search: 30, searchOne: 30 };
const log = (...a) => console.log('[bench orders]', ...a);

buildIfStale({ web: false });
const kit = require(path.join(root, 'libs/service-kit/dist/index.js'));
const { IDENTITY_HEADER, ORDER_STAGES } = require(path.join(root, 'libs/contracts/dist/index.js'));
const { Client } = require('pg');

const kafkaWasRunning =
  Boolean(process.env.KAFKA_BROKERS) ||
  (await fetch('http://127.0.0.1:9092').then(
    () => true,
    (e) => e?.cause?.code !== 'ECONNREFUSED',
  ));
const DATABASE_URL = await infra.ensurePostgres('caravan_bench_orders', { fresh: true });
const KAFKA_BROKERS = infra.ensureKafka();
const topicPrefix = `bench-orders-${Date.now()}-`;

// BENCH_ORDERS_SERVICE: another build of the service to measure (a patched copy), else this one's
const servicePath = process.env.BENCH_ORDERS_SERVICE ?? path.join(root, 'svc-orders/dist/src/main.js');
const service = spawn(process.execPath, [servicePath], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    DATABASE_URL,
    KAFKA_BROKERS,
    KAFKA_TOPIC_PREFIX: topicPrefix,
    PORT: String(port),
    SEED_DEMO: 'false',
    LOG_LEVEL: 'error',
  },
});
const exited = new Promise((resolve) => service.once('exit', resolve));

async function until(check, ms = 120_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error('svc-orders did not become ready');
}

/** The client and operator whose users the bench calls as (operator 7 serves client 7). */
const CLIENT_ID = 7;
const OPERATOR_ID = 1 + ((CLIENT_ID - 1) % OPERATORS);
const secret = process.env.IDENTITY_TOKEN_SECRET ?? kit.DEV_IDENTITY_SECRET;
const identity = (userId, roles, more = {}) =>
  kit.signIdentity(
    {
      user_id: userId,
      fullname: 'bench',
      roles,
      state: 'working',
      client_ids: [],
      operator_ids: [],
      ...more,
    },
    secret,
    3600,
  );
const WHO = {
  admin: identity(1, ['admin']),
  client: identity(2, ['client'], { client_ids: [CLIENT_ID] }),
  operator: identity(3, ['operator'], { operator_ids: [OPERATOR_ID] }),
};

async function call(who, method, params) {
  const t = performance.now();
  const res = await fetch(`${base}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [IDENTITY_HEADER]: WHO[who] },
    body: JSON.stringify({ method, params }),
  });
  const body = await res.json();
  if (!body.ok) throw new Error(`${method} as ${who} ${JSON.stringify(params)}: ${body.message}`);
  return { ms: performance.now() - t, result: body.result };
}

/** p50 / p95 of `SAMPLES` calls after 10 warm-up ones; of 3 when one call takes seconds (the bench still ends). */
async function measure(run) {
  const t0 = performance.now();
  await run();
  const slow = performance.now() - t0 > 1000;
  for (let i = 0; i < (slow ? 0 : 9); i++) await run(); // warm-up
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

const SYLLABLES = [
  'ка',
  'ми',
  'ра',
  'но',
  'во',
  'ло',
  'тан',
  'бе',
  'ре',
  'за',
  'ду',
  'лин',
  'ос',
  'ен',
  'ар',
  'ти',
  'пол',
  'ви',
  'сан',
  'мо',
];
const sqlArray = (words) => `array[${words.map((w) => `'${w}'`).join(',')}]`;
/** A made-up brand of `BRANDS` (from the integer expression `w`): the word a search looks for. */
const brandSql = (w) => `initcap(
  (${sqlArray(SYLLABLES)})[1 + (${w}) % 20] || (${sqlArray(SYLLABLES)})[1 + (${w}) / 20 % 20] ||
  (array['екс','ион','ола','ито','ано'])[1 + (${w}) / 400 % 5])`;
const CATEGORIES = [
  'Кроссовки',
  'Куртки',
  'Платья',
  'Сумки',
  'Игрушки',
  'Наушники',
  'Чехлы',
  'Лампы',
  'Посуда',
  'Рюкзаки',
  'Часы',
  'Очки',
  'Шарфы',
  'Кабели',
  'Зарядки',
  'Ковры',
  'Шторы',
  'Носки',
  'Перчатки',
  'Зонты',
];
const PURPOSES = [
  'весна',
  'лето',
  'осень',
  'зима',
  'для магазина',
  'маркетплейс',
  'пробная партия',
  'дозаказ',
  'подарки',
  'опт',
];
/** A non-negative 32-bit hash of an integer expression: the seed's "random" that is the same on every run. */
const hash = (x, salt = 0) => `(hashint4((${x})::int + ${salt}) & 2147483647)`;

/** The order stage of order g: most orders are done, a few in each of the earlier stages. */
function orderStageSql(g) {
  // cumulative percent where each stage ends (ORDER_STAGES order): draft 3 %, … client_confirmed 48 %
  const ends = [3, 6, 10, 15, 20, 27, 37, 42, 52, 100];
  const h = `${hash(g, 11)} % 100`;
  return `case ${ends.map((end, i) => `when ${h} < ${end} then '${ORDER_STAGES[i]}'`).join(' ')} end`;
}
const stageRank = (column, stages) => `array_position(${sqlArray(stages)}::text[], ${column}::text)`;

async function timed(label, fn) {
  const t = performance.now();
  await fn();
  log(`${label} ${((performance.now() - t) / 1000).toFixed(1)} s`);
}

/** Runs the statements on `n` connections at once (the machine's cores), longest first as given. */
async function onConnections(n, statements, setup = [], done = () => {}) {
  const queue = [...statements];
  const worker = async () => {
    const c = new Client({ connectionString: DATABASE_URL });
    await c.connect();
    try {
      for (const s of setup) await c.query(s);
      for (let s = queue.shift(); s; s = queue.shift()) {
        const t = performance.now();
        await c.query(s);
        done(s, performance.now() - t);
      }
    } finally {
      await c.end();
    }
  };
  await Promise.all(Array.from({ length: n }, worker));
}

/** Halves of 1..to, one a connection: two inserts fill the two cores. */
const halves = (to) => [
  [1, Math.floor(to / 2)],
  [Math.floor(to / 2) + 1, to],
];

function insertOrders(from, to) {
  const g = 'g';
  const client = `(1 + ${hash(g, 1)} % ${CLIENTS})`;
  return `insert into orders.client_order (id, deleted, created_at, updated_at, title, client_id, operator_id,
      order_number, stage, state, consolidation_warehouse_id, to_warehouse_id, logistic_route_id, buyout_type,
      package_id, delivery_type, transport_company_rus, transport_company_rus_order_number, shipment_article,
      send_date, weight, volume, amount, buyout_price_rur, total_price_rur, product_payment_state, comment,
      client_title)
    select g, g % 100 = 0, t, least(now(), t + interval '3 days'), o.title, client_id, 1 + (client_id - 1) % ${OPERATORS},
      case when stage <> 'draft' then 'ЗК-' || g else '' end, stage,
      case when stage = 'client_confirmed' then 'done' when g % 50 = 1 then 'cancelled' else 'active' end,
      1 + g % 3, 4 + g % 3, 1 + g % 8, case when g % 10 = 0 then 'self' else 'operator' end,
      case when g % 4 = 0 then null else 1 + g % 4 end,
      (array['to_door','to_ru','to_fulfillment'])[1 + g % 3],
      case when r >= 8 then (array['cdek','ozon','pec'])[1 + g % 3] end,
      case when r >= 8 then (1000000000 + ${hash(g, 5)} % 9000000000)::text else '' end,
      case when r >= 7 then 'ART-' || (g % 50000) else '' end,
      case when r >= 7 then (t + interval '20 days')::date end,
      case when r >= 6 then ((${hash(g, 7)} % 200000) / 1000.0)::numeric(15,3) end,
      case when r >= 6 then ((${hash(g, 8)} % 50000) / 10000.0)::numeric(15,4) end,
      case when r >= 6 then 1 + g % 12 end,
      ((${hash(g, 9)} % 10000000) / 100.0)::numeric(14,2),
      ((${hash(g, 10)} % 20000000) / 100.0)::numeric(14,2),
      case when r >= 4 then 'paid' else 'not_paid' end, '', c.title
    from (
      select g, client_id, stage, ${stageRank('stage', ORDER_STAGES)} as r,
        now() - make_interval(secs => (${ORDERS}::int - g) * 30) as t,
        case when g % 10 < 3 then 'заказ ' || g
             else (${sqlArray(CATEGORIES)})[1 + g % 20] || ' ' || ${brandSql(`${hash(g, 3)} % ${BRANDS}`)} || ' ' ||
                  (${sqlArray(PURPOSES)})[1 + g / 20 % 10] end as title
      from (select g, ${client} as client_id, ${orderStageSql(g)} as stage
              from generate_series(${from}::int, ${to}::int) g) s
    ) o join orders.client c on c.id = o.client_id`;
}

/**
 * Positions of the orders from..to: 1–9 an order (5 on average), the card's order 200. Their stage
 * follows the order's (a formed order's positions are on verification or beyond); a waybill once sent
 * to the consolidation warehouse.
 */
function insertPositions(from, to, cardOrderId, reachColumns) {
  const n = `case when o.id = ${cardOrderId} then ${CARD_POSITIONS} else 1 + ${hash('o.id', 21)} % 9 end`;
  const p = `(o.id * 16 + k)`;
  const stage = `case when o.stage = 'created' then (array['verification','created'])[1 + k % 2] else o.stage end`;
  return `insert into orders.client_order_position (deleted, created_at, updated_at, client_order_id, title,
      title_original, title_ru, link, waybill, type_id, stage, buyout_state, price_cny, amount, weight, volume,
      provider_id, client_order_title, provider_title${reachColumns.map((c) => `, ${c}`).join('')})
    select o.deleted or (k = 7 and o.id <> ${cardOrderId}), o.created_at + make_interval(secs => k * 40), o.updated_at, o.id,
      (${sqlArray(CATEGORIES)})[1 + ${hash(p, 31)} % 20] || ' ' || ${brandSql(`${hash(p, 32)} % ${BRANDS}`)} || ' ' || (${hash(p, 33)} % 900 + 100),
      case when k % 5 = 0 then 'Model ' || (${hash(p, 34)} % 100000) else '' end,
      '', 'https://shop' || (o.client_id * 2 - k % 2) || '.1688.com/item/' || ${p},
      case when ${stageRank('o.stage', ORDER_STAGES)} >= 5 then 'YT' || (1000000000 + ${hash(p, 35)} % 9000000000) else '' end,
      1 + ${p} % 10, ${stage},
      case when ${stageRank('o.stage', ORDER_STAGES)} >= 4 then 'done' else 'not_done' end,
      ((${hash(p, 36)} % 100000) / 100.0)::numeric(14,2), 1 + k % 20,
      ((${hash(p, 37)} % 20000) / 1000.0)::numeric(15,3), ((${hash(p, 38)} % 5000) / 100000.0)::numeric(15,4),
      pr.id, o.title, pr.title${reachColumns.map((c) => `, o.${c}`).join('')}
    from orders.client_order o
    cross join lateral generate_series(1, ${n}) k
    left join orders.provider pr on k % 5 <> 0 and pr.id = o.client_id * 2 - k % 2
    where o.id between ${from} and ${to}`;
}

const REPLICAS = [
  [
    'warehouse_point',
    6,
    (i) => `'Склад ' || (array['Гуанчжоу','Иу','Шэньчжэнь','Москва','Новосибирск','Екатеринбург'])[${i}]`,
  ],
  ['logistic_route', 8, (i) => `'Тариф ' || ${i}`],
  ['extra_service', 4, (i) => `'Упаковка ' || ${i}`],
  ['logistic_product_type', 10, (i) => `'Тип товара ' || ${i}`],
];

async function seedDirectories(db) {
  await db.query(
    `insert into orders.client (title, type)
     select (array['ООО «','ИП ','АО «'])[1 + g % 3] || ${brandSql('g * 7')} || ' ' || g ||
            case when g % 3 = 1 then '' else '»' end,
            case when g % 3 = 1 then 'self' else 'company' end
       from generate_series(1, ${CLIENTS}) g`,
  );
  await db.query(
    `insert into orders.provider (title, name_str, client_id)
     select 'Поставщик ' || g, 'Supplier ' || g || ' Co.', (g + 1) / 2 from generate_series(1, ${CLIENTS * 2}) g`,
  );
  // operators serve clients (client_list), as svc-carriers replicates them
  await db.query(
    `insert into orders.replica (entity, id, data, occurred_at, event_id)
     select 'operator', o, jsonb_build_object('id', o, 'title', 'Оператор ' || o, 'client_list',
              (select jsonb_agg(jsonb_build_object('id', c)) from generate_series(o, ${CLIENTS}, ${OPERATORS}) c)),
            now(), gen_random_uuid()
       from generate_series(1, ${OPERATORS}) o`,
  );
  for (const [entity, count, title] of REPLICAS)
    await db.query(
      `insert into orders.replica (entity, id, data, occurred_at, event_id)
       select '${entity}', i, jsonb_build_object('id', i, 'title', ${title('i')}), now(), gen_random_uuid()
         from generate_series(1, ${count}) i`,
    );
}

/**
 * Loads orders and positions like a bulk import: the tables' secondary indexes are dropped and built
 * again after the load (two at a time, one a core), triggers and foreign-key checks are off for the
 * load (session_replication_role) and the title keys they would fill are written by the inserts.
 */
async function seed(db) {
  const t0 = performance.now();
  await seedDirectories(db);
  const { rows: indexes } = await db.query(
    `select i.indexname, i.indexdef, i.indexdef like '%USING gin%' as gin
       from pg_indexes i
      where i.schemaname = 'orders' and i.tablename in ('client_order', 'client_order_position')
        and i.indexname not like '%pkey'`,
  );
  for (const { indexname } of indexes) await db.query(`drop index orders."${indexname}"`);
  const load = ['set session_replication_role = replica', 'set synchronous_commit = off'];
  await timed(`${ORDERS} orders`, () =>
    onConnections(
      2,
      halves(ORDERS).map(([a, b]) => insertOrders(a, b)),
      load,
    ),
  );
  await db.query(`select setval('orders.client_order_id_seq', ${ORDERS})`);
  // the card: a recent order of the bench's client, in the middle of its way
  const { rows } = await db.query(
    `select id from orders.client_order where client_id = $1 and not deleted and stage = 'warehouse_received'
      order by id desc limit 1`,
    [CLIENT_ID],
  );
  const cardOrderId = Number(rows[0].id);
  // the order's client and operator, where a schema keeps them on the position (its triggers are off here)
  const { rows: reach } = await db.query(
    `select column_name from information_schema.columns
      where table_schema = 'orders' and table_name = 'client_order_position' and column_name in ('client_id', 'operator_id')`,
  );
  const reachColumns = reach.map((r) => r.column_name);
  await timed('positions', () =>
    onConnections(
      2,
      halves(ORDERS).map(([a, b]) => insertPositions(a, b, cardOrderId, reachColumns)),
      load,
    ),
  );
  await timed('vacuum analyze', () =>
    onConnections(2, ['vacuum analyze orders.client_order_position', 'vacuum analyze orders.client_order']),
  );
  // trigram (GIN) builds are the long ones and are not parallel: first, spread over both connections
  const byCost = [...indexes].sort(
    (a, b) => Number(b.gin) - Number(a.gin) || b.indexdef.localeCompare(a.indexdef),
  );
  await timed(`${indexes.length} indexes`, () =>
    onConnections(
      2,
      byCost.map((i) => i.indexdef),
      ["set maintenance_work_mem = '1GB'", 'set max_parallel_maintenance_workers = 0'],
      (sql, ms) => ms > 20_000 && log(`  ${/index (\S+)/i.exec(sql)[1]} ${(ms / 1000).toFixed(0)} s`),
    ),
  );
  await db.query('analyze orders.client_order, orders.client_order_position');
  const { rows: counts } = await db.query(
    `select (select count(*) from orders.client_order)::int as orders,
            (select count(*) from orders.client_order_position)::int as positions,
            pg_size_pretty(pg_total_relation_size('orders.client_order')) as orders_size,
            pg_size_pretty(pg_total_relation_size('orders.client_order_position')) as positions_size`,
  );
  const c = counts[0];
  const seconds = (performance.now() - t0) / 1000;
  log(
    `seeded ${c.orders} orders (${c.orders_size}) and ${c.positions} positions (${c.positions_size}) in ${seconds.toFixed(0)} s`,
  );
  return { cardOrderId, counts: c, seconds };
}

// ---------------------------------------------------------------- cases

/** A cursor in the middle of a reader's list, as the list hands it out after scrolling there. */
async function middleCursor(db, from, where) {
  const { rows: n } = await db.query(`select count(*)::int as n from ${from} where ${where}`);
  const { rows } = await db.query(
    `select x.created_at::text as k, x.id from ${from} where ${where}
      order by x.created_at desc, x.id desc offset $1 limit 1`,
    [Math.floor(n[0].n / 2)],
  );
  const count = { total: 1001, total_exact: false };
  return Buffer.from(
    JSON.stringify({ o: 'created_at desc', k: rows[0].k, i: Number(rows[0].id), n: count }),
  ).toString('base64url');
}

/** The cursor after `FOLLOW` pages, following each page's next_cursor as a scrolling reader does. */
async function followed(who, method, params) {
  let cursor;
  for (let i = 0; i < FOLLOW; i++) {
    const { result } = await call(who, method, cursor ? { ...params, cursor } : params);
    cursor = result.next_cursor;
    if (!cursor) throw new Error(`${method} as ${who}: no page ${i + 2}`);
  }
  return cursor;
}

/** Rows each reader reaches, for the far cursors: the SQL the service's scope amounts to. */
const REACH = {
  orders: {
    from: 'orders.client_order x',
    admin: 'not x.deleted',
    client: `not x.deleted and x.client_id = ${CLIENT_ID}`,
    operator: `not x.deleted and x.operator_id = ${OPERATOR_ID}`,
  },
  positions: {
    from: 'orders.client_order_position x join orders.client_order o on o.id = x.client_order_id',
    admin: 'not x.deleted',
    client: `not x.deleted and o.client_id = ${CLIENT_ID}`,
    operator: `not x.deleted and o.operator_id = ${OPERATOR_ID}`,
  },
};

const ROWS = [
  ['first', 'first page'],
  ['follow', `page ${FOLLOW + 1} (next_cursor ×${FOLLOW})`],
  ['far', 'far page (cursor mid-list)'],
  ['stage', 'stage = buyout_waiting (where)'],
  ['search', 'search: a brand (~0.1 % of rows)'],
  ['searchOne', 'search: one order number / waybill'],
];

async function listCases(db, list, method, { searchWord, searchOne }) {
  const results = {};
  for (const who of ['admin', 'client', 'operator']) {
    const far = await middleCursor(db, REACH[list].from, REACH[list][who]);
    const follow = await followed(who, method, {});
    const cases = {
      first: {},
      follow: { cursor: follow },
      far: { cursor: far },
      stage: { where_param: [{ field: 'stage', op: '=', value: 'buyout_waiting' }] },
      search: { search: searchWord },
      searchOne: { search: searchOne },
    };
    results[who] = {};
    for (const [key, params] of Object.entries(cases)) {
      const { result } = await call(who, method, params);
      if (!result.items.length) throw new Error(`${method} as ${who}, ${key}: no rows`);
      results[who][key] = { ...(await measure(() => call(who, method, params))), rows: result.items.length };
    }
  }
  return results;
}

async function cardCases(cardOrderId) {
  const get = (who) => call(who, 'client_order_get_by_id', { id: cardOrderId });
  const positions = (who) =>
    call(who, 'client_order_position_list', { client_order_id: cardOrderId, per_page: CARD_POSITIONS });
  const { result } = await positions('client');
  if (result.items.length !== CARD_POSITIONS)
    throw new Error(`the card's order has ${result.items.length} positions, not ${CARD_POSITIONS}`);
  const results = {};
  for (const who of ['admin', 'client', 'operator']) {
    results[who] = {
      get: await measure(() => get(who)),
      positions: await measure(() => positions(who)),
      sequential: await measure(async () => {
        await get(who);
        await positions(who);
      }),
      parallel: await measure(() => Promise.all([get(who), positions(who)])),
    };
  }
  return results;
}

// ---------------------------------------------------------------- report

const fmt = (r) => `${r.p50.toFixed(1).padStart(5)} / ${r.p95.toFixed(1).padStart(5)}`;

/** `goals`: a row's own goal where a later issue set a stricter one than the list's. */
function printList(title, results, goals = {}) {
  console.log(`\n${title}; p50 / p95 in ms; goal p95 ≤ ${LIST_GOAL_MS} ms unless the row names its own\n`);
  console.log(
    `${'case'.padEnd(34)} ${'admin'.padStart(13)}  ${'client'.padStart(13)}  ${'operator'.padStart(13)}`,
  );
  for (const [key, label] of ROWS) {
    const cells = ['admin', 'client', 'operator'].map((who) => results[who][key]);
    const goal = goals[key] ?? LIST_GOAL_MS;
    const ok = cells.every((r) => r.p95 <= goal);
    const named = goals[key] ? `   goal p95 ≤ ${goal} ms (issue 21)` : '';
    console.log(
      `${label.padEnd(34)} ${cells.map((r) => fmt(r).padStart(13)).join('  ')}   ${verdict(ok)}${named}`,
    );
  }
}

function printCard(results) {
  console.log(
    `\norder card (an order of ${CARD_POSITIONS} positions): client_order_get_by_id + client_order_position_list ` +
      `{client_order_id, per_page: ${CARD_POSITIONS}}; p50 / p95 in ms; goal p95 ≤ ${CARD_GOAL_MS} ms for both calls\n`,
  );
  console.log(
    `${'case'.padEnd(34)} ${'admin'.padStart(13)}  ${'client'.padStart(13)}  ${'operator'.padStart(13)}`,
  );
  const rows = [
    ['get', 'client_order_get_by_id', null],
    ['positions', `its ${CARD_POSITIONS} positions`, null],
    ['sequential', 'both, one after the other', CARD_GOAL_MS],
    ['parallel', 'both at once (as a page loads)', CARD_GOAL_MS],
  ];
  for (const [key, label, goal] of rows) {
    const cells = ['admin', 'client', 'operator'].map((who) => results[who][key]);
    const judged = goal ? `   ${verdict(cells.every((r) => r.p95 <= goal))}` : '';
    console.log(`${label.padEnd(34)} ${cells.map((r) => fmt(r).padStart(13)).join('  ')}${judged}`);
  }
}

try {
  await until(async () => (await fetch(`${base}/readyz`)).ok);
  const db = new Client({ connectionString: DATABASE_URL });
  await db.connect();
  const { cardOrderId, counts, seconds } = await seed(db);
  // a brand in one of the bench client's orders and positions: every reader's search finds something
  const word = async (sql) => (await db.query(sql)).rows[0].w;
  const orderWord = await word(
    `select split_part(title, ' ', 2) as w from orders.client_order
      where client_id = ${CLIENT_ID} and not deleted and title not like 'заказ %' order by id desc limit 1`,
  );
  const positionWord = await word(
    `select split_part(p.title, ' ', 2) as w from orders.client_order_position p
      join orders.client_order o on o.id = p.client_order_id
     where o.client_id = ${CLIENT_ID} and not p.deleted order by p.id desc limit 1`,
  );
  // one match: the card order's number and the waybill of one of its positions
  const orderNumber = `ЗК-${cardOrderId}`;
  const waybill = await word(
    `select waybill as w from orders.client_order_position where client_order_id = ${cardOrderId} order by id limit 1`,
  );
  const loadBefore = loadavg()[0];
  const orders = await listCases(db, 'orders', 'client_order_list', {
    searchWord: orderWord,
    searchOne: orderNumber,
  });
  const positions = await listCases(db, 'positions', 'client_order_position_list', {
    searchWord: positionWord,
    searchOne: waybill,
  });
  const card = await cardCases(cardOrderId);
  await db.end();

  console.log(
    `\nsvc-orders at the service, ${SAMPLES} sequential calls per case after 10 warm-up (3 calls where one takes seconds); seeded in ${seconds.toFixed(0)} s` +
      `\nload average (1 min, ${cpus().length} cores) ${loadBefore.toFixed(1)} before the calls, ${loadavg()[0].toFixed(1)} after: others' work on the machine slows the p95` +
      `\nclient: client ${CLIENT_ID} (~1/${CLIENTS} of orders); operator: operator ${OPERATOR_ID} (${CLIENTS / OPERATORS} clients, ~1/${OPERATORS} of orders)`,
  );
  printList(`client_order_list, ${counts.orders} orders, search '${orderWord}', '${orderNumber}'`, orders);
  printList(
    `client_order_position_list, ${counts.positions} positions, search '${positionWord}', '${waybill}'`,
    positions,
    POSITION_SEARCH_GOALS_MS,
  );
  printCard(card);
} catch (err) {
  missGoal();
  console.error(err);
} finally {
  service.kill('SIGTERM');
  await exited;
  await infra.deleteTopics(KAFKA_BROKERS, topicPrefix).catch(() => {});
  if (!kafkaWasRunning) infra.stopKafka();
  await infra.stopPostgres();
}
exitByGoals();
