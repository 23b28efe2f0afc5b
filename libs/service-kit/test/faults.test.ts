import { randomUUID } from 'node:crypto';
import net from 'node:net';
import {
  ENTITY_TOPICS,
  IDENTITY_HEADER,
  MESSAGES,
  prefixedTopic,
  type EventEnvelope,
} from '@caravan/contracts';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { carriersService } from '../../../svc-carriers/src/app';
import {
  createDb,
  createKafka,
  createLogger,
  createProducer,
  DEV_IDENTITY_SECRET,
  ensureTopics,
  eventually,
  identityOf,
  kitMigrations,
  migrate,
  Bus,
  Outbox,
  OutboxRelay,
  signIdentity,
  startService,
  type Db,
  type RunningService,
} from '../src';

// Faults on the real database and the real broker: a cut Kafka connection, two relays of one service,
// a service started while Kafka is away, retried writes, terminated database connections.
const prefix = process.env.KAFKA_TOPIC_PREFIX!;
const brokers = process.env.KAFKA_BROKERS!.split(',');
const log = createLogger('faults-test', 'silent');
const schema = `faults_${Date.now()}`;
const topic = 'kit.faults-test.v1';
let db: Db;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  db = createDb(process.env.DATABASE_URL!, schema);
  await migrate(db, schema, kitMigrations);
  await ensureTopics(createKafka('faults-test', brokers, log), prefix, [topic, ENTITY_TOPICS.country]);
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await db.raw('drop schema ?? cascade', [schema]);
  await db.destroy();
});

/** Collects every message of a topic from its beginning, in the order of each partition. */
async function collect(kafka: Kafka, name: string, topicPrefix = prefix) {
  const received: EventEnvelope[] = [];
  const consumer: Consumer = kafka.consumer({ groupId: `faults-test-${randomUUID()}`, maxWaitTimeInMs: 100 });
  await consumer.connect();
  await consumer.subscribe({ topic: prefixedTopic(topicPrefix, name), fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => void received.push(JSON.parse(String(message.value))),
  });
  cleanups.push(() => consumer.disconnect());
  return received;
}

const writeEvent = (outbox: Outbox, key: number, n: number) =>
  db.transaction((trx) => outbox.write(trx, { topic, key, type: 'thing.changed', actor: 1, data: { n } }));

/** Transactions left idle for over half a second (a claim's own statements take milliseconds). */
const openTransactions = async () => {
  const row = await db('pg_stat_activity')
    .where({ datname: db.raw('current_database()') })
    .where('state', 'like', 'idle in transaction%')
    .where('state_change', '<', db.raw("now() - interval '500 milliseconds'"))
    .count({ n: '*' })
    .first();
  return Number(row?.n);
};

