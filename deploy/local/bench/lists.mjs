// `node deploy/local/bench/lists.mjs`: the generic list at 10,000 and at 1,000,000 rows, measured at
// the service (svc-carriers' POST /rpc with a signed identity, no gateway), on its own database
// (caravan_bench_lists, recreated) and ports (+21000). Rows are seeded with generate_series, not
// through the API: cities with a title from a vocabulary of 1,000 made-up names and a number, in 250
// countries. Prints p50/p95 of each case at both sizes next to its goal (issue 8 §2).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildIfStale } from '../build.mjs';
import * as infra from '../infra.mjs';
import { exitByGoals, missGoal, percentile, verdict } from './service.mjs';

const root = infra.root;
const require = createRequire(import.meta.url);
const offset = Number(process.env.BENCH_LISTS_PORT_OFFSET ?? 21000);
const port = 4003 + offset;
const base = `http://127.0.0.1:${port}`;
const SAMPLES = Number(process.env.BENCH_LISTS_SAMPLES ?? 200);
const SIZES = [10_000, 1_000_000];
const COUNTRIES = 250;
const WORDS = 1000;
const log = (...a) => console.log('[bench lists]', ...a);

buildIfStale({ web: false });
const kit = require(path.join(root, 'libs/service-kit/dist/index.js'));
const { IDENTITY_HEADER } = require(path.join(root, 'libs/contracts/dist/index.js'));
const { Client } = require('pg');

const kafkaWasRunning =
  Boolean(process.env.KAFKA_BROKERS) ||
  (await fetch('http://127.0.0.1:9092').then(
    () => true,
    (e) => e?.cause?.code !== 'ECONNREFUSED',
  ));
const DATABASE_URL = await infra.ensurePostgres('caravan_bench_lists', { fresh: true });
const KAFKA_BROKERS = infra.ensureKafka();
const topicPrefix = `bench-lists-${Date.now()}-`;

