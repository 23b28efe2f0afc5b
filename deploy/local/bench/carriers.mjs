// `node deploy/local/bench/carriers.mjs`: carriers and tracking (issue 18, docs/adr/0020), on its own databases
// (BENCH_CARRIERS_DATABASE_poll and _system, recreated; default caravan_bench_carriers) and ports
// (BENCH_PORT_OFFSET, default +20000).
//   1. one polling round of 10,000 active shipments (BENCH_CARRIERS_SHIPMENTS): CDEK 40 %, PEC 30 %, JDE 15 %,
//      Ozon 15 %, each known to its vendor's sandbox (the adapters' own sandbox code, run in this process behind
//      a counting front, so svc-carriers talks to them over HTTP like to the vendors and its memory is its own),
//      their rows inserted into svc-carriers' `shipment` table in one transaction, all due at once; the real
//      scheduler of the real svc-carriers process runs the round. Printed: the round's duration, each
//      vendor's peak requests in any one second against its budget (the sandbox answers 429 above it too),
//      that every shipment was asked exactly once, and svc-carriers' peak RSS (VmHWM). The documented budgets
//      (CDEK 5 rps…) would make a 10,000-shipment round take many minutes: the bench sets the budgets with
//      BENCH_CARRIERS_RPS (default cdek=20,pec=5,jde=10,ozon=10: low enough that the budgets, not the machine, set
//      the pace; the service reads them as CDEK_RPS…, the sandboxes enforce the same) and prints them.
//   2. the whole system (as `npm start` runs it): BENCH_CARRIERS_ORDERS (30) orders of the demo client sent to
//      Russia through the API with a CDEK waybill, the client's browser stream (/api/sse?type=*) open; CDEK's
//      ORDER_STATUS webhook posted to the gateway until the order's new stage arrives on the stream, twice per
//      order ('отправлен по адресу', then 'вручён получателю'); p50 and p95, with where the time goes.
//   3. webhooks at BENCH_CARRIERS_WEBHOOK_RATE (1,000) a second for BENCH_CARRIERS_WEBHOOK_SECONDS (6) at the
//      gateway over 512 kept-alive connections, open loop (each fired at its moment, whatever the answers
//      before it), distinct statuses over BENCH_CARRIERS_WEBHOOK_SHIPMENTS (rate × seconds) shipments inserted
//      into svc-carriers' table (orders svc-orders does not have, so it only records their events in its
//      inbox); a shipment's next status waits for the answer to its previous one (in time order, so each must
//      make an event); then every accepted one must be exactly one shipment_status row and one status event,
//      and reach svc-orders' inbox. The CPU seconds each process spent meanwhile say where the time goes.
//      Answers not there after BENCH_CARRIERS_WEBHOOK_WAIT_SECONDS (600) are given up and counted apart.
// Goals: no second above a vendor's budget, no 429, every shipment asked once, RSS ≤ 256 MB; webhook → browser
// p95 ≤ 1 s; ≥ 1,000 webhooks a second accepted, none lost or doubled. Exits 1 when one misses.
// BENCH_CARRIERS_PARTS=poll,webhook,flood picks parts.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { buildIfStale } from '../build.mjs';
import * as infra from '../infra.mjs';
import { startSystemProcess } from '../system.mjs';
import {
  cpuDuring,
  cpuSeconds,
  exitByGoals,
  missGoal,
  peakRssMb,
  startBenchService,
  summary,
  systemProcesses,
  thousands,
  verdict,
} from './service.mjs';

