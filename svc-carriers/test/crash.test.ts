import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SHIPMENT_TOPIC } from '@caravan/contracts';
import { eventually, readRequestBody, startOnFreePort, type ServiceProcess } from '@caravan/service-kit';
import knex, { type Knex } from 'knex';
import { PEC_SANDBOX_ACCOUNT, PecClient, startPecSandbox } from '../src/adapters/pec';
import { toShipmentState } from '../src/adapters/pec/mapping';
import type { PecStatusReply } from '../src/adapters/pec/types';
import type { RunningSandbox } from '../src/adapters/sandboxKit';
import { newOrderId } from './syncSupport';

/**
 * svc-carriers killed with SIGKILL during a sync round loses no status change (issue 18, ADR 0020).
 * The built service runs as its own processes on a database and topic prefix of their own, polling
 * PEC's sandbox every second through a front that slows every answer, notes which replica asked about
 * which cargo and when, and lets the test hold a request or act before an answer leaves. 200 cargos:
 * - replica A is killed inside the transaction that records its fourth answer (the test holds the
 *   status of that answer's second cargo in an uncommitted row of its own, so A waits right there);
 * - while no replica runs, PEC moves ten cargos A had recorded on to their next status;
 * - A comes back as two replicas sharing PEC's budget; C is killed with its first request still
 *   unanswered at PEC, and B goes on alone.
 * In the end every status PEC had is one status row and exactly one status event (in order), no two
 * replicas asked about a cargo in one round, and what fell due while no replica ran was asked spread
 * over the check interval, not in a burst.
 */
const root = path.resolve(__dirname, '../..');
const CARGOS = 200;
const INTERVAL_SECONDS = 20;
const LEASE_SECONDS = 5;
/** Two asks about one cargo closer than this: two replicas held it in one round. */
const ONE_ROUND_MS = 2000;

type Ask = { replica: string; codes: string[]; at: number };
/** A status as the log's key has it: the vendor's status and its moment. */
type StatusKey = string;
const statusKey = (vendorStatus: string, at: string | Date) =>
  `${vendorStatus} @ ${new Date(at).toISOString()}`;
const momentOf = (key: StatusKey) => Date.parse(key.split(' @ ')[1]!);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const readBody = (req: IncomingMessage) => readRequestBody(req, Infinity);

/**
 * PEC as the replicas reach it: `<front>/<replica>/api/v1/…` goes on to the sandbox after `delayMs`.
 * Every status call is noted; one `hold` says yes to stays unanswered for good (its replica is about to
 * die); `beforeAnswer` runs before an answer leaves.
 */
class PecFront {
  readonly asks: Ask[] = [];
  delayMs = 0;
  hold: ((ask: Ask) => boolean) | null = null;
  beforeAnswer: ((ask: Ask, reply: PecStatusReply) => Promise<void>) | null = null;
  private readonly held: ServerResponse[] = [];
  private server: Server | null = null;
  url = '';

  constructor(private readonly sandboxUrl: string) {}

