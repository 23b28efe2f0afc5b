// `BENCH_ONLY=streams npm run bench` (issue 19): 10,000 browsers, each with its one live stream (docs/adr/0017),
// on one gateway; staff change orders of their clients at a steady rate, each change telling the client's users
// by a notification ('администратор изменил заказ …').
//   - an order change → every recipient's stream: p95 of (message in the stream − the change's call), goal ≤ 50 ms
//   - the gateway's memory per open stream (RSS with the streams − RSS before, over the streams)
//   - notifications a second: made (rows) and delivered (the recipients' streams), goal 1,000 a second, none lost
// The system is the one `npm start` runs (its own database, ports + BENCH_PORT_OFFSET, topic prefix). Users,
// clients, orders and links are made through the API (links must reach svc-orders as identity events); only the
// sessions are written straight into the gateway's table (10,000 logins would measure the password hash).
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { buildIfStale } from '../build.mjs';
import * as infra from '../infra.mjs';
import { startSystemProcess } from '../system.mjs';
import { cpuMs, exitByGoals, summary, thousands, verdict } from './service.mjs';

const require = createRequire(import.meta.url);
const offset = Number(process.env.BENCH_PORT_OFFSET ?? 20000);
const DATABASE = process.env.BENCH_SSE_DATABASE ?? 'caravan_bench_sse';
const STREAMS = Number(process.env.BENCH_SSE_STREAMS ?? 10_000);
const USERS_PER_CLIENT = 10;
const CLIENTS = Math.ceil(STREAMS / USERS_PER_CLIENT);
/** Order changes a second; each tells USERS_PER_CLIENT users: 100 × 10 = 1,000 notifications a second. */
const CHANGES_PER_SECOND = Number(process.env.BENCH_SSE_CHANGES_PER_SECOND ?? 100);
const DRIVE_SECONDS = Number(process.env.BENCH_SSE_SECONDS ?? 10);
const GOALS = { p95Ms: 50, notificationsPerSecond: 1000 };
const base = `http://127.0.0.1:${8080 + offset}`;
const log = (...a) => console.log('[bench streams]', ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const fmt = thousands;

buildIfStale({ web: false });
const { Client } = require('pg');
const { Kafka, logLevel } = require('kafkajs');
const { ENTITY_TOPICS } = require('../../../libs/contracts/dist/index.js');

/**
 * When each order change's event was handed to Kafka (the relay's send: the message's create time), to split
 * the change's way into commit → Kafka (svc-orders' relay) and Kafka → stream (broker, gateway, fan-out).
 */
async function watchOrderEvents(topicPrefix, onEvent) {
  const kafka = new Kafka({
    clientId: 'bench-streams',
    brokers: (process.env.KAFKA_BROKERS ?? `127.0.0.1:${9092 + offset}`).split(','),
    logLevel: logLevel.NOTHING,
  });
  const consumer = kafka.consumer({ groupId: `${topicPrefix}bench-watch`, maxWaitTimeInMs: 50 });
  await consumer.connect();
  await consumer.subscribe({ topic: `${topicPrefix}${ENTITY_TOPICS.client_order}`, fromBeginning: false });
  await consumer.run({
    autoCommit: false,
    eachMessage: async ({ message }) => {
      const row = JSON.parse(message.value.toString('utf8')).data?.row;
      if (row) onEvent(`${row.id}:${row.to_ru_delivery_date}`, Number(message.timestamp));
    },
  });
  return consumer;
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

/** Runs `work` over `items`, `concurrency` at a time. */
async function pool(items, concurrency, work) {
  let next = 0;
  const results = new Array(items.length);
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}

/** The pid of one of the system's processes: the child of start.mjs running `<name>/dist/src/main.js`. */
function pidOf(rootPid, name) {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (parent === rootPid && cmd.includes(`${name}/dist/src/main.js`)) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`no ${name} process under the system`);
}

const rssMb = (pid) =>
  Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

/** Clients, each with USERS_PER_CLIENT working users linked and one order, made as an admin would. */
async function people(admin, db) {
  const model = (await call(admin, 'client_order_list', { per_page: 50 })).items.find(
    (o) => o.logistic_route_id,
  );
  if (!model) throw new Error('no demo order with a route to copy');
  const stamp = Date.now();
  const clients = await pool([...Array(CLIENTS).keys()], 8, async (i) => {
    const client = await call(admin, 'client_update', { id: -1, title: `bench streams ${stamp} ${i}` });
    const order = await call(admin, 'client_order_update', {
      id: -1,
      client_id: client.id,
      operator_id: model.operator_id,
      logistic_route_id: model.logistic_route_id,
      buyout_type: 'operator',
      delivery_type: 'to_door',
    });
    return { id: client.id, orderId: order.id, users: [] };
  });
  log(`${fmt(CLIENTS)} clients with an order each`);
  // users straight into the identity schema (registration mails and confirmations are not what is measured)
  const { rows } = await db.query(
    `insert into identity.user_table (email, password_hash, first_name, roles, state)
     select 'bench-' || $1::text || '-' || g || '@caravan.local', 'x', 'Покупатель ' || g, '{client}', 'working'
       from generate_series(1, $2::int) g
     returning id`,
    [String(stamp), CLIENTS * USERS_PER_CLIENT],
  );
  rows.forEach((r, i) => clients[Math.floor(i / USERS_PER_CLIENT)].users.push(Number(r.id)));
  await pool(
    clients.flatMap((c) => c.users.map((u) => [c.id, u])),
    8,
    ([clientId, userId]) =>
      call(admin, 'client_user_link_update', { id: -1, client_id: clientId, user_table_id: userId }),
  );
  log(`${fmt(CLIENTS * USERS_PER_CLIENT)} users linked`);
  return clients;
}

/** One session per user, as a login would write it; returns the tokens by user. */
async function sessions(db, clients) {
  const tokens = new Map();
  const users = clients.flatMap((c) => c.users);
  for (const u of users) tokens.set(u, randomBytes(24).toString('base64url'));
  const hashes = users.map((u) => createHash('sha256').update(tokens.get(u)).digest('hex'));
  await db.query(
    `insert into identity.session (user_id, token_hash, expires_at)
     select u, h, now() + interval '1 day' from unnest($1::bigint[], $2::text[]) as t(u, h)`,
    [users, hashes],
  );
  return tokens;
}

/**
 * A browser's one stream (type '*'); every message is handed to `onMessage(event, receivedAt)`. Plain
 * node:http with no agent: 10,000 sockets, each parsed only up to the fields the bench waits for.
 */
function openStream(token, onMessage) {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/api/sse?authToken=${token}&type=*`, { agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`sse: ${res.statusCode}`));
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk) => {
        const at = performance.now();
        const wall = Date.now();
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = message.startsWith('data: ') ? message.slice(6) : null;
          if (data) onMessage(JSON.parse(data), at, wall);
        }
      });
      resolve({ close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}

async function run() {
  const db = new Client({ connectionString: await infra.ensurePostgres(DATABASE) });
  const system = await startSystemProcess({
    offset,
    database: DATABASE,
    prefix: 'bench-sse',
    web: false,
    readyPath: '/api/readyz',
  });
  const streams = [];
  /** order id + date → when its event was handed to Kafka (wall clock). */
  const sent = new Map();
  const watcher = await watchOrderEvents(system.topicPrefix, (key, at) => sent.has(key) || sent.set(key, at));
  try {
    await db.connect();
    const admin = (
      await (
        await fetch(`${base}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ login: 'admin@caravan.local', password: 'caravan-admin' }),
        })
      ).json()
    ).result.token;
    const t0 = performance.now();
    const clients = await people(admin, db);
    const tokens = await sessions(db, clients);
    log(`set up in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

    const gateway = pidOf(system.pid, 'gateway');
    const orders = pidOf(system.pid, 'svc-orders');
    await sleep(2000);
    const rssBefore = rssMb(gateway);
    /** order id + date → when the change was asked; per recipient stream, the lag to it. */
    const asked = new Map();
    const lags = [];
    const sinceCommit = [];
    const toKafka = [];
    const fromKafka = [];
    const notified = new Map();
    let orderMessages = 0;
    const users = clients.flatMap((c) => c.users);
    const t1 = performance.now();
    await pool(users, 100, async (userId) => {
      streams.push(
        await openStream(tokens.get(userId), (event, at, wall) => {
          // the one stream carries a change once per type it feeds: the lists' type 'order' stands for it
          if (event.entity === 'client_order' && event.type === 'order') {
            const when = asked.get(`${event.id}:${event.item?.to_ru_delivery_date}`);
            if (when !== undefined) {
              lags.push(at - when);
              // the row's updated_at is its transaction's time (PostgreSQL's clock, this machine's)
              const committed = Date.parse(event.item.updated_at);
              sinceCommit.push(wall - committed);
              const handed = sent.get(`${event.id}:${event.item.to_ru_delivery_date}`);
              if (handed !== undefined) {
                toKafka.push(handed - committed);
                fromKafka.push(wall - handed);
              }
              orderMessages++;
            }
          } else if (event.entity === 'notification' && event.op === 'created') {
            notified.set(userId, (notified.get(userId) ?? 0) + 1);
          }
        }),
      );
    });
    log(`${fmt(streams.length)} streams open in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    await sleep(3000);
    const rssOpen = rssMb(gateway);

    // the drive: CHANGES_PER_SECOND order changes a second, each on the next client's order, a new date each time
    const changes = CHANGES_PER_SECOND * DRIVE_SECONDS;
    const cpuBefore = cpuMs(gateway);
    const ordersCpuBefore = cpuMs(orders);
    const { rows: before } = await db.query('select count(*)::int as n from orders.notification');
    const driveStart = performance.now();
    let done = 0;
    await pool([...Array(changes).keys()], 20, async (i) => {
      const due = driveStart + (i * 1000) / CHANGES_PER_SECOND;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const client = clients[i % clients.length];
      const day = new Date(Date.UTC(2027, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
      asked.set(`${client.orderId}:${day}`, performance.now());
      await call(admin, 'client_order_update', { id: client.orderId, to_ru_delivery_date: day });
      done++;
    });
    const driveSeconds = (performance.now() - driveStart) / 1000;
    const expected = changes * USERS_PER_CLIENT;
    const deadline = Date.now() + 120_000;
    const received = () => [...notified.values()].reduce((a, b) => a + b, 0);
    while ((received() < expected || orderMessages < expected) && Date.now() < deadline) await sleep(250);
    const settled = (performance.now() - driveStart) / 1000;
    const gatewayCpu = (cpuMs(gateway) - cpuBefore) / 1000;
    const ordersCpu = (cpuMs(orders) - ordersCpuBefore) / 1000;
    const { rows: made } = await db.query(
      `select count(*)::int as n,
              extract(epoch from max(created_at) - min(created_at)) as span
         from (select created_at from orders.notification order by id desc limit $1) n`,
      [expected],
    );
    const { rows: after } = await db.query('select count(*)::int as n from orders.notification');
    const rowsMade = after[0].n - before[0].n;

    const s = summary(lags);
    const perStreamKb = ((rssOpen - rssBefore) * 1024) / streams.length;
    const madePerSecond = rowsMade / Math.max(Number(made[0].span), driveSeconds);
    const deliveredPerSecond = received() / settled;
    console.log(
      `\n${fmt(streams.length)} open streams on one gateway; ${fmt(done)} order changes at ${CHANGES_PER_SECOND}/s for ${DRIVE_SECONDS} s, each to ${USERS_PER_CLIENT} users (load average ${loadavg()[0].toFixed(1)})\n`,
    );
    const c = summary(sinceCommit);
    console.log(
      `order change committed → every recipient's stream   p50 ${c.p50.toFixed(1)} ms   p95 ${c.p95.toFixed(1)} ms   worst ${c.worst.toFixed(0)} ms   (${fmt(sinceCommit.length)} of ${fmt(expected)} deliveries)   goal p95 ≤ ${GOALS.p95Ms} ms   ${verdict(c.p95 <= GOALS.p95Ms && sinceCommit.length === expected)}`,
    );
    const k = summary(toKafka);
    const f = summary(fromKafka);
    console.log(
      `  where it goes: committed → handed to Kafka (svc-orders' relay) p50 ${k.p50.toFixed(1)} ms p95 ${k.p95.toFixed(1)} ms; Kafka → stream (broker, gateway, fan-out, this bench's parsing) p50 ${f.p50.toFixed(1)} ms p95 ${f.p95.toFixed(1)} ms`,
    );
    console.log(
      `staff's call → every recipient's stream             p50 ${s.p50.toFixed(1)} ms   p95 ${s.p95.toFixed(1)} ms   worst ${s.worst.toFixed(0)} ms   (the call's own time included)`,
    );
    console.log(
      `gateway memory per open stream            ${perStreamKb.toFixed(1)} KB   (RSS ${rssBefore.toFixed(0)} MB → ${rssOpen.toFixed(0)} MB with the streams)`,
    );
    console.log(
      `notifications made                        ${fmt(rowsMade)} of ${fmt(expected)}, ${fmt(madePerSecond)}/s   goal ${fmt(GOALS.notificationsPerSecond)}/s none lost   ${verdict(rowsMade === expected && madePerSecond >= GOALS.notificationsPerSecond * 0.95)}`,
    );
    console.log(
      `notifications in the recipients' streams  ${fmt(received())} of ${fmt(expected)}, all within ${settled.toFixed(1)} s of the first change (${fmt(deliveredPerSecond)}/s)   ${verdict(received() === expected)}`,
    );
    console.log(
      `CPU while driving and settling            gateway ${gatewayCpu.toFixed(1)} s, svc-orders ${ordersCpu.toFixed(1)} s (${((ordersCpu * 1000) / changes).toFixed(1)} ms an order change and its ${USERS_PER_CLIENT} notices) over ${settled.toFixed(1)} s`,
    );
  } finally {
    await watcher.disconnect().catch(() => {});
    for (const s of streams) s.close();
    await system.stop();
    await db.end();
  }
}

await run();
exitByGoals();