const root = infra.root;
const require = createRequire(import.meta.url);
const offset = Number(process.env.BENCH_PORT_OFFSET ?? 20000);
const DATABASE = process.env.BENCH_CARRIERS_DATABASE ?? 'caravan_bench_carriers';
const SHIPMENTS = Number(process.env.BENCH_CARRIERS_SHIPMENTS ?? 10_000);
const ORDERS = Number(process.env.BENCH_CARRIERS_ORDERS ?? 30);
const FLOOD_RATE = Number(process.env.BENCH_CARRIERS_WEBHOOK_RATE ?? 1000);
const FLOOD_SECONDS = Number(process.env.BENCH_CARRIERS_WEBHOOK_SECONDS ?? 6);
// how long the bench waits for the flood's last answers before it gives up on them
const ANSWER_WAIT_S = Number(process.env.BENCH_CARRIERS_WEBHOOK_WAIT_SECONDS ?? 600);
// enough shipments that none is still waiting for its answer when its next status is due: the load stays offered
const FLOOD_SHIPMENTS = Number(process.env.BENCH_CARRIERS_WEBHOOK_SHIPMENTS ?? FLOOD_RATE * FLOOD_SECONDS);
const PARTS = (process.env.BENCH_CARRIERS_PARTS ?? 'poll,webhook,flood').split(',');
const VENDORS = ['cdek', 'pec', 'jde', 'ozon'];
const MIX = { cdek: 0.4, pec: 0.3, jde: 0.15, ozon: 0.15 };
const BUDGET = Object.fromEntries(
  (process.env.BENCH_CARRIERS_RPS ?? 'cdek=20,pec=5,jde=10,ozon=10').split(',').map((pair) => {
    const [vendor, rps] = pair.split('=');
    return [vendor.trim(), Number(rps)];
  }),
);
const GOALS = { rssMb: 256, browserP95Ms: 1000, samples: 30, webhooksPerSecond: 1000 };
const log = (...a) => console.log('[bench carriers]', ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const fmt = thousands;

buildIfStale({ web: false });
const { Client } = require('pg');
const dist = (file) => require(path.join(root, 'svc-carriers/dist/src', file));
const contracts = require(path.join(root, 'libs/contracts/dist/index.js'));
const { startCdekSandbox, CDEK_SANDBOX_ACCOUNT, CdekClient } = dist('adapters/cdek/index.js');
const { startPecSandbox, PEC_SANDBOX_ACCOUNT, PecClient } = dist('adapters/pec/index.js');
const { startJdeSandbox, JDE_SANDBOX_ACCOUNT, JdeClient } = dist('adapters/jde/index.js');
const { startOzonSandbox, OZON_SANDBOX_ACCOUNT, OzonClient } = dist('adapters/ozon/index.js');
const { cdekDateTime } = dist('adapters/cdek/mapping.js');
const { seal } = dist('domain/secretBox.js');
const { DEV_WEBHOOK_SECRET } = dist('procedures/webhook.js');
const ACCOUNTS = {
  cdek: CDEK_SANDBOX_ACCOUNT,
  pec: PEC_SANDBOX_ACCOUNT,
  jde: JDE_SANDBOX_ACCOUNT,
  ozon: OZON_SANDBOX_ACCOUNT,
};
/** The budgets the adapters keep to when nothing is configured (the vendors' documented or guessed ones). */
const DOCUMENTED = {
  cdek: new CdekClient({ baseUrl: 'http://x' }).rateLimit.requestsPerSecond,
  pec: new PecClient({ baseUrl: 'http://x' }).rateLimit.requestsPerSecond,
  jde: new JdeClient({ baseUrl: 'http://x' }).rateLimit.requestsPerSecond,
  ozon: new OzonClient({ baseUrl: 'http://x' }).rateLimit.requestsPerSecond,
};
const BATCH = { cdek: 1, pec: contracts.PEC_CODES_PER_CALL, jde: 1, ozon: 1 };

/** Runs `work` over `items`, `concurrency` at a time. */
async function pool(items, concurrency, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i], i);
      }
    }),
  );
}

async function postJson(url, body) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : null;
}

// ------------------------------------------------------------------------------------------------ part 1

/** The shipment key a vendor call asks about: CDEK's number in the query, PEC's codes, JDE's ttn, Ozon's posting. */
function askedKeys(vendor, url, body) {
  const u = new URL(url, 'http://front');
  if (vendor === 'cdek') {
    if (u.pathname.endsWith('/oauth/token')) return null;
    const byNumber = u.searchParams.get('cdek_number');
    return [byNumber ?? decodeURIComponent(u.pathname.split('/').pop())];
  }
  if (vendor === 'jde') return [u.searchParams.get('ttn')];
  const parsed = JSON.parse(body.toString('utf8') || '{}');
  return vendor === 'pec' ? parsed.cargoCodes : [parsed.posting_number];
}

/**
 * A counting front before a sandbox: forwards every request as it is and notes when it came, what it asked
 * about and how the sandbox answered (OAuth token calls are noted apart: they are not status calls).
 */
async function countingFront(vendor, target) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const calls = [];
  let tokenCalls = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const keys = askedKeys(vendor, req.url, body);
      const call = keys ? { at: Date.now(), keys, status: 0 } : null;
      if (call) calls.push(call);
      else tokenCalls++;
      const upstream = http.request(
        `${target}${req.url}`,
        { method: req.method, headers: req.headers, agent },
        (answer) => {
          if (call) call.status = answer.statusCode;
          res.writeHead(answer.statusCode, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', (err) => {
        if (call) call.status = 502;
        res.writeHead(502).end(String(err));
      });
      upstream.end(body);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    calls,
    tokenCalls: () => tokenCalls,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}

async function startSandboxes() {
  const started = {
    cdek: await startCdekSandbox({
      port: 0,
      accounts: [{ client_id: ACCOUNTS.cdek.client_id, client_secret: ACCOUNTS.cdek.access_token }],
      requestsPerSecond: BUDGET.cdek,
    }),
    pec: await startPecSandbox({ port: 0, rps: BUDGET.pec }),
    jde: await startJdeSandbox({ port: 0, rps: BUDGET.jde }),
    ozon: await startOzonSandbox({ port: 0, rps: BUDGET.ozon }),
  };
  const fronts = {};
  for (const vendor of VENDORS) fronts[vendor] = await countingFront(vendor, started[vendor].url);
  return { sandboxes: started, fronts };
}