  async start() {
    this.server = createServer((req, res) => {
      this.forward(req, res).catch((err: unknown) => {
        res.writeHead(502);
        res.end(String(err));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  asksOf(replica: string) {
    return this.asks.filter((a) => a.replica === replica);
  }

  private async forward(req: IncomingMessage, res: ServerResponse) {
    const [, replica = '', ...rest] = (req.url ?? '/').split('/');
    const vendorPath = rest.join('/');
    const body = await readBody(req);
    const ask: Ask = { replica, codes: [], at: Date.now() };
    if (req.method === 'POST' && vendorPath.startsWith('api/v1/cargos/status')) {
      ask.codes = (JSON.parse(body) as { cargoCodes: string[] }).cargoCodes;
      this.asks.push(ask);
      if (this.hold?.(ask)) {
        this.held.push(res);
        return;
      }
    }
    await sleep(this.delayMs);
    const answer = await fetch(`${this.sandboxUrl}/${vendorPath}`, {
      method: req.method,
      headers: {
        'content-type': req.headers['content-type'] ?? 'application/json',
        authorization: req.headers.authorization ?? '',
      },
      body: req.method === 'POST' ? body : undefined,
    });
    const text = await answer.text();
    if (ask.codes.length && answer.ok) await this.beforeAnswer?.(ask, JSON.parse(text) as PecStatusReply);
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
    res.end(text);
  }

  async stop() {
    for (const res of this.held) res.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

let databaseUrl = '';
let admin: Knex;
let db: Knex;
let sandbox: RunningSandbox;
let front: PecFront;
/** The test's uncommitted status row that stops A inside its transaction, and its backend. */
let blocker: { trx: Knex.Transaction; pid: number } | null = null;
const replicas: ServiceProcess[] = [];

/** A database of the test's own beside the run's (its shipments are the only ones polled). */
async function freshDatabase() {
  const url = new URL(process.env.DATABASE_URL!);
  const name = `${url.pathname.slice(1)}_carriers_crash`;
  const server = new URL(url);
  server.pathname = '/postgres';
  admin = knex({ client: 'pg', connection: server.toString(), pool: { min: 0, max: 1 } });
  await admin.raw('drop database if exists ?? with (force)', [name]);
  await admin.raw('create database ??', [name]);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A replica of the built service on the test's database, asking PEC through the front as `name`. */
async function startReplica(name: string, replicaCount: number) {
  const service = await startOnFreePort(
    'svc-carriers/dist/src/main.js',
    {
      DATABASE_URL: databaseUrl,
      KAFKA_TOPIC_PREFIX: `${process.env.KAFKA_TOPIC_PREFIX ?? ''}carriers-crash-`,
      LOG_LEVEL: 'error',
      SEED_DEMO: 'false',
      PEC_URL: `${front.url}/${name}/api/v1`,
      CARRIERS_SYNC_EVERY_SECONDS: '1',
      CARRIERS_CHECK_INTERVAL_SECONDS: String(INTERVAL_SECONDS),
      CARRIERS_SYNC_LEASE_SECONDS: String(LEASE_SECONDS),
      CARRIERS_REPLICAS: String(replicaCount),
    },
    root,
  );
  replicas.push(service);
  return service;
}

beforeAll(async () => {
  databaseUrl = await freshDatabase();
  sandbox = await startPecSandbox({ port: 0 });
  front = new PecFront(sandbox.url);
  await front.start();
});
afterAll(async () => {
  await Promise.all(replicas.map((r) => r.kill()));
  await blocker?.trx.rollback().catch(() => {});
  await db?.destroy();
  await front?.stop();
  await sandbox?.stop();
  if (databaseUrl)
    await admin.raw('drop database if exists ?? with (force)', [new URL(databaseUrl).pathname.slice(1)]);
  await admin?.destroy();
});

/** What PEC says of the cargos now, asked directly (not through the front): code → its status. */
async function pecSays(codes: readonly string[]) {
  const client = new PecClient({ baseUrl: `${sandbox.url}/api/v1` });
  const says = new Map<string, StatusKey>();
  for (const state of await client.getStatuses(PEC_SANDBOX_ACCOUNT, codes))
    for (const s of state.statuses) says.set(state.number!, statusKey(s.vendor_status, s.status_at));
  return says;
}

async function sandboxPost(path: string) {
  const res = await fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { number: string };
}

/** An operator with PEC's sandbox account and `codes` as its shipments, due now. */
async function dueShipmentsOf(codes: readonly string[]) {
  const [operator] = (await db('operator')
    .insert({
      title: 'Оператор аварий ПЭК',
      transport_company_data: JSON.stringify([
        { type: 'pec', api_data: PEC_SANDBOX_ACCOUNT, recipient_cost_commission: '0' },
      ]),
    })
    .returning('id')) as Array<{ id: number }>;
  await db('shipment').insert(
    codes.map((number) => ({
      client_order_id: newOrderId(),
      operator_id: operator!.id,
      client_id: 1,
      carrier: 'pec',
      number,
      next_check_at: new Date(Date.now() - 1000),
    })),
  );
}

/**
 * Before `replica`'s `nth` answer (from 1) leaves, the test writes the status it gives for its second
 * cargo in a transaction it keeps open: the replica records the first cargo, then waits in the insert
 * of the second one's status (a unique key another transaction holds) until the test lets go.
 */
function blockInsideAnswer(replica: string, nth: number) {
  front.beforeAnswer = async (ask, reply) => {
    if (ask.replica !== replica || front.asksOf(replica).indexOf(ask) !== nth - 1) return;
    const code = ask.codes[1]!;
    const [status] = toShipmentState(
      reply.cargos.find((c) => c.cargo.code === code)!,
      new Date(),
    ).statuses;
    const shipment = (await db('shipment').where({ number: code }).first('id')) as { id: number };
    const trx = await db.transaction();
    // without the foreign key's check: its key-share lock on the shipment would stop the replica at
    // recordStatuses' row lock, before the insert of this very status
    await trx.raw('set local session_replication_role = replica');
    const { rows } = (await trx.raw('select pg_backend_pid() as pid')) as { rows: Array<{ pid: number }> };
    blocker = { trx, pid: rows[0]!.pid };
    await trx('shipment_status').insert({
      shipment_id: shipment.id,
      vendor_status: status!.vendor_status,
      status_at: new Date(status!.status_at),
      city: status!.city,
    });
  };
}

/** Backends of the replicas inserting a shipment's status: waiting for a lock, or in a transaction. */
async function replicaStatusInserts() {
  const { rows } = (await db.raw(
    `select wait_event_type from pg_stat_activity
     where datname = current_database() and pid <> ? and query ~* '^\\s*insert into "{0,1}shipment_status\\M'
       and (wait_event_type = 'Lock' or state like 'idle in transaction%')`,
    [blocker?.pid ?? 0],
  )) as { rows: Array<{ wait_event_type: string | null }> };
  return rows;
}

/** The status log: cargo → its statuses. */
async function recordedStatuses(codes: readonly string[]) {
  const rows = (await db('shipment_status')
    .join('shipment', 'shipment.id', 'shipment_status.shipment_id')
    .select('shipment.number', 'shipment_status.vendor_status', 'shipment_status.status_at')) as Array<{
    number: string;
    vendor_status: string;
    status_at: Date;
  }>;
  const byCode = new Map<string, StatusKey[]>(codes.map((code) => [code, []]));
  for (const r of rows) byCode.get(r.number)!.push(statusKey(r.vendor_status, r.status_at));
  return byCode;
}

/** The status events in the outbox: cargo → its events' statuses, in the order they were written. */
async function publishedStatuses(codes: readonly string[]) {
  const numberOf = new Map(
    ((await db('shipment').select('id', 'number')) as Array<{ id: number; number: string }>).map((s) => [
      String(s.id),
      s.number,
    ]),
  );
  const events = (await db('outbox')
    .where({ topic: SHIPMENT_TOPIC })
    .orderBy('id')
    .select('key', 'event')) as Array<{
    key: string;
    event: { data: { vendor_status: string; status_at: string } };
  }>;
  const byCode = new Map<string, StatusKey[]>(codes.map((code) => [code, []]));
  for (const { key, event } of events)
    byCode.get(numberOf.get(key)!)!.push(statusKey(event.data.vendor_status, event.data.status_at));
  return byCode;
}

/** Until `check` holds or `ms` pass; the assertions after it say what is missing. */
async function until(check: () => Promise<boolean>, ms: number) {
  for (const deadline = Date.now() + ms; Date.now() < deadline && !(await check());) await sleep(200);
}

/** How far apart the `low` and `high` quantiles of `times` are. */
function quantileSpan(times: readonly number[], low: number, high: number) {
  const sorted = [...times].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.round(q * (sorted.length - 1))]!;
  return at(high) - at(low);
}

it('loses and duplicates no status change when replicas are killed mid-round', async () => {
  // ---- the world: replica A; 200 cargos at PEC, each a shipment of an operator with PEC's account ----
  const a = await startReplica('a', 1);
  db = knex({ client: 'pg', connection: databaseUrl, searchPath: ['carriers'], pool: { min: 0, max: 3 } });
  const codes: string[] = [];
  for (let i = 0; i < CARGOS; i++) codes.push((await sandboxPost('/sandbox/shipments')).number);
  /** Every status PEC had for each cargo. */
  const vendorHad = new Map<string, Set<StatusKey>>(codes.map((code) => [code, new Set()]));
  for (const [code, key] of await pecSays(codes)) vendorHad.get(code)!.add(key);

  // ---- A is killed inside the transaction that records its fourth answer ----
  front.delayMs = 300;
  blockInsideAnswer('a', 4);
  await dueShipmentsOf(codes);
  await eventually('A waiting inside the transaction of its fourth answer', async () =>
    (await replicaStatusInserts()).some((b) => b.wait_event_type === 'Lock'),
  );
  await a.kill();
  await blocker!.trx.rollback();
  await eventually(
    'the killed replica gone from the database',
    async () => !(await replicaStatusInserts()).length,
  );

  // it was mid-round: some cargos asked, some not; what the fourth answer began left nothing behind
  const asksOfA = front.asksOf('a');
  expect(asksOfA).toHaveLength(4);
  const askedByA = new Set(asksOfA.flatMap((ask) => ask.codes));
  expect(askedByA.size).toBeGreaterThan(0);
  expect(askedByA.size).toBeLessThan(CARGOS);
  const recordedByA = [...(await recordedStatuses(codes))].filter(([, s]) => s.length).map(([code]) => code);
  expect(new Set(recordedByA)).toEqual(new Set(asksOfA.slice(0, 3).flatMap((ask) => ask.codes)));
  /** Due and under no lease when A died: a restart spreads them instead of asking all at once. */
  const dueWhileDown = new Set(
    (await db('shipment')
      .whereNull('lease_owner')
      .whereNull('last_confirmed_at')
      .where('next_check_at', '<=', db.fn.now())
      .pluck('number')) as string[],
  );
  expect(dueWhileDown.size).toBeGreaterThan(CARGOS / 4);

  // ---- while no replica runs, PEC moves ten cargos A had recorded ----
  const moved = recordedByA.slice(0, 10);
  for (const code of moved) await sandboxPost(`/sandbox/shipments/${code}/advance`);
  for (const [code, key] of await pecSays(moved)) vendorHad.get(code)!.add(key);
  expect(moved.filter((code) => vendorHad.get(code)!.size !== 2)).toEqual([]);

  // ---- A comes back as two replicas; C dies with its first request unanswered at PEC ----
  front.delayMs = 100;
  front.beforeAnswer = null;
  const restartedAt = Date.now();
  let heldForC: Ask | null = null;
  front.hold = (ask) => {
    if (ask.replica !== 'c' || heldForC) return false;
    heldForC = ask;
    return true;
  };
  const [b, c] = await Promise.all([startReplica('b', 2), startReplica('c', 2)]);
  await eventually('C asking PEC', async () => heldForC, 20_000);
  await c.kill();

  // ---- B alone, until every status is recorded and B asked about every cargo ----
  const allRecorded = async () => {
    const askedByB = new Set(front.asksOf('b').flatMap((ask) => ask.codes));
    const recorded = await recordedStatuses(codes);
    return codes.every(
      (code) => askedByB.has(code) && recorded.get(code)!.length >= vendorHad.get(code)!.size,
    );
  };
  await until(allRecorded, 60_000);
  await b.stop();

  // ---- nothing lost, nothing twice: one status row and one event per status PEC had ----
  const recorded = await recordedStatuses(codes);
  const sorted = (keys: Iterable<StatusKey>) =>
    [...keys].sort((x, y) => momentOf(x) - momentOf(y)).join(' | ');
  expect(codes.filter((code) => sorted(recorded.get(code)!) !== sorted(vendorHad.get(code)!))).toEqual([]);
  const published = await publishedStatuses(codes);
  expect(codes.filter((code) => published.get(code)!.join(' | ') !== sorted(vendorHad.get(code)!))).toEqual(
    [],
  );

  // ---- one replica at a time, and no storm after the restart ----
  const asksByCode = new Map<string, number[]>(codes.map((code) => [code, []]));
  for (const ask of front.asks) for (const code of ask.codes) asksByCode.get(code)!.push(ask.at);
  const askedTwiceInARound = codes.filter((code) =>
    asksByCode.get(code)!.some((at, i, all) => i > 0 && at - all[i - 1]! < ONE_ROUND_MS),
  );
  expect(askedTwiceInARound).toEqual([]);
  const firstAsksAfterRestart = [...dueWhileDown].map((code) =>
    asksByCode.get(code)!.find((at) => at >= restartedAt)!,
  );
  // spread over the 20 s interval, the middle 80 % of them are asked over about 16 s; asked all at once
  // (no spreading after a restart), all of them within about 6 s at B's pace
  expect(quantileSpan(firstAsksAfterRestart, 0.1, 0.9)).toBeGreaterThanOrEqual((INTERVAL_SECONDS * 1000) / 2);
}, 180_000);