describe('outbox relay under faults', () => {
  it('two relays of one service publish every event once and each key in order', async () => {
    const kafka = createKafka('faults-test', brokers, log);
    const received = await collect(kafka, topic);
    const outbox = new Outbox('faults-test');
    const keys = Array.from({ length: 12 }, (_, i) => 1000 + i);
    const perKey = 40;
    const relays = await Promise.all(
      [1, 2].map(async () => {
        const producer = createProducer(kafka);
        await producer.connect();
        const relay = new OutboxRelay(db, producer, prefix, log, { pollMs: 5, batchSize: 7 });
        cleanups.push(
          () => producer.disconnect(),
          () => relay.stop(),
        );
        return relay;
      }),
    );
    relays.forEach((r) => r.start());
    // each key written in sequence while both relays run, the keys interleaved
    await Promise.all(
      keys.map(async (key) => {
        for (let n = 1; n <= perKey; n++) {
          await writeEvent(outbox, key, n);
          relays[n % 2]!.kick();
        }
      }),
    );
    const mine = () => received.filter((e) => keys.includes(Number(e.key)));
    await eventually('every event', async () => mine().length >= keys.length * perKey, 30000);

    expect(new Set(mine().map((e) => e.id)).size).toBe(mine().length); // nothing twice
    for (const key of keys) {
      const events = mine().filter((e) => Number(e.key) === key);
      expect(events.map((e) => (e.data as { n: number }).n)).toEqual(
        Array.from({ length: perKey }, (_, i) => i + 1),
      );
      const seqs = events.map((e) => e.seq!);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    }
  });

  it('holds no transaction open while Kafka is cut off, and catches up when it is back', async () => {
    // A real broker behind a switch: cut() drops every connection and refuses new ones.
    let cut = false;
    const sockets = new Set<net.Socket>();
    const kafka = new Kafka({
      clientId: 'faults-test-cut',
      brokers,
      logLevel: logLevel.NOTHING,
      retry: { retries: 5, initialRetryTime: 300 },
      requestTimeout: 5000,
      socketFactory: ({ host, port, onConnect }) => {
        const socket = net.connect(cut ? { host: '127.0.0.1', port: 1 } : { host, port }, onConnect);
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        return socket;
      },
    });
    const received = await collect(createKafka('faults-test', brokers, log), topic);
    const producer = createProducer(kafka);
    await producer.connect();
    cleanups.push(() => producer.disconnect());
    const relay = new OutboxRelay(db, producer, prefix, log, { pollMs: 50 });

    cut = true;
    sockets.forEach((s) => s.destroy(Object.assign(new Error('connection reset'), { code: 'ECONNRESET' })));
    const { id } = await writeEvent(new Outbox('faults-test'), 2000, 1);
    const publishing = relay.publishBatch();
    let seenOpen = 0;
    let done = false;
    void publishing.finally(() => (done = true));
    const t0 = Date.now();
    while (!done) {
      seenOpen = Math.max(seenOpen, await openTransactions());
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await publishing).toBe(1);
    expect(Date.now() - t0).toBeGreaterThan(1000); // the send was retried for a while
    expect(seenOpen).toBe(0);
    const row = await db('outbox').where({ event_id: id }).first();
    expect(row).toMatchObject({ sent_at: null, attempts: 1, claimed_by: null });

    cut = false;
    await db('outbox').where({ event_id: id }).update({ next_attempt_at: db.fn.now() });
    relay.start();
    cleanups.push(() => relay.stop());
    await eventually('the event after the outage', async () => received.find((e) => e.id === id), 30000);
    // marked after the broker took it: the consumer may have it a moment before
    await eventually(
      'the row marked sent',
      async () => (await db('outbox').where({ event_id: id }).first()).sent_at,
    );
  });

  it('sends a batch too large for one request in pieces; a failed piece leaves those before it sent and goes again, in order', async () => {
    const kafka = createKafka('faults-test', brokers, log);
    const received = await collect(kafka, topic);
    const outbox = new Outbox('faults-test');
    const real = createProducer(kafka);
    await real.connect();
    // the second produce request fails, as a broker going away between two would make it
    let requests = 0;
    const producer = {
      ...real,
      sendBatch: async (batch: Parameters<typeof real.sendBatch>[0]) => {
        if (++requests === 2) throw new Error('the broker went away');
        return real.sendBatch(batch);
      },
    };
    const relay = new OutboxRelay(db, producer, prefix, log, { pollMs: 50 });
    cleanups.push(
      () => real.disconnect(),
      () => relay.stop(),
    );
    // six events of one key, 200 KB each: two to a request of at most 512 KB
    const key = 5000 + Math.floor(Math.random() * 1000);
    const rows: EventEnvelope[] = [];
    for (let n = 1; n <= 6; n++)
      rows.push(
        await db.transaction((trx) =>
          outbox.write(trx, {
            topic,
            key,
            type: 'thing.changed',
            actor: 1,
            data: { n, pad: 'x'.repeat(200_000) },
          }),
        ),
      );
    relay.start();
    const mine = () => received.filter((e) => Number(e.key) === key);
    await eventually('all six', async () => mine().length >= 6, 30000);

    expect(mine().map((e) => (e.data as { n: number }).n)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(requests).toBe(4);
    // the mark follows the send: a consumer may hold an event a moment before its row reads as sent
    const stored = await eventually('all six marked sent', async () => {
      const found = await db('outbox')
        .whereIn(
          'id',
          rows.map((r) => r.seq!),
        )
        .orderBy('id');
      return found.every((r) => r.sent_at) && found;
    });
    expect(stored.map((r) => [Boolean(r.sent_at), r.attempts])).toEqual([
      [true, 0],
      [true, 0],
      [true, 1],
      [true, 1],
      [true, 1],
      [true, 1],
    ]);
  });

  it("a second lane sends another key's event while the first lane's send hangs; the hanging key's next event waits", async () => {
    const kafka = createKafka('faults-test', brokers, log);
    const received = await collect(kafka, topic);
    const outbox = new Outbox('faults-test');
    const real = createProducer(kafka);
    await real.connect();
    const slowKey = String(7000 + Math.floor(Math.random() * 1000));
    const otherKey = String(Number(slowKey) + 1000);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // a send that holds the slow key's events until released, as a broker slow to answer one request would
    const producer = {
      ...real,
      sendBatch: async (batch: Parameters<typeof real.sendBatch>[0]) => {
        if (batch.topicMessages!.some((t) => t.messages.some((m) => m.key === slowKey))) await gate;
        return real.sendBatch(batch);
      },
    };
    const relay = new OutboxRelay(db, producer, prefix, log, { pollMs: 50, lanes: 2 });
    cleanups.push(
      () => real.disconnect(),
      async () => {
        release();
        await relay.stop();
      },
    );
    const first = await writeEvent(outbox, Number(slowKey), 1);
    relay.start();
    await eventually('the slow key claimed', async () => {
      const row = await db('outbox').where({ event_id: first.id }).first();
      return row.claimed_by === relay.id;
    });
    const second = await writeEvent(outbox, Number(slowKey), 2);
    const other = await writeEvent(outbox, Number(otherKey), 1);
    relay.kick();
    await eventually('the other key while the first lane hangs', async () =>
      received.find((e) => e.id === other.id),
    );
    expect(received.filter((e) => e.key === slowKey)).toEqual([]);
    expect((await db('outbox').where({ event_id: second.id }).first()).claimed_by).toBeNull();

    release();
    await eventually(
      'both events of the slow key',
      async () => received.filter((e) => e.key === slowKey).length >= 2,
    );
    expect(received.filter((e) => e.key === slowKey).map((e) => e.id)).toEqual([first.id, second.id]);
  });
});

describe('an outbox relay whose sent mark fails', () => {
  /** The next `times` sent marks fail in the database, as a mark on a dropped connection would. */
  async function failSentMarks(times: number) {
    // a sequence counts the failures: unlike a row, it is not rolled back with the failed statement
    await db.raw('drop sequence if exists ??.mark_faults', [schema]);
    await db.raw('create sequence ??.mark_faults', [schema]);
    await db.raw(
      `create or replace function ??.fail_sent_mark() returns trigger language plpgsql as $$
       begin
         if nextval('${schema}.mark_faults') <= ${Number(times)} then
           raise exception 'connection terminated unexpectedly';
         end if;
         return new;
       end $$`,
      [schema],
    );
    await db.raw(
      `create or replace trigger fail_sent_mark before update of sent_at on ??.outbox
       for each row when (new.sent_at is not null) execute function ??.fail_sent_mark()`,
      [schema, schema],
    );
    cleanups.push(() => db.raw('drop trigger if exists fail_sent_mark on ??.outbox', [schema]));
  }

  async function relayWithProducer() {
    const producer = createProducer(createKafka('faults-test', brokers, log));
    await producer.connect();
    cleanups.push(() => producer.disconnect());
    return new OutboxRelay(db, producer, prefix, log, { pollMs: 50 });
  }

  it('retries the mark: the key is free for its next event at once', async () => {
    await failSentMarks(2);
    const relay = await relayWithProducer();
    const outbox = new Outbox('faults-test');
    const first = await writeEvent(outbox, 3000, 1);
    expect(await relay.publishBatch()).toBe(1);
    expect(await db('outbox').where({ event_id: first.id }).first()).toMatchObject({
      claimed_by: null,
      claimed_until: null,
    });
    expect((await db('outbox').where({ event_id: first.id }).first()).sent_at).not.toBeNull();
    const second = await writeEvent(outbox, 3000, 2);
    expect(await relay.publishBatch()).toBe(1);
    expect((await db('outbox').where({ event_id: second.id }).first()).sent_at).not.toBeNull();
  });

  it('releases its claim when the mark keeps failing, instead of holding the key for the lease', async () => {
    await failSentMarks(1000);
    const relay = await relayWithProducer();
    const { id } = await writeEvent(new Outbox('faults-test'), 3001, 1);
    await expect(relay.publishBatch()).rejects.toThrow('connection terminated unexpectedly');
    expect(await db('outbox').where({ event_id: id }).first()).toMatchObject({
      sent_at: null,
      claimed_by: null,
      claimed_until: null,
    });
    await failSentMarks(0);
    expect(await relay.publishBatch()).toBe(1); // at once, not after the 60 s lease
    expect((await db('outbox').where({ event_id: id }).first()).sent_at).not.toBeNull();
  });
});

describe('the bus state through a broker outage', () => {
  it("says 'unreachable' while the broker is cut off and 'connected' once it is back", async () => {
    // the broker behind a switch we control (the shared broker itself is never stopped)
    let cut = false;
    const sockets = new Set<net.Socket>();
    const kafka = new Kafka({
      clientId: 'faults-test-bus',
      brokers,
      logLevel: logLevel.NOTHING,
      retry: { retries: 1, initialRetryTime: 100 },
      requestTimeout: 1000,
      connectionTimeout: 500,
      socketFactory: ({ host, port, onConnect }) => {
        const socket = net.connect(cut ? { host: '127.0.0.1', port: 1 } : { host, port }, onConnect);
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        return socket;
      },
    });
    const producer = createProducer(kafka);
    const relay = new OutboxRelay(db, producer, prefix, log, { pollMs: 200 });
    const bus = new Bus(kafka, producer, relay, [], prefix, log, { everyMs: 200, timeoutMs: 1000 });
    cleanups.push(() => bus.stop());
    bus.start();
    await bus.ready;
    expect(bus.state).toBe('connected');

    cut = true;
    sockets.forEach((s) => s.destroy(Object.assign(new Error('connection reset'), { code: 'ECONNRESET' })));
    await eventually('unreachable', async () => bus.state === 'unreachable', 10_000);

    cut = false;
    await eventually('connected again', async () => bus.state === 'connected', 10_000);
  });
});

// A service in the scratch database, its connections named so the test can terminate them.
const admin = identityOf({ user_id: 1, roles: ['admin'] });
const appName = `faults-svc-${process.pid}`;
const ownPrefix = `${prefix}faults-`;
const serviceDatabase = `${new URL(process.env.DATABASE_URL!).pathname.slice(1)}_faults`;

async function rpc(svc: RunningService, method: string, params: unknown, key?: string) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    [IDENTITY_HEADER]: signIdentity(admin, process.env.IDENTITY_TOKEN_SECRET ?? DEV_IDENTITY_SECRET),
  };
  if (key) headers['idempotency-key'] = key;
  const res = await fetch(`${svc.url}/rpc`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ method, params }),
  });
  return {
    status: res.status,
    body: (await res.json()) as {
      ok: boolean;
      result: { id: number; title: string } | null;
      message?: string;
    },
  };
}