/** The shipments of the round: vendor, number (and CDEK's uuid), each created in its vendor's sandbox. */
async function seedSandboxes(sandboxes) {
  const shipments = [];
  for (const vendor of VENDORS) {
    const count = vendor === 'ozon' ? SHIPMENTS - shipments.length : Math.round(SHIPMENTS * MIX[vendor]);
    for (let i = 0; i < count; i++) {
      const number = {
        cdek: () => String(1_000_000_000 + i),
        pec: () => String(100_000_000_000 + i),
        jde: () => String(1_000_000_000_000_000 + i),
        ozon: () => `${String(60_000_000 + i).padStart(10, '0')}-0001-1`,
      }[vendor]();
      shipments.push({ vendor, number, uuid: null });
    }
  }
  await pool(shipments, 32, async (s) => {
    const url = `${sandboxes[s.vendor].url}/sandbox/shipments`;
    const created = await postJson(
      url,
      s.vendor === 'cdek' ? { cdek_number: s.number } : { number: s.number },
    );
    if (s.vendor === 'cdek') s.uuid = created.uuid;
  });
  return shipments;
}

/** Operators with every vendor's sandbox account (tokens sealed as svc-carriers stores them), then the shipments, in one transaction. */
async function seedShipments(db, shipments) {
  await db.query('begin');
  const operators = [];
  for (let i = 1; i <= 4; i++) {
    const data = VENDORS.map((type) => ({
      type,
      api_data: { client_id: ACCOUNTS[type].client_id, access_token: seal(ACCOUNTS[type].access_token) },
      recipient_cost_commission: '0.00',
    }));
    const { rows } = await db.query(
      'insert into operator (title, transport_company_data) values ($1, $2) returning id',
      [`bench operator ${i}`, JSON.stringify(data)],
    );
    operators.push(rows[0].id);
  }
  await db.query(
    `insert into shipment (client_order_id, operator_id, client_id, carrier, number, uuid, next_check_at)
     select o, op, 1, c, n, u, now() from unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[])
       as t(o, op, c, n, u)`,
    [
      shipments.map((_, i) => i + 1),
      shipments.map((_, i) => operators[i % operators.length]),
      shipments.map((s) => s.vendor),
      shipments.map((s) => s.number),
      shipments.map((s) => s.uuid),
    ],
  );
  await db.query('commit');
}