const service = spawn(process.execPath, [path.join(root, 'svc-carriers/dist/src/main.js')], {
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
  throw new Error('svc-carriers did not become ready');
}

const admin = {
  user_id: 1,
  fullname: 'bench',
  roles: ['admin'],
  state: 'working',
  client_ids: [],
  operator_ids: [],
};
const secret = process.env.IDENTITY_TOKEN_SECRET ?? kit.DEV_IDENTITY_SECRET;
async function call(params) {
  const t = performance.now();
  const res = await fetch(`${base}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [IDENTITY_HEADER]: kit.signIdentity(admin, secret) },
    body: JSON.stringify({ method: 'city_list', params }),
  });
  const body = await res.json();
  if (!body.ok) throw new Error(`city_list ${JSON.stringify(params)}: ${body.message}`);
  return { ms: performance.now() - t, result: body.result };
}

async function measure(params) {
  for (let i = 0; i < 20; i++) await call(params); // warm-up
  const samples = [];
  for (let i = 0; i < SAMPLES; i++) samples.push((await call(params)).ms);
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

/** A cursor in the middle of a sort, as the list hands it out after scrolling there. */
async function cursorAt(db, orderBy, sql, position) {
  const { rows } = await db.query(`${sql} offset $1 limit 1`, [position]);
  const row = rows[0];
  // the count a first page would have carried on (more than the cap: the list shows it as estimated)
  const n = { total: 1001, total_exact: false };
  return Buffer.from(JSON.stringify({ o: orderBy, k: row.k, i: Number(row.id), n })).toString('base64url');
}

const SYLLABLES = [
  'ка',
  'ми',
  'ра',
  'но',
  'во',
  'ло',
  'гор',
  'ск',
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
];
const wordSql = `initcap(
  (array[${SYLLABLES.map((s) => `'${s}'`).join(',')}])[1 + (w % 20)] ||
  (array[${SYLLABLES.map((s) => `'${s}'`).join(',')}])[1 + (w / 20 % 20)] ||
  (array['ов','ск','ань','ин','ево','град'])[1 + (w / 400 % 6)])`;

/**
 * Loads cities like a bulk import would: the list indexes (those the migrations derived) are dropped
 * and built again after the load, which is many times faster than keeping three trigram indexes up
 * to date row by row. The title-key trigger stays: it fills each city's country title.
 */
async function seed(db, from, to) {
  const t = performance.now();
  const { rows: indexes } = await db.query(
    `select indexname, indexdef from pg_indexes
      where schemaname = 'carriers' and tablename = 'city' and indexname not like '%pkey'`,
  );
  for (const { indexname } of indexes) await db.query(`drop index carriers."${indexname}"`);
  await db.query(
    `insert into carriers.city (title, title_en, title_ru, country_id, created_at, updated_at)
     select ${wordSql} || ' ' || g, 'City ' || g, ${wordSql} || ' ' || g, 1 + g % ${COUNTRIES},
            now() - make_interval(secs => ($2::int - g) * 7), now()
       from (select g, ((g::bigint * 7919) % ${WORDS})::int as w from generate_series($1::int, $2::int) g) s`,
    [from, to],
  );
  const loaded = performance.now();
  await db.query(`set maintenance_work_mem = '256MB'`);
  for (const { indexdef } of indexes) await db.query(indexdef);
  await db.query('vacuum analyze carriers.city');
  log(
    `seeded cities ${from}–${to}: load ${((loaded - t) / 1000).toFixed(1)} s, ` +
      `${indexes.length} indexes ${((performance.now() - loaded) / 1000).toFixed(1)} s`,
  );
}

const GOALS = {
  first: { label: 'first page (newest first)', goal: 'p95 ≤ 10 ms', ok: (r) => r.p95 <= 10 },
  deep: {
    label: 'deep page (cursor, middle of the list)',
    goal: 'p95 ≤ 10 ms, ≤ 2× first',
    ok: (r, all) => r.p95 <= 10 && r.p50 <= 2 * all.first.p50,
  },
  title: { label: 'sorted by title, deep page (cursor)', goal: 'p95 ≤ 10 ms', ok: (r) => r.p95 <= 10 },
  search: { label: 'search (a city name)', goal: 'p95 ≤ 50 ms', ok: (r) => r.p95 <= 50 },
  filter: { label: 'filter country_id = 7', goal: 'p95 ≤ 10 ms', ok: (r) => r.p95 <= 10 },
  computed: { label: 'sorted by country title (computed)', goal: 'p95 ≤ 20 ms', ok: (r) => r.p95 <= 20 },
  computedDeep: { label: 'sorted by country title, deep page', goal: 'p95 ≤ 20 ms', ok: (r) => r.p95 <= 20 },
};

async function measureAll(db, rows) {
  const mid = Math.floor(rows / 2);
  const searchWord = (
    await db.query(`select split_part(title, ' ', 1) as w from carriers.city where id = 42`)
  ).rows[0].w;
  const deep = await cursorAt(
    db,
    'created_at desc',
    'select created_at::text as k, id from carriers.city order by created_at desc, id desc',
    mid,
  );
  const title = await cursorAt(
    db,
    'title asc',
    'select title as k, id from carriers.city order by title collate carriers.caravan_sort, id',
    mid,
  );
  const computedDeep = await cursorAt(
    db,
    'country_title asc',
    'select country_title as k, id from carriers.city order by country_title collate carriers.caravan_sort, id',
    mid,
  );
  const first = await call({});
  log(
    `${rows} rows: the first page counts ${first.result.total_exact ? first.result.total : `more than ${first.result.total - 1} (≈ ${first.result.total_estimate})`}`,
  );
  return {
    first: await measure({}),
    deep: await measure({ cursor: deep }),
    title: await measure({ order_by: 'title asc', cursor: title }),
    search: await measure({ search: searchWord }),
    filter: await measure({ country_id: 7 }),
    computed: await measure({ order_by: 'country_title asc' }),
    computedDeep: await measure({ order_by: 'country_title asc', cursor: computedDeep }),
  };
}

try {
  await until(async () => (await fetch(`${base}/readyz`)).ok);
  const db = new Client({ connectionString: DATABASE_URL });
  await db.connect();
  await db.query(
    `insert into carriers.country (title) select 'Страна ' || lpad(g::text, 3, '0') from generate_series(1, ${COUNTRIES}) g`,
  );
  const results = {};
  let seeded = 0;
  for (const size of SIZES) {
    await seed(db, seeded + 1, size);
    seeded = size;
    results[size] = await measureAll(db, size);
  }
  await db.end();

  const fmt = (r) => `${r.p50.toFixed(1).padStart(5)} / ${r.p95.toFixed(1).padStart(5)}`;
  console.log(`\ncity_list at the service, ${SAMPLES} sequential calls per case; p50 / p95 in ms\n`);
  console.log(`${'case'.padEnd(40)} ${'10k rows'.padStart(13)}  ${'1M rows'.padStart(13)}   goal at 1M`);
  const big = results[SIZES[1]];
  for (const [key, g] of Object.entries(GOALS)) {
    const ok = g.ok(big[key], big);
    console.log(
      `${g.label.padEnd(40)} ${fmt(results[SIZES[0]][key]).padStart(13)}  ${fmt(big[key]).padStart(13)}   ${g.goal} ${verdict(ok)}`,
    );
  }
  console.log(`deep / first page at 1M (p50): ${(big.deep.p50 / big.first.p50).toFixed(2)}×`);
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