describe('a service under faults', () => {
  let svc: RunningService;
  let kafkaPort: number;
  let proxy: net.Server | null = null;

  beforeAll(async () => {
    // Kafka's address points at a port where nothing listens yet
    const probe = net.createServer().listen(0, '127.0.0.1');
    await new Promise((r) => probe.once('listening', r));
    kafkaPort = (probe.address() as net.AddressInfo).port;
    await new Promise((r) => probe.close(r));
    // its own database: the rows written here never meet other test files' svc-carriers
    const url = new URL(process.env.DATABASE_URL!);
    await db.raw('drop database if exists ?? with (force)', [serviceDatabase]);
    await db.raw('create database ??', [serviceDatabase]);
    url.pathname = `/${serviceDatabase}`;
    url.searchParams.set('application_name', appName);
    svc = await startService(
      carriersService({
        ...process.env,
        DATABASE_URL: url.toString(),
        KAFKA_BROKERS: `127.0.0.1:${kafkaPort}`,
        // and its own topics: its rows' ids repeat other files' ids, their replicas must never see them
        KAFKA_TOPIC_PREFIX: ownPrefix,
      }),
    );
  });
  afterAll(async () => {
    await svc?.stop();
    proxy?.close();
    await db.raw('drop database if exists ?? with (force)', [serviceDatabase]);
  });

  it('starts, answers and writes while Kafka is down, and publishes once Kafka is back', async () => {
    expect(await (await fetch(`${svc.url}/healthz`)).json()).toMatchObject({ ok: true });
    const ready = (await (await fetch(`${svc.url}/readyz`)).json()) as { ok: boolean; kafka: string };
    expect(ready).toMatchObject({ ok: true, kafka: 'connecting' });
    const created = await rpc(svc, 'country_update', { id: -1, title: 'Камбоджа' });
    expect(created.body.ok).toBe(true);
    const id = created.body.result!.id;
    expect(
      await svc
        .db('outbox')
        .where({ key: String(id) })
        .whereNull('sent_at'),
    ).toHaveLength(1);

    // Kafka comes back: the bootstrap address now leads to the broker
    const [host, port] = brokers[0]!.split(':');
    proxy = net
      .createServer((client) => {
        const upstream = net.connect(Number(port), host, () => client.pipe(upstream).pipe(client));
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
      })
      .listen(kafkaPort, '127.0.0.1');
    await ensureTopics(createKafka('faults-test', brokers, log), ownPrefix, [ENTITY_TOPICS.country]);
    const received = await collect(
      createKafka('faults-test', brokers, log),
      ENTITY_TOPICS.country,
      ownPrefix,
    );
    await svc.bus.ready;
    expect(((await (await fetch(`${svc.url}/readyz`)).json()) as { kafka: string }).kafka).toBe('connected');
    const event = await eventually('the country published', async () =>
      received.find((e) => e.key === String(id)),
    );
    expect(event.seq).toBeGreaterThan(0);
    // the relay marks the row sent after the broker took it: a consumer may have it a moment before
    await eventually(
      'the row marked sent',
      async () =>
        (
          await svc
            .db('outbox')
            .where({ key: String(id) })
            .whereNull('sent_at')
        ).length === 0,
    );
  }, 60000);

  it('answers a repeated create with the first reply and writes it once', async () => {
    const key = randomUUID();
    const title = `Бруней ${key.slice(0, 8)}`;
    const first = await rpc(svc, 'country_update', { id: -1, title }, key);
    const again = await rpc(svc, 'country_update', { id: -1, title }, key);
    expect(first.body.ok).toBe(true);
    expect(again).toEqual(first);
    // five at once with one new key: one row, five equal replies
    const key2 = randomUUID();
    const title2 = `Мьянма ${key2.slice(0, 8)}`;
    const burst = await Promise.all(
      Array.from({ length: 5 }, () => rpc(svc, 'country_update', { id: -1, title: title2 }, key2)),
    );
    expect(new Set(burst.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(burst[0]!.body.ok).toBe(true);
    const rows = await svc.db('country').whereIn('title', [title, title2]);
    expect(rows).toHaveLength(2);
    expect(
      await svc.db('outbox').whereIn(
        'key',
        rows.map((r) => String(r.id)),
      ),
    ).toHaveLength(2);

    // the same key for another request is refused and changes nothing
    const reused = await rpc(svc, 'country_update', { id: -1, title: 'Другая' }, key);
    expect(reused.body).toMatchObject({ ok: false, message: MESSAGES.idempotencyKeyReused });
    expect(await svc.db('country').where({ title: 'Другая' })).toHaveLength(0);
    // without a key two creates are two rows, as before
    await rpc(svc, 'country_update', { id: -1, title: `${title}-b` });
    await rpc(svc, 'country_update', { id: -1, title: `${title}-b` });
    expect(await svc.db('country').where({ title: `${title}-b` })).toHaveLength(2);
  });

  it('keeps no key for a refusal: the corrected request may reuse it', async () => {
    const key = randomUUID();
    const refused = await rpc(svc, 'country_update', { id: -1, title: '' }, key);
    expect(refused.body.ok).toBe(false);
    expect(await svc.db('idempotency').where({ key })).toHaveLength(0);
    const title = `Лаос ${key.slice(0, 8)}`;
    const fixed = await rpc(svc, 'country_update', { id: -1, title }, key);
    expect(fixed.body.ok).toBe(true);
    expect(await svc.db('country').where({ title })).toHaveLength(1);
  });

  it('answers a write whose database connection was terminated with the retryable message, not a 500', async () => {
    const created = await rpc(svc, 'country_update', { id: -1, title: 'Таиланд' });
    const id = created.body.result!.id;
    // hold the row so the service's update waits on it, then terminate the waiting backend
    const holder = await svc.db.transaction();
    await holder('country').where({ id }).forUpdate().first();
    const pending = rpc(svc, 'country_update', { id, title: 'Сиам' });
    const backend = await eventually(
      'the waiting update',
      async () =>
        (await db('pg_stat_activity')
          .where({ application_name: appName, wait_event_type: 'Lock' })
          // not a relay lane waiting for the other's claim (the outbox's advisory lock)
          .whereNot({ wait_event: 'advisory' })
          .first('pid')) as { pid: number } | undefined,
    );
    await db.raw('select pg_terminate_backend(?)', [backend.pid]);
    await holder.rollback();
    const answer = await pending;
    expect(answer).toEqual({
      status: 503,
      body: { ok: false, result: null, message: MESSAGES.serviceUnavailable },
    });
    expect((await svc.db('country').where({ id }).first()).title).toBe('Таиланд');

    // reads go on: every connection of the service terminated, the next read still answers
    await db.raw('select pg_terminate_backend(pid) from pg_stat_activity where application_name = ?', [
      appName,
    ]);
    const read = await rpc(svc, 'country_get_by_id', { id });
    expect(read.body).toMatchObject({ ok: true, result: { id, title: 'Таиланд' } });
  });
});
