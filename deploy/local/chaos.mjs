// `npm run chaos`: faults on the real database and broker, nothing lost, nothing duplicated, order kept.
// On its own database and topic prefix: svc-carriers runs as a child process; writers send a burst of
// creates and renames (each with an Idempotency-Key, retried with the same key on any failure, as the UI
// does); the service is SIGKILLed mid-burst and restarted next to a second process of the same service
// (two relays at once), which is SIGKILLed and restarted in turn. Then a consumer reads the topic and
// every acknowledged write is checked in the database and on the topic. Exits non-zero on a violation.
//   CARAVAN_PORT_OFFSET  shifts the two service ports (default 30000: 34003, 34103)
//   CHAOS_DATABASE       database (default caravan_chaos_<time>); it must not exist: the run makes it
//                        and drops it at the end, never touching a database it did not create
// It talks only to the processes it started: a port that already answers stops the run before it begins.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { buildIfStale } from './build.mjs';
import * as infra from './infra.mjs';

const require = createRequire(import.meta.url);
const root = infra.root;
const offset = Number(process.env.CARAVAN_PORT_OFFSET ?? 30000);
const PORTS = [4003 + offset, 4103 + offset];
const WRITERS = 6;
const COUNTRIES_PER_WRITER = 12;
const RENAMES = 4;
const CLAIM_SECONDS = 5; // a killed relay's keys go to the others after this
const log = (...a) => console.log('[chaos]', ...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const t0 = Date.now();

buildIfStale({ web: false });
const kit = require(path.join(root, 'libs/service-kit/dist/index.js'));
const { IDENTITY_HEADER } = require(path.join(root, 'libs/contracts/dist/index.js'));
const { Kafka, logLevel } = require('kafkajs');
const knex = require('knex');

const database = process.env.CHAOS_DATABASE ?? `caravan_chaos_${Date.now()}`;
const topicPrefix = `chaos-${Date.now()}-`;
for (const port of PORTS)
  if (await portAnswers(port)) {
    console.error(
      `[chaos] something already listens on 127.0.0.1:${port}: not ours, stopping (set CARAVAN_PORT_OFFSET)`,
    );
    process.exit(2);
  }
if (await infra.databaseExists(database)) {
  console.error(
    `[chaos] database ${database} already exists: not ours, stopping (choose another CHAOS_DATABASE)`,
  );
  process.exit(2);
}
const DATABASE_URL = await infra.ensurePostgres(database, { own: true });
const KAFKA_BROKERS = infra.ensureKafka();
await infra.ensureTopics(KAFKA_BROKERS, topicPrefix);
const db = knex({
  client: 'pg',
  connection: DATABASE_URL,
  searchPath: ['carriers'],
  pool: { min: 0, max: 2 },
});
const identity = kit.signIdentity(
  kit.identityOf({ user_id: 1, roles: ['admin'] }),
  process.env.IDENTITY_TOKEN_SECRET ?? kit.DEV_IDENTITY_SECRET,
);

/** True when anything accepts a connection on the port. */
function portAnswers(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

// ---- the service processes ----
const processes = new Map(); // port → child
function startService(port) {
  const child = spawn(process.execPath, ['svc-carriers/dist/src/main.js'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL,
      KAFKA_BROKERS,
      KAFKA_TOPIC_PREFIX: topicPrefix,
      PORT: String(port),
      SEED_DEMO: 'false',
      LOG_LEVEL: 'error',
      OUTBOX_CLAIM_SECONDS: String(CLAIM_SECONDS),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  processes.set(port, child);
  return waitHealthy(port);
}
async function waitHealthy(port) {
  const child = processes.get(port);
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(100)) {
    // an answer counts only while our child lives (it exits if the port was taken meanwhile)
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`svc-carriers on ${port} exited before it was ready`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
    } catch {
      /* not yet */
    }
  }
  throw new Error(`svc-carriers on ${port} did not start`);
}
/** SIGKILL, then note the rows whose claim died with it: they may be on the topic already. */
const inDoubt = new Set();
async function kill(port) {
  const child = processes.get(port);
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
  processes.delete(port);
  const rows = await db('outbox').whereNull('sent_at').whereNotNull('claimed_by').select('event_id');
  rows.forEach((r) => inDoubt.add(r.event_id));
  log(`SIGKILL svc-carriers :${port} (${rows.length} claimed rows in doubt)`);
}

// ---- the writers ----
const stats = { acknowledged: 0, retries: 0, refused: [] };
const acked = new Map(); // country key `w-i` → { id, titles: [acknowledged titles in order] }
let turn = 0;

/** One user action: the same key until an answer arrives, like the UI after 'повторите попытку'. */
async function act(params) {
  const key = randomUUID();
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const live = PORTS.filter((p) => processes.has(p));
    const port = live[turn++ % Math.max(live.length, 1)] ?? PORTS[0];
    try {
      const res = await fetch(`http://127.0.0.1:${port}/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [IDENTITY_HEADER]: identity, 'idempotency-key': key },
        body: JSON.stringify({ method: 'country_update', params }),
      });
      const reply = await res.json();
      if (reply.ok) {
        stats.acknowledged++;
        return reply.result;
      }
      if (res.status < 500) {
        stats.refused.push(`${JSON.stringify(params)}: ${reply.message}`);
        return null;
      }
    } catch {
      /* the process is gone or restarting */
    }
    stats.retries++;
    await sleep(50);
  }
  stats.refused.push(`${JSON.stringify(params)}: no answer in 60 s`);
  return null;
}

async function writer(w) {
  for (let i = 0; i < COUNTRIES_PER_WRITER; i++) {
    const name = `chaos-${w}-${i}`;
    const created = await act({ id: -1, title: `${name}:v0` });
    if (!created) continue;
    const entry = { id: created.id, titles: [`${name}:v0`] };
    acked.set(name, entry);
    for (let v = 1; v <= RENAMES; v++) {
      const title = `${name}:v${v}`;
      if (await act({ id: created.id, title })) entry.titles.push(title);
    }
  }
}

const total = WRITERS * COUNTRIES_PER_WRITER * (1 + RENAMES);
const whenAcknowledged = async (n) => {
  while (stats.acknowledged < n) await sleep(5);
};

await startService(PORTS[0]);
log(`svc-carriers :${PORTS[0]} up; burst of ${total} writes from ${WRITERS} writers`);
const burst = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
await whenAcknowledged(total / 4);
await kill(PORTS[0]);
await Promise.all([startService(PORTS[0]), startService(PORTS[1])]);
log(`svc-carriers :${PORTS[0]} restarted, second process :${PORTS[1]} up (two relays)`);
await whenAcknowledged((total * 2) / 3);
await kill(PORTS[1]);
await startService(PORTS[1]);
log(`svc-carriers :${PORTS[1]} restarted`);
await burst;
log(`burst done: ${stats.acknowledged} acknowledged, ${stats.retries} retries`);

// ---- the relays drain (the killed claims expire after CLAIM_SECONDS) ----
for (const deadline = Date.now() + 60_000; ; await sleep(200)) {
  const { n } = await db('outbox').whereNull('sent_at').count({ n: '*' }).first();
  if (Number(n) === 0) break;
  if (Date.now() > deadline) throw new Error(`${n} outbox rows still unsent after 60 s`);
}

// ---- read the topic ----
const outbox = await db('outbox').select('event_id', 'key', 'event').orderBy('id');
const received = [];
const kafka = new Kafka({ clientId: 'chaos', brokers: KAFKA_BROKERS.split(','), logLevel: logLevel.NOTHING });
const consumer = kafka.consumer({ groupId: `${topicPrefix}chaos-check`, maxWaitTimeInMs: 100 });
await consumer.connect();
await consumer.subscribe({ topic: `${topicPrefix}carriers.country.v1`, fromBeginning: true });
await consumer.run({
  eachMessage: async ({ message }) => void received.push(JSON.parse(String(message.value))),
});
const distinct = () => new Set(received.map((e) => e.id)).size;
for (const deadline = Date.now() + 30_000; distinct() < outbox.length && Date.now() < deadline;)
  await sleep(100);
await sleep(1000); // late duplicates, if any
await consumer.disconnect();

// ---- check ----
const violations = [];
const violate = (what) => violations.length < 50 && violations.push(what);
const rows = await db('country').where('title', 'like', 'chaos-%').select('id', 'title');
const byId = new Map(rows.map((r) => [r.id, r]));

// the database: one row per create however often it was retried, holding its last acknowledged title
for (const [name, { id, titles }] of acked) {
  const matching = rows.filter((r) => r.title.startsWith(`${name}:`));
  if (matching.length !== 1) violate(`${name}: ${matching.length} rows (duplicate or lost create)`);
  if (byId.get(id)?.title !== titles.at(-1))
    violate(`${name}: database holds '${byId.get(id)?.title}', last acknowledged '${titles.at(-1)}'`);
}
if (rows.length !== acked.size) violate(`${rows.length} chaos rows for ${acked.size} acknowledged creates`);

// the topic: every committed event present, nothing foreign, duplicates only of rows a killed relay held
const committed = new Set(outbox.map((r) => r.event_id));
const seen = new Map();
for (const e of received) seen.set(e.id, (seen.get(e.id) ?? 0) + 1);
const lost = [...committed].filter((id) => !seen.has(id));
if (lost.length) violate(`${lost.length} committed events never reached the topic`);
const foreign = [...seen.keys()].filter((id) => !committed.has(id));
if (foreign.length) violate(`${foreign.length} events on the topic that no committed row wrote`);
const redelivered = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
const unexplained = redelivered.filter((id) => !inDoubt.has(id));
if (unexplained.length)
  violate(`${unexplained.length} events published twice without a killed relay holding them`);

// per key: first deliveries in seq order, one event per acknowledged write, and the last one is the row
for (const [name, { id, titles }] of acked) {
  const firsts = [];
  const ids = new Set();
  for (const e of received.filter((e) => e.key === String(id))) {
    if (ids.has(e.id)) continue;
    ids.add(e.id);
    firsts.push(e);
  }
  const seqs = firsts.map((e) => e.seq);
  if (seqs.some((s, i) => i > 0 && !(s > seqs[i - 1]))) violate(`${name}: events out of order (seq ${seqs})`);
  const published = firsts.map((e) => e.data.row.title);
  if (JSON.stringify(published) !== JSON.stringify(titles))
    violate(`${name}: topic has ${JSON.stringify(published)}, acknowledged ${JSON.stringify(titles)}`);
}
for (const r of stats.refused) violate(`refused: ${r}`);

console.log(`
  chaos: ${((Date.now() - t0) / 1000).toFixed(1)} s, 2 SIGKILLs, two relays at once
  writes acknowledged   ${stats.acknowledged} of ${total} (${stats.retries} retries with the same key)
  rows                  ${rows.length} for ${acked.size} creates
  events                ${outbox.length} committed, ${distinct()} distinct on the topic, ${received.length} delivered
  redelivered           ${redelivered.length} (all held by a killed relay: ${unexplained.length === 0}; ${inDoubt.size} were in doubt)
  violations            ${violations.length}
${violations.map((v) => `    - ${v}`).join('\n')}`);

for (const child of processes.values()) child.kill('SIGTERM');
await Promise.all([...processes.values()].map((c) => new Promise((r) => c.once('exit', r))));
await infra.deleteTopics(KAFKA_BROKERS, topicPrefix);
await db.destroy();
await infra.removeDatabase(DATABASE_URL);
await infra.stopPostgres();
process.exit(violations.length ? 1 : 0);
