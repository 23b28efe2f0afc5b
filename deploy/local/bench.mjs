// `npm run bench`: every figure of issue 8 beside its goal, on its own databases and ports.
//   1. gateway vs direct: the same call (country_get_by_id) through the gateway and straight to
//      svc-carriers with a signed identity, 10 connections, wrk; p50, p99, req/s and the ratios
//   2. SSE: a wallet change until its message reaches a connected browser (outbox → Kafka → gateway)
//   3. lists at 10k and 1M rows at the service (bench/lists.mjs)
//   4. front-end weight: initial JS of the login page, each remoteEntry (bench/web.mjs)
//   5. the orders lists at 1M orders and 5M positions, and the order card (bench/orders.mjs, issue 9)
//   6. positions in bulk: import of a 10,000-row invoice, stage change of 1,000 (bench/bulk.mjs, issue 10)
//   7. the invoice of an order with 200 positions as PDF (cold and warm browser) and XLSX (bench/invoice.mjs, issue 11)
//   8. wallet operations per second on one contended wallet and on 20, and debits racing for too little
//      money (bench/wallet.mjs, issue 11)
//   9. carriers: one polling round of 10,000 shipments within the sandboxes' rate limits and 256 MB, CDEK's
//      webhook → order stage → the client's browser, and 1,000 webhooks a second without loss
//      (bench/carriers.mjs, issue 18)
//  10. streams: 10,000 open browser streams on one gateway, an order change to every recipient's stream, memory per
//      stream, 1,000 notifications a second made and delivered (bench/sse.mjs, issue 19)
//  11. capacity: what one user action costs (CPU per process, rows, bytes, events), the inputs of
//      docs/capacity.md (bench/capacity.mjs)
//  12. CI: a fresh clone of HEAD through `bash .ci/run`, beside its 8 minutes (bench/ci.mjs, issue 21)
//  13. `npm start` until the login page is served, first (fresh-clone-like) and second start (bench/start.mjs,
//      issue 21); last, as it removes the build outputs and leaves them rebuilt
// BENCH_ONLY=gateway,sse,lists,web,orders,bulk,invoice,wallet,carriers,streams,capacity,ci,start runs a part of it;
// BENCH_PORT_OFFSET moves the ports of the gateway/sse, carriers, streams, capacity, web and start parts (default +20000, web
// +22000, start +24000).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import * as infra from './infra.mjs';
import { startSystemProcess } from './system.mjs';
import { exitByGoals, missGoal, percentile, verdict } from './bench/service.mjs';

const root = infra.root;
const require = createRequire(import.meta.url);
const offset = Number(process.env.BENCH_PORT_OFFSET ?? 20000);
const base = `http://127.0.0.1:${8080 + offset}`;
const carriersUrl = `http://127.0.0.1:${4003 + offset}`;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const only = (
  process.env.BENCH_ONLY ??
  'gateway,sse,lists,web,orders,bulk,invoice,wallet,carriers,streams,capacity,ci,start'
).split(',');

function ensureWrk() {
  if (spawnSync('wrk', ['--version']).error === undefined) return;
  console.log('[bench] installing wrk (Debian package)');
  execFileSync('apt-get', ['install', '-y', '-qq', 'wrk'], { stdio: 'inherit' });
}

/** wrk with 10 connections on one POST; returns p50 / p99 in ms and req/s. */
function wrk(url, headers, body, seconds = DURATION_S) {
  const dir = mkdtempSync(path.join(tmpdir(), 'caravan-wrk-'));
  const script = path.join(dir, 'post.lua');
  writeFileSync(
    script,
    [
      'wrk.method = "POST"',
      `wrk.body = ${JSON.stringify(body)}`,
      ...Object.entries(headers).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`),
      // any reply but a 200 counts as an error: a bench of refusals measures nothing
      'response = function(status) if status ~= 200 then wrk.thread:stop() end end',
    ].join('\n'),
  );
  const out = execFileSync('wrk', ['-t1', '-c10', `-d${seconds}s`, '--latency', '-s', script, url], {
    encoding: 'utf8',
  });
  const ms = (label) => {
    const m = new RegExp(`^\\s+${label}%\\s+([\\d.]+)(us|ms|s)`, 'm').exec(out);
    if (!m) throw new Error(`wrk output without ${label}%:\n${out}`);
    return Number(m[1]) * { us: 0.001, ms: 1, s: 1000 }[m[2]];
  };
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  if (/Non-2xx/.test(out)) throw new Error(`wrk got refusals:\n${out}`);
  return { p50: ms('50'), p99: ms('99'), rps };
}

async function benchSystem() {
  const system = await startSystemProcess({
    offset,
    database: 'caravan_bench',
    prefix: 'bench',
    web: false,
    readyPath: '/api/readyz',
  });
  try {
    const login = await (
      await fetch(`${base}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'admin@caravan.local', password: 'caravan-admin' }),
      })
    ).json();
    const token = login.result.token;
    if (only.includes('gateway')) await gatewayVersusDirect(token);
    if (only.includes('sse')) await sseLatency(token);
  } finally {
    await system.stop();
  }
}