/** The most calls in any one second (a window sliding over the calls' times). */
function peakPerSecond(times) {
  const t = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < t.length; i++) {
    while (t[i] - t[j] >= 1000) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

function rssMb(pid) {
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

async function pollingRound() {
  const { sandboxes, fronts } = await startSandboxes();
  let svc = null;
  let db = null;
  try {
    svc = await startBenchService({
      service: 'svc-carriers',
      database: `${DATABASE}_poll`,
      port: 4003 + offset,
      env: {
        CARRIERS_SYNC_EVERY_SECONDS: '2',
        CDEK_URL: `${fronts.cdek.url}/v2`,
        PEC_URL: `${fronts.pec.url}/api/v1`,
        JDE_URL: `${fronts.jde.url}/vD`,
        OZON_URL: fronts.ozon.url,
        ...Object.fromEntries(VENDORS.map((v) => [`${v.toUpperCase()}_RPS`, String(BUDGET[v])])),
      },
    });
    log(`creating ${fmt(SHIPMENTS)} shipments in the sandboxes`);
    const shipments = await seedSandboxes(sandboxes);
    db = new Client({ connectionString: svc.databaseUrl });
    await db.connect();
    await db.query('set search_path to carriers');
    const rssBefore = rssMb(svc.pid);
    const cpuBefore = cpuSeconds(svc.pid);
    await seedShipments(db, shipments);
    const seededAt = Date.now();
    log(`${fmt(SHIPMENTS)} shipments due; waiting for the round`);

    const perVendor = Object.fromEntries(
      VENDORS.map((v) => [v, shipments.filter((s) => s.vendor === v).length]),
    );
    const leastSeconds = Math.max(...VENDORS.map((v) => Math.ceil(perVendor[v] / BATCH[v]) / BUDGET[v]));
    const deadline = Date.now() + Math.max(180_000, leastSeconds * 3000);
    let rssPeak = rssBefore;
    let state;
    for (;;) {
      rssPeak = Math.max(rssPeak, rssMb(svc.pid));
      const { rows } = await db.query(
        `select count(*) filter (where last_confirmed_at is not null)::int as answered,
                count(*) filter (where last_error is not null)::int as errors,
                count(*) filter (where lease_owner is not null)::int as leased,
                extract(epoch from max(updated_at)) * 1000 as last_settled
         from shipment`,
      );
      state = rows[0];
      if ((state.answered + state.errors >= SHIPMENTS && !state.leased) || Date.now() > deadline) break;
      await sleep(500);
    }
    // a second round (or a re-poll) would show here: the check interval is 15 min
    await sleep(2500);
    const hwm = peakRssMb(svc.pid);
    const metrics = await (await fetch(`${svc.base}/metrics`)).text();
    const metric = (name) =>
      Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([\\d.e+]+)$`, 'm').exec(metrics)?.[1] ?? NaN) / 2 ** 20;
    const cpuRound = cpuSeconds(svc.pid) - cpuBefore;
    const events = (
      await db.query(`select count(*)::int as n from outbox where event->>'type' = $1`, [
        contracts.CARRIER_EVENTS.statusChanged,
      ])
    ).rows[0].n;

    const allCalls = VENDORS.flatMap((v) => fronts[v].calls);
    const firstCall = Math.min(...allCalls.map((c) => c.at));
    const roundMs = Number(state.last_settled) - firstCall;
    console.log(
      `\n1. one polling round of ${fmt(SHIPMENTS)} active shipments: svc-carriers' scheduler against the vendors' sandboxes\n` +
        `   budgets used (BENCH_CARRIERS_RPS; the adapters' own are CDEK ${DOCUMENTED.cdek}, PEC ${DOCUMENTED.pec} × ${BATCH.pec} codes, JDE ${DOCUMENTED.jde}, Ozon ${DOCUMENTED.ozon} rps)\n`,
    );
    console.log('   vendor  shipments  calls  budget  peak in 1 s  mean/s  429  asked once / again / never');
    let allOnce = true;
    for (const vendor of VENDORS) {
      const calls = fronts[vendor].calls;
      const asked = new Map();
      for (const call of calls) for (const key of call.keys) asked.set(key, (asked.get(key) ?? 0) + 1);
      const mine = shipments.filter((s) => s.vendor === vendor);
      const once = mine.filter((s) => asked.get(s.number) === 1).length;
      const again = mine.filter((s) => (asked.get(s.number) ?? 0) > 1).length;
      const never = mine.filter((s) => !asked.has(s.number)).length;
      const tooMany = calls.filter((c) => c.status === 429).length;
      const peak = peakPerSecond(calls.map((c) => c.at));
      const times = calls.map((c) => c.at);
      const span = (Math.max(...times) - Math.min(...times)) / 1000;
      const ok = peak <= BUDGET[vendor] && tooMany === 0 && once === mine.length;
      if (once !== mine.length) allOnce = false;
      console.log(
        `   ${vendor.padEnd(6)}  ${fmt(mine.length).padStart(9)}  ${fmt(calls.length).padStart(5)}  ${String(BUDGET[vendor]).padStart(6)}  ${String(peak).padStart(11)}  ${(calls.length / Math.max(span, 0.001)).toFixed(1).padStart(6)}  ${String(tooMany).padStart(3)}  ${fmt(once)} / ${fmt(again)} / ${fmt(never)}   ${verdict(ok)}`,
      );
    }
    const documentedSeconds = Math.max(
      ...VENDORS.map((v) => Math.ceil(perVendor[v] / BATCH[v]) / DOCUMENTED[v]),
    );
    console.log(
      `\n   round: ${(roundMs / 1000).toFixed(1)} s from the first vendor call to the last shipment settled (${((firstCall - seededAt) / 1000).toFixed(1)} s after the rows were due: the scheduler's tick);` +
        ` the budgets allow it no less than ${leastSeconds.toFixed(1)} s (${((leastSeconds * 1000 * 100) / roundMs).toFixed(0)} % of the budget used)`,
    );
    console.log(
      `   answered ${fmt(state.answered)}, errors ${fmt(state.errors)}, still leased ${state.leased}; ${fmt(events)} status events written; ${fronts.cdek.tokenCalls()} CDEK token call(s); svc-carriers spent ${cpuRound.toFixed(1)} s of CPU (${((cpuRound * 1000) / SHIPMENTS).toFixed(1)} ms a shipment)`,
    );
    console.log(
      `   at the adapters' own budgets this mix would take ${fmt(documentedSeconds)} s a round; with the 15-min check interval CDEK at ${DOCUMENTED.cdek} rps follows at most ${fmt(DOCUMENTED.cdek * 900)} shipments`,
    );
    console.log(
      `   every shipment asked exactly once                                   ${verdict(allOnce && state.answered === SHIPMENTS)}`,
    );
    console.log(
      `   svc-carriers peak RSS (VmHWM) ${hwm.toFixed(0)} MB (${rssBefore.toFixed(0)} MB before the round, sampled peak ${rssPeak.toFixed(0)} MB)   goal ≤ ${GOALS.rssMb} MB   ${verdict(hwm <= GOALS.rssMb)}\n` +
        `   after the round: heap ${metric('nodejs_heap_size_used_bytes').toFixed(0)} MB used of ${metric('nodejs_heap_size_total_bytes').toFixed(0)} MB, external ${metric('nodejs_external_memory_bytes').toFixed(0)} MB, RSS ${rssMb(svc.pid).toFixed(0)} MB`,
    );
  } finally {
    await db?.end().catch(() => {});
    await svc?.stop();
    for (const vendor of VENDORS) {
      await fronts[vendor].stop();
      await sandboxes[vendor].stop();
    }
  }
}

// ------------------------------------------------------------------------------------------------ parts 2, 3

const base = `http://127.0.0.1:${8080 + offset}`;
const webhookUrl = () =>
  `${base}/api/carriers/webhook/cdek?token=${encodeURIComponent(process.env.CARRIERS_WEBHOOK_SECRET || DEV_WEBHOOK_SECRET)}`;

async function login(email, password) {
  const body = await postJson(`${base}/api/login`, { login: email, password });
  return body.result.token;
}

async function call(token, method, params) {
  const res = await fetch(`${base}/api/call_pg_func`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'auth-token': token },
    body: JSON.stringify({ method, params }),
  });
  const body = await res.json();
  if (!body.ok) throw new Error(`${method} ${JSON.stringify(params).slice(0, 160)}: ${body.message}`);
  return body.result;
}

