// `npm run bench`: latency figures through the real gateway, on its own database and ports (+20000).
//   - list of one directory (cities, with their country's title) with 10,000 rows: first page, a
//     search, a filter, a sort by the country's title, a deep page; 4 concurrent callers
//   - a wallet change until its SSE message reaches a connected browser (outbox → Kafka → gateway)
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { createRequire } from 'node:module';
import * as infra from './infra.mjs';

const root = infra.root;
const require = createRequire(import.meta.url);
const offset = 20000;
const base = `http://127.0.0.1:${8080 + offset}`;
const ROWS = Number(process.env.BENCH_ROWS ?? 10000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);

const kafkaWasRunning =
  Boolean(process.env.KAFKA_BROKERS) ||
  spawnSync(path.join(root, 'deploy/local/kafka/kafka.sh'), ['status']).status === 0;
const system = spawn(process.execPath, [path.join(root, 'deploy/local/start.mjs')], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    CARAVAN_PORT_OFFSET: String(offset),
    CARAVAN_DATABASE: 'caravan_bench',
    CARAVAN_FRESH_DB: '1',
    CARAVAN_NO_WEB: '1',
    KAFKA_TOPIC_PREFIX: `bench-${Date.now()}-`,
    ...(kafkaWasRunning ? { CARAVAN_KEEP_KAFKA: '1' } : {}),
    LOG_LEVEL: 'error',
  },
});

async function until(check, ms = 300_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error('timed out');
}
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const summary = (name, samples) => {
  const s = [...samples].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  console.log(
    `${name.padEnd(44)} n=${String(s.length).padStart(4)}  p50 ${percentile(s, 50).toFixed(1).padStart(6)} ms  p95 ${percentile(s, 95).toFixed(1).padStart(6)} ms  mean ${mean.toFixed(1).padStart(6)} ms`,
  );
};

try {
  await until(async () => (await fetch(`${base}/api/healthz`)).ok);
  const login = await (
    await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'admin@caravan.local', password: 'caravan-admin' }),
    })
  ).json();
  const token = login.result.token;
  const call = async (method, params) => {
    const t = performance.now();
    const res = await fetch(`${base}/api/call_pg_func`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'auth-token': token },
      body: JSON.stringify({ method, params }),
    });
    const body = await res.json();
    if (!body.ok) throw new Error(`${method}: ${body.message}`);
    return { ms: performance.now() - t, body };
  };

  const { Client } = require('pg');
  const db = new Client({ connectionString: await infra.ensurePostgres('caravan_bench') });
  await db.connect();
  await db.query(
    `insert into carriers.city (title, title_en, title_ru, country_id)
    select 'Город ' || g, 'City ' || g, 'Город ' || g, 1 + g % 3 from generate_series(1, $1) g`,
    [ROWS],
  );
  await db.query('analyze carriers.city');
  await db.end();

  const measure = async (name, params) => {
    for (let i = 0; i < 20; i++) await call('city_list', params); // warm-up
    const samples = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next++ < REQUESTS) samples.push((await call('city_list', params)).ms);
      }),
    );
    summary(name, samples);
  };
  console.log(`\ncity: ${ROWS} rows; ${REQUESTS} requests per case, 4 concurrent, through the gateway\n`);
  await measure('city_list page 1 (10 rows, newest first)', {});
  await measure("city_list search 'City 99'", { search: 'City 99' });
  await measure('city_list filter country_id = 2', { country_id: 2 });
  await measure('city_list sorted by country title', { order_by: 'country_title asc' });
  await measure('city_list page 900', { page: 900 });

  // Wallet change → SSE message in a connected client.
  const wallet = (await call('wallet_list', { per_page: 1 })).body.result.items[0];
  const controller = new AbortController();
  const res = await fetch(`${base}/api/sse?authToken=${token}&type=wallet_item&param=${wallet.id}`, {
    signal: controller.signal,
  });
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const samples = [];
  for (let i = 0; i < 30; i++) {
    const t = performance.now();
    await call('wallet_update', { id: wallet.id, title: `bench ${i}` });
    let text = '';
    while (!text.includes(`bench ${i}"`))
      text += decoder.decode((await reader.read()).value, { stream: true });
    samples.push(performance.now() - t);
  }
  controller.abort();
  console.log('');
  summary('wallet_update → SSE message in the browser', samples);
} finally {
  system.kill('SIGTERM');
  await new Promise((r) => system.once('exit', r));
}