async function gatewayVersusDirect(token) {
  ensureWrk();
  const kit = require(path.join(root, 'libs/service-kit/dist/index.js'));
  const { IDENTITY_HEADER } = require(path.join(root, 'libs/contracts/dist/index.js'));
  const body = JSON.stringify({ method: 'country_get_by_id', params: { id: 1 } });
  const me = await (await fetch(`${base}/api/user_current`, { headers: { 'auth-token': token } })).json();
  // the identity the gateway would sign for the admin: the service does the same work either way
  const identity = {
    user_id: me.result.id,
    fullname: me.result.fullname,
    roles: me.result.role,
    state: 'working',
    client_ids: [],
    operator_ids: [],
  };
  const direct = () =>
    wrk(
      `${carriersUrl}/rpc`,
      {
        'content-type': 'application/json',
        [IDENTITY_HEADER]: kit.signIdentity(identity, kit.DEV_IDENTITY_SECRET, 3600),
      },
      body,
    );
  const gateway = () =>
    wrk(`${base}/api/call_pg_func`, { 'content-type': 'application/json', 'auth-token': token }, body);
  wrk(`${base}/api/call_pg_func`, { 'content-type': 'application/json', 'auth-token': token }, body, 3); // warm-up
  // alternate the two, twice, and keep each side's better run: the machine's noise hits both alike
  const runs = { direct: [], gateway: [] };
  for (let i = 0; i < 2; i++) {
    runs.direct.push(direct());
    runs.gateway.push(gateway());
  }
  const best = (rs) => rs.reduce((a, b) => (b.rps > a.rps ? b : a));
  const d = best(runs.direct);
  const g = best(runs.gateway);
  const row = (name, r) =>
    console.log(
      `${name.padEnd(34)} p50 ${r.p50.toFixed(2).padStart(7)} ms   p99 ${r.p99.toFixed(2).padStart(7)} ms   ${r.rps.toFixed(0).padStart(6)} req/s`,
    );
  console.log(`\ncountry_get_by_id, 10 connections, ${DURATION_S} s per run (wrk), best of 2 each\n`);
  row('straight to svc-carriers', d);
  row('through the gateway', g);
  console.log('');
  console.log(
    `gateway − direct p50   ${(g.p50 - d.p50).toFixed(2).padStart(7)} ms   goal ≤ +1 ms    ${verdict(g.p50 - d.p50 <= 1)}`,
  );
  console.log(
    `gateway − direct p99   ${(g.p99 - d.p99).toFixed(2).padStart(7)} ms   goal ≤ +3 ms    ${verdict(g.p99 - d.p99 <= 3)}`,
  );
  console.log(
    `gateway / direct req/s ${(g.rps / d.rps).toFixed(2).padStart(7)} ×    goal ≥ 0.70×    ${verdict(g.rps / d.rps >= 0.7)}`,
  );
}

async function sseLatency(token) {
  const call = async (method, params) => {
    const res = await fetch(`${base}/api/call_pg_func`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'auth-token': token },
      body: JSON.stringify({ method, params }),
    });
    const body = await res.json();
    if (!body.ok) throw new Error(`${method}: ${body.message}`);
    return body;
  };
  const wallet = (await call('wallet_list', { per_page: 1 })).result.items[0];
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
  const s = samples.sort((a, b) => a - b);
  console.log(
    `\nwallet_update → SSE message in the browser   p50 ${percentile(s, 50).toFixed(1)} ms   p95 ${percentile(s, 95).toFixed(1)} ms   goal p95 ≤ 500 ms   ${verdict(percentile(s, 95) <= 500)}`,
  );
}

function runPart(script) {
  const file = path.join(root, 'deploy/local/bench', script);
  if (!existsSync(file)) {
    console.log(`[bench] ${script} missing`);
    missGoal();
    return;
  }
  const r = spawnSync(process.execPath, [file], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) missGoal();
}

if (only.includes('gateway') || only.includes('sse')) await benchSystem();
if (only.includes('lists')) runPart('lists.mjs');
if (only.includes('web')) runPart('web.mjs');
if (only.includes('orders')) runPart('orders.mjs');
if (only.includes('bulk')) runPart('bulk.mjs');
if (only.includes('invoice')) runPart('invoice.mjs');
if (only.includes('wallet')) runPart('wallet.mjs');
if (only.includes('carriers')) runPart('carriers.mjs');
if (only.includes('streams')) runPart('sse.mjs');
if (only.includes('capacity')) runPart('capacity.mjs');
if (only.includes('ci')) runPart('ci.mjs');
if (only.includes('start')) runPart('start.mjs');
exitByGoals();