async function until(what, check, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not after ${ms / 1000} s`);
    await sleep(200);
  }
}

/** An order of the demo client at 'отправлен в РФ' with a CDEK waybill, made through the API as e2e's sentToRussia does. */
async function cdekOrder(client, admin, model, index) {
  const order = await call(client, 'client_order_update', {
    id: -1,
    client_id: model.order.client_id,
    operator_id: model.order.operator_id,
    logistic_route_id: model.order.logistic_route_id,
    buyout_type: 'operator',
    delivery_type: 'to_door',
  });
  for (const [title, amount] of [
    ['Кружка', '10'],
    ['Ложка', '5'],
  ])
    await call(client, 'client_order_position_update', {
      id: -1,
      client_order_id: order.id,
      title,
      link: model.item.link || 'https://item.taobao.com/1',
      product_images: model.item.product_images?.length
        ? model.item.product_images
        : [{ file: '/api/files/0b6c1b2e.jpg', deleted: false }],
      type_id: model.item.type_id,
      price_cny: '20000',
      amount,
    });
  await call(client, 'client_order_created', { id: order.id });
  await until(
    'the order priced',
    async () => Number((await call(client, 'client_order_get_by_id', { id: order.id })).buyout_price_rur) > 0,
  );
  const positions = (await call(admin, 'client_order_position_list', { client_order_id: order.id })).items;
  for (const position of positions)
    await call(admin, 'client_order_position_action', { id: position.id, action: 'checked' });
  await call(admin, 'client_order_buyout_waiting', { id: order.id });
  await until('payment open', () =>
    call(admin, 'client_order_payment_receive', { id: order.id, prepare: true }).then(
      () => true,
      () => false,
    ),
  );
  await call(admin, 'client_order_payment_receive', { id: order.id, kind: 'product', type: 'manual' });
  const today = new Date().toISOString().slice(0, 10);
  for (const [i, position] of positions.entries()) {
    await call(admin, 'client_order_position_action', { id: position.id, action: 'buyout_done' });
    await call(admin, 'client_order_position_update', { id: position.id, waybill: `SF77000${order.id}${i}` });
    await call(admin, 'client_order_position_action', {
      id: position.id,
      action: 'warehouse_waiting',
      receive_date: today,
    });
    await call(admin, 'client_order_position_action', {
      id: position.id,
      action: 'warehouse_received',
      receive_record: { date: today, amount: 1, transporter: 'SF Express', cost: null, comment: '' },
    });
  }
  // the order's version moves behind our back (its waybills registered, its price recomputed): read it again
  await until('sent to Russia', async () => {
    const received = await call(admin, 'client_order_get_by_id', { id: order.id });
    return call(admin, 'client_order_update', {
      id: order.id,
      stage: 'sent_to_ru',
      version: received.version,
      send_date: today,
      shipment_article: `BENCH-${order.id}`,
      volume: '0.5',
      weight: '120',
      amount: 2,
      to_ru_delivery_price: '300',
    }).then(
      () => true,
      (err) => {
        if (!/изменён другим/.test(err.message)) throw err;
        return false;
      },
    );
  });
  const number = String(7_000_000_000 + index);
  await call(admin, 'client_order_update', {
    id: order.id,
    transport_company_rus: 'cdek',
    transport_company_rus_order_number: number,
    delivery_data: {
      title: 'Офис Ромашки',
      address: 'Москва, ул. Складочная, 1',
      delivery_point_code: '',
      contact_name: 'Иван Петров',
      contact_phone: '+79161234567',
      city: 'Москва',
      transport_company: 'cdek',
    },
  });
  return { id: order.id, number };
}

/** CDEK's ORDER_STATUS webhook body (vendor-apis §1) for `number` moving to `code` at `at`. */
const cdekWebhook = (number, code, at) =>
  JSON.stringify({
    type: 'ORDER_STATUS',
    date_time: cdekDateTime(new Date()),
    uuid: randomUUID(),
    attributes: {
      is_return: false,
      cdek_number: number,
      code,
      status_date_time: cdekDateTime(at),
      city_name: 'Москва',
    },
  });

/** The client's one browser stream: every message handed to the waiters (order id + stage). */
function openStream(token) {
  const controller = new AbortController();
  const waiters = new Map();
  const ready = fetch(`${base}/api/sse?authToken=${token}&type=*`, { signal: controller.signal }).then(
    (res) => {
      if (!res.ok) throw new Error(`sse: ${res.status}`);
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      void (async () => {
        for (;;) {
          const { value, done } = await reader.read().catch(() => ({ done: true }));
          if (done) {
            if (!controller.signal.aborted) log('the browser stream ended');
            return;
          }
          buffer += decoder.decode(value, { stream: true });
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const message = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = message
              .split('\n')
              .filter((l) => l.startsWith('data: '))
              .map((l) => l.slice(6))
              .join('\n');
            if (!data) continue;
            const event = JSON.parse(data);
            if (event.entity !== 'client_order') continue;
            const key = `${event.id}:${event.item?.stage}`;
            waiters.get(key)?.(Date.now());
            waiters.delete(key);
          }
        }
      })();
    },
  );
  return {
    ready,
    /** Resolves with the time the order's `stage` reached the stream. */
    waitFor: (orderId, stage) => new Promise((resolve) => waiters.set(`${orderId}:${stage}`, resolve)),
    close: () => controller.abort(),
  };
}

/** Where a sample's time went, from the services' own timestamps (PostgreSQL's clock, the same machine's). */
async function hops(db, sample) {
  const { rows } = await db.query(
    `select extract(epoch from o.created_at) * 1000 as written, extract(epoch from i.handled_at) * 1000 as applied
     from carriers.outbox o
     left join orders.inbox i on i.event_id = o.event_id
     where o.key = $1 and o.event->'data'->>'vendor_status' = $2`,
    [String(sample.shipmentId), sample.code],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    accepted: Number(r.written) - sample.postedAt,
    // svc-carriers' relay, Kafka, svc-orders' consumer
    applied: Number(r.applied) - Number(r.written),
    // svc-orders' transaction, its relay, Kafka, the gateway's consumer and the stream
    toBrowser: sample.arrivedAt - Number(r.applied),
  };
}

async function browserLatency(system, db) {
  const admin = await login('admin@caravan.local', 'caravan-admin');
  const client = await login('client@caravan.local', 'caravan123');
  const goods = (await call(client, 'client_order_position_list', { per_page: 50 })).items;
  const orders = (await call(client, 'client_order_list', { per_page: 50 })).items;
  const model = {
    item: goods.find((p) => p.type_id),
    order: orders.find((o) => o.logistic_route_id && o.operator_id),
  };
  log(`making ${ORDERS} orders sent to Russia with a CDEK waybill through the API`);
  const made = [];
  const t0 = Date.now();
  await pool(
    Array.from({ length: ORDERS }, (_, i) => i),
    4,
    async (i) => made.push(await cdekOrder(client, admin, model, i)),
  );
  log(
    `${made.length} orders in ${((Date.now() - t0) / 1000).toFixed(0)} s; waiting for svc-carriers to follow them`,
  );
  const ids = made.map((o) => o.id);
  const followed = await until('svc-carriers follows the orders', async () => {
    const { rows } = await db.query(
      'select client_order_id, id from carriers.shipment where client_order_id = any($1) and not final',
      [ids],
    );
    return rows.length === ids.length ? new Map(rows.map((r) => [Number(r.client_order_id), r.id])) : null;
  });

  const stream = openStream(client);
  await stream.ready;
  const steps = [
    { code: 'SENT_TO_RECIPIENT_CITY', stage: 'sent_to_door' },
    { code: 'DELIVERED', stage: 'client_received' },
  ];
  const samples = [];
  const answers = [];
  let missed = 0;
  for (const step of steps)
    for (const order of made) {
      const arrived = stream.waitFor(order.id, step.stage);
      const postedAt = Date.now();
      const res = await fetch(webhookUrl(), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: cdekWebhook(order.number, step.code, new Date()),
      });
      await res.arrayBuffer();
      answers.push(Date.now() - postedAt);
      if (res.status !== 200) throw new Error(`the webhook answered ${res.status}`);
      const arrivedAt = await Promise.race([arrived, sleep(15_000).then(() => null)]);
      if (arrivedAt === null) {
        missed++;
        const seen = await call(admin, 'client_order_get_by_id', { id: order.id });
        log(
          `order ${order.id}: ${step.code} posted, '${step.stage}' not on the stream after 15 s; the order is at '${seen.stage}' now`,
        );
        samples.push({ ms: 15_000 });
        continue;
      }
      samples.push({
        ms: arrivedAt - postedAt,
        postedAt,
        arrivedAt,
        orderId: order.id,
        shipmentId: followed.get(order.id),
        code: step.code,
      });
      await sleep(100);
    }
  stream.close();
  const s = summary(samples.map((x) => x.ms));
  const a = summary(answers);
  const breakdown = [];
  for (const sample of samples.filter((x) => x.postedAt)) {
    const hop = await hops(db, sample);
    if (hop) breakdown.push(hop);
  }
  const median = (key) => {
    const hop = summary(breakdown.map((b) => b[key]));
    return `${hop.p50.toFixed(0)} (p95 ${hop.p95.toFixed(0)})`;
  };
  console.log(
    `\n2. CDEK webhook at the gateway → order stage changed → the client's browser stream (${samples.length} samples over ${made.length} orders: 'отправлен по адресу', then 'вручён получателю')\n` +
      `   webhook answered                 p50 ${a.p50.toFixed(0)} ms   p95 ${a.p95.toFixed(0)} ms\n` +
      `   stage in the browser             p50 ${s.p50.toFixed(0)} ms   p95 ${s.p95.toFixed(0)} ms   worst ${s.worst.toFixed(0)} ms${missed ? `   ${missed} never arrived (counted as 15 s)` : ''}   goal p95 ≤ ${GOALS.browserP95Ms} ms   ${verdict(s.p95 <= GOALS.browserP95Ms && samples.length >= GOALS.samples && !missed)}\n` +
      `   where the time goes (medians and p95s, ms): webhook → event written ${median('accepted')}, → taken up by svc-orders ${median('applied')}, → its order change in the browser ${median('toBrowser')}`,
  );
  void system;
}

/** Inserts the flood's shipments (orders svc-orders does not have; not due for a day: only webhooks touch them). */
async function floodShipments(db) {
  const { rows } = await db.query(
    `insert into carriers.shipment (client_order_id, operator_id, client_id, carrier, number, next_check_at)
     select 900000000 + g, 1, 1, 'cdek', (9000000000 + g)::text, now() + interval '1 day'
     from generate_series(1, $1::int) g
     returning id, number`,
    [FLOOD_SHIPMENTS],
  );
  return rows.map((r) => ({ id: r.id, number: r.number, next: 0, accepted: 0, waiting: 0 }));
}

const IN_TRANSIT = [
  'RECEIVED_AT_SHIPMENT_WAREHOUSE',
  'READY_TO_SHIP_AT_SENDING_OFFICE',
  'TAKEN_BY_TRANSPORTER_FROM_SENDER_CITY',
  'SENT_TO_RECIPIENT_CITY',
  'ACCEPTED_IN_RECIPIENT_CITY',
  'ACCEPTED_AT_RECIPIENT_CITY_WAREHOUSE',
  'TAKEN_BY_COURIER',
];

async function webhookFlood(db, processes) {
  const shipments = await floodShipments(db);
  const url = new URL(webhookUrl());
  // 512 kept-alive connections, as a proxy before the gateway would hold: a new connection per webhook left
  // thousands waiting in the gateway's accept queue, and Node resets those not read within 60 s (ECONNRESET)
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const statusBase = Date.now() - 30 * 24 * 3600_000;
  const idle = [...shipments];
  const latencies = [];
  const refusals = new Map();
  let fired = 0;
  let accepted = 0;
  let inFlight = 0;
  let lastAnswer = 0;
  let gaveUp = false;
  const send = (shipment) => {
    const k = shipment.next++;
    const body = cdekWebhook(
      shipment.number,
      IN_TRANSIT[k % IN_TRANSIT.length],
      new Date(statusBase + k * 1000),
    );
    const t = performance.now();
    inFlight++;
    shipment.waiting++;
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          inFlight--;
          shipment.waiting--;
          lastAnswer = performance.now();
          latencies.push(lastAnswer - t);
          if (res.statusCode >= 200 && res.statusCode < 300) {
            accepted++;
            shipment.accepted++;
          } else refusals.set(res.statusCode, (refusals.get(res.statusCode) ?? 0) + 1);
          idle.push(shipment);
        });
      },
    );
    req.on('error', (err) => {
      inFlight--;
      // given up on by the bench: no answer, and the status may or may not have been stored
      if (gaveUp) return;
      shipment.waiting--;
      refusals.set(err.code ?? 'error', (refusals.get(err.code ?? 'error') ?? 0) + 1);
      idle.push(shipment);
    });
    req.end(body);
  };
  log(
    `firing ${fmt(FLOOD_RATE)} webhooks a second for ${FLOOD_SECONDS} s over ${fmt(shipments.length)} shipments`,
  );
  const t0 = performance.now();
  let firedFor = 0;
  let starved = 0;
  const cpu = await cpuDuring(processes, async () => {
    // rate × seconds webhooks, each at its moment; a bench that fell behind (the machine) catches up at once
    const total = FLOOD_RATE * FLOOD_SECONDS;
    while (fired < total) {
      const elapsed = performance.now() - t0;
      const due = Math.min(total, Math.floor((elapsed / 1000) * FLOOD_RATE)) - fired;
      for (let i = 0; i < due; i++) {
        const shipment = idle.shift();
        // every shipment has a webhook in flight: its next status waits (each shipment's statuses in order)
        if (!shipment) {
          starved++;
          break;
        }
        fired++;
        send(shipment);
      }
      await sleep(1);
    }
    firedFor = (performance.now() - t0) / 1000;
    const deadline = performance.now() + ANSWER_WAIT_S * 1000;
    while (inFlight && performance.now() < deadline) await sleep(200);
  });
  const unanswered = inFlight;
  if (unanswered) {
    gaveUp = true;
    agent.destroy();
    // what the services had already taken commits meanwhile
    await sleep(5000);
  }
  // the bench's own share is CDEK's side of the wire: not the system's cost
  const cpuTotal = cpu.used.reduce((a, [name, c]) => a + (name === 'this bench' ? 0 : c), 0);
  const cpuLine =
    `   CPU seconds meanwhile (${cpu.seconds.toFixed(1)} s; 2 cores give ${(2 * cpu.seconds).toFixed(0)}, others' work took some): ` +
    cpu.used.map(([name, c]) => `${name} ${c.toFixed(1)}`).join(', ') +
    `\n   per accepted webhook the system spent ${((cpuTotal * 1000) / Math.max(accepted, 1)).toFixed(1)} ms of CPU (` +
    cpu.used
      .filter(([name]) => name !== 'this bench')
      .map(([name, c]) => `${name} ${((c * 1000) / Math.max(accepted, 1)).toFixed(1)}`)
      .join(', ') +
    `): two cores of their own would carry about ${fmt((2 * accepted) / Math.max(cpuTotal, 0.001))} a second`;
  agent.destroy();
  const answeredFor = (lastAnswer - t0) / 1000;

  const ids = shipments.map((s) => s.id);
  const rows = new Map(
    (
      await db.query(
        'select shipment_id, count(*)::int as n from carriers.shipment_status where shipment_id = any($1) group by shipment_id',
        [ids],
      )
    ).rows.map((r) => [r.shipment_id, r.n]),
  );
  const events = new Map(
    (
      await db.query(
        `select key, count(*)::int as n from carriers.outbox where event->>'type' = $1 and key = any($2) group by key`,
        [contracts.CARRIER_EVENTS.statusChanged, ids.map(String)],
      )
    ).rows.map((r) => [Number(r.key), r.n]),
  );
  let lostRows = 0;
  let extraRows = 0;
  let lostEvents = 0;
  let extraEvents = 0;
  for (const s of shipments) {
    const n = rows.get(s.id) ?? 0;
    const e = events.get(s.id) ?? 0;
    lostRows += Math.max(0, s.accepted - n);
    extraRows += Math.max(0, n - s.accepted - s.waiting);
    lostEvents += Math.max(0, s.accepted - e);
    extraEvents += Math.max(0, e - s.accepted - s.waiting);
  }
  const totalEvents = [...events.values()].reduce((a, b) => a + b, 0);
  // the events go on to svc-orders: each must reach the inbox of its carrier-shipments subscription once (its
  // key is the event id; the notifications subscription hears the same events into the same table)
  const t1 = Date.now();
  let reached = 0;
  while (Date.now() - t1 < 180_000) {
    reached = (
      await db.query(
        `select count(*)::int as n from orders.inbox i join carriers.outbox o on o.event_id = i.event_id
         where i.subscription = 'carrier-shipments' and o.event->>'type' = $1 and o.key = any($2)`,
        [contracts.CARRIER_EVENTS.statusChanged, ids.map(String)],
      )
    ).rows[0].n;
    if (reached >= totalEvents) break;
    await sleep(1000);
  }
  const l = summary(latencies);
  // CDEK waits 15 s for an answer and never retries (vendor-apis §1): a later 200 is a status CDEK counts as failed
  const late = latencies.filter((ms) => ms > 15_000).length;
  // accepted in the end over the time from the first webhook to the last answer
  const rate = accepted / answeredFor;
  // loss is an accepted webhook without its row or event; one not accepted is the sender's to know (a refusal)
  const noLoss = !lostRows && !extraRows && !lostEvents && !extraEvents;
  console.log(
    `\n3. webhooks at ${fmt(FLOOD_RATE)}/s for ${FLOOD_SECONDS} s at the gateway, distinct statuses over ${fmt(shipments.length)} shipments (one in flight per shipment)\n` +
      `   fired ${fmt(fired)} in ${firedFor.toFixed(1)} s (${fmt(fired / firedFor)}/s offered${starved ? `; held back ${starved} times: every shipment had one in flight` : ''}); accepted (2xx) ${fmt(accepted)}, not accepted ${[...refusals].map(([k, v]) => `${k}: ${v}`).join(', ') || 0}; the last answer after ${answeredFor.toFixed(1)} s${unanswered ? `; ${fmt(unanswered)} still unanswered after ${ANSWER_WAIT_S} s, given up (their statuses may or may not be stored)` : ''}\n` +
      `   answer p50 ${l.p50.toFixed(0)} ms   p95 ${l.p95.toFixed(0)} ms   worst ${l.worst.toFixed(0)} ms; ${fmt(late)} answered after CDEK's 15 s (CDEK would call them failed and not retry: the poll finds them later)\n${cpuLine}\n` +
      `   accepted per second (first webhook → last answer) ${rate.toFixed(0)}   goal ≥ ${fmt(GOALS.webhooksPerSecond)}/s   ${verdict(rate >= GOALS.webhooksPerSecond)}\n` +
      `   status rows ${fmt([...rows.values()].reduce((a, b) => a + b, 0))} (lost ${lostRows}, doubled ${extraRows}), status events ${fmt(totalEvents)} (lost ${lostEvents}, doubled ${extraEvents}) for ${fmt(accepted)} accepted   ${verdict(noLoss)}\n` +
      `   events in svc-orders' inbox ${fmt(reached)} of ${fmt(totalEvents)} after ${((Date.now() - t1) / 1000).toFixed(0)} s more   ${verdict(reached === totalEvents)}`,
  );
}

async function wholeSystem() {
  const system = await startSystemProcess({
    offset,
    database: `${DATABASE}_system`,
    prefix: DATABASE,
    web: false,
    readyPath: '/api/readyz',
  });
  const db = new Client({ connectionString: await infra.ensurePostgres(`${DATABASE}_system`) });
  await db.connect();
  try {
    if (PARTS.includes('webhook')) await browserLatency(system, db);
    if (PARTS.includes('flood')) await webhookFlood(db, () => systemProcesses(system.pid, db));
  } finally {
    await db.end().catch(() => {});
    await system.stop();
  }
}

const loadBefore = loadavg()[0];
console.log(
  `[bench carriers] load average (1 min, ${cpus().length} cores) at start ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
try {
  if (PARTS.includes('poll')) await pollingRound();
  if (PARTS.includes('webhook') || PARTS.includes('flood')) await wholeSystem();
} catch (err) {
  console.error(err);
  missGoal();
}
console.log(
  `\nload average (1 min, ${cpus().length} cores) ${loadBefore.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after: others' work on the machine slows the figures\n`,
);
exitByGoals();
