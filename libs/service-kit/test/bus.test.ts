import { randomUUID } from 'node:crypto';
import { prefixedTopic, type EventEnvelope } from '@caravan/contracts';
import type { Consumer, Kafka } from 'kafkajs';
import {
  createDb,
  createKafka,
  createLogger,
  createProducer,
  ensureTopics,
  eventually,
  InboxConsumer,
  kitMigrations,
  migrate,
  Outbox,
  OutboxRelay,
  type Db,
} from '../src';

// A scratch schema on the real database and a scratch topic on the real broker.
const schema = `bus_${Date.now()}`;
const topic = `kit.bus-test.v1`;
const log = createLogger('bus-test', 'silent');
let db: Db;
let kafka: Kafka;
let received: EventEnvelope[];
let consumer: Consumer;

beforeAll(async () => {
  db = createDb(process.env.DATABASE_URL!, schema);
  await migrate(db, schema, [
    ...kitMigrations,
    {
      name: '001_thing',
      up: (k, s) =>
        k.schema.withSchema(s).createTable('thing', (t) => {
          t.increments('id');
          t.string('title');
        }),
    },
  ]);
  kafka = createKafka('bus-test', process.env.KAFKA_BROKERS!.split(','), log);
  await ensureTopics(kafka, process.env.KAFKA_TOPIC_PREFIX!, [topic]);
  received = [];
  consumer = kafka.consumer({ groupId: `bus-test-${randomUUID()}`, maxWaitTimeInMs: 100 });
  await consumer.connect();
  await consumer.subscribe({
    topic: prefixedTopic(process.env.KAFKA_TOPIC_PREFIX, topic),
    fromBeginning: true,
  });
  await consumer.run({
    eachMessage: async ({ message }) => {
      received.push(JSON.parse(message.value!.toString()));
    },
  });
});

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

afterAll(async () => {
  await consumer.disconnect();
  await db.raw('drop schema ?? cascade', [schema]);
  await db.destroy();
});

const titleOf = (e: EventEnvelope) => (e.data as { title: string }).title;

const writeThing = (outbox: Outbox, title: string, fail = false) =>
  db.transaction(async (trx) => {
    const [row] = await trx('thing').insert({ title }).returning('*');
    await outbox.write(trx, { topic, key: row.id, type: 'thing.created', actor: 1, data: row });
    if (fail) throw new Error('rolled back');
  });

describe('outbox relay', () => {
  it('publishes an event only after its transaction commits, and marks it sent', async () => {
    const producer = createProducer(kafka);
    await producer.connect();
    const relay = new OutboxRelay(db, producer, process.env.KAFKA_TOPIC_PREFIX!, log, 50);
    cleanups.push(
      () => relay.stop(),
      () => producer.disconnect(),
    );
    const outbox = new Outbox('bus-test');
    await expect(writeThing(outbox, 'rolled-back', true)).rejects.toThrow('rolled back');
    await writeThing(outbox, 'committed');
    relay.start();
    const event = await eventually('the committed event', async () =>
      received.find((e) => titleOf(e) === 'committed'),
    );
    expect(event).toMatchObject({ type: 'thing.created', source: 'bus-test', actor: 1 });
    await eventually(
      'outbox row marked sent',
      async () => (await db('outbox').whereNull('sent_at')).length === 0,
    );
    expect(await db('outbox').count({ n: '*' }).first()).toEqual({ n: 1 });
    expect(received.filter((e) => titleOf(e) === 'rolled-back')).toHaveLength(0);
  });

  it('keeps an event it could not publish and retries it later with backoff', async () => {
    await writeThing(new Outbox('bus-test'), 'broker-away');
    const disconnected = createProducer(kafka); // never connected: every send fails
    const failing = new OutboxRelay(db, disconnected, process.env.KAFKA_TOPIC_PREFIX!, log);
    expect(await failing.publishBatch()).toBe(1);
    const row = await db('outbox').whereNull('sent_at').first();
    expect(row.attempts).toBe(1);
    expect(row.last_error).toBeTruthy();
    expect(new Date(row.next_attempt_at).getTime()).toBeGreaterThan(Date.now());
    expect(await failing.publishBatch()).toBe(0); // not due yet

    await db('outbox').where({ id: row.id }).update({ next_attempt_at: db.fn.now() });
    const producer = createProducer(kafka);
    await producer.connect();
    cleanups.push(() => producer.disconnect());
    const healthy = new OutboxRelay(db, producer, process.env.KAFKA_TOPIC_PREFIX!, log);
    expect(await healthy.publishBatch()).toBe(1);
    await eventually('the retried event', async () => received.find((e) => titleOf(e) === 'broker-away'));
    expect((await db('outbox').where({ id: row.id }).first()).sent_at).not.toBeNull();
  });
});

const envelope = (id = randomUUID(), type = 'thing.created', data: Record<string, unknown> = {}) =>
  Buffer.from(
    JSON.stringify({
      id,
      type,
      version: 1,
      occurred_at: new Date().toISOString(),
      source: 'test',
      key: '1',
      actor: null,
      data,
    }),
  );

/** What a fetch hands the inbox: messages without headers (not traced). */
const messages = (...values: Buffer[]) => values.map((value) => ({ value }));

describe('inbox', () => {
  it('applies an event once however often it is delivered', async () => {
    let applied = 0;
    const handler = async (trx: Db) => {
      applied++;
      await trx('thing').insert({ title: 'from-event' });
    };
    const inbox = new InboxConsumer(
      kafka,
      db,
      'unused',
      { name: 'count', topics: [topic], handler },
      '',
      log,
    );
    const message = envelope();
    expect(await inbox.handle(topic, message)).toBe('handled');
    expect(await inbox.handle(topic, message)).toBe('duplicate');
    expect(await inbox.handle(topic, Buffer.from('{"not":"an envelope"}'))).toBe('invalid');
    expect(applied).toBe(1);
    expect(await db('thing').where({ title: 'from-event' }).count({ n: '*' }).first()).toEqual({ n: 1 });
  });

  it('publishes what a transaction wrote as soon as it commits, even when another one committed first', async () => {
    const producer = createProducer(kafka);
    await producer.connect();
    // a poll of ten minutes: only the commits' kicks can publish within the test
    const relay = new OutboxRelay(db, producer, process.env.KAFKA_TOPIC_PREFIX!, log, 600_000);
    cleanups.push(
      () => relay.stop(),
      () => producer.disconnect(),
    );
    relay.start();
    const outbox = new Outbox('bus-test');
    outbox.onCommitted = () => relay.kick();
    let letSlowCommit = () => {};
    const slowMayCommit = new Promise<void>((r) => (letSlowCommit = r));
    let slowWrote = () => {};
    const slowHasWritten = new Promise<void>((r) => (slowWrote = r));
    const slow = db.transaction(async (trx) => {
      const [row] = await trx('thing').insert({ title: 'slow' }).returning('*');
      await outbox.write(trx, { topic, key: row.id, type: 'thing.created', actor: 1, data: row });
      slowWrote();
      await slowMayCommit;
    });
    await slowHasWritten;
    await writeThing(outbox, 'quick'); // commits first: its kick finds only its own row
    await eventually('the quick event', async () => received.find((e) => titleOf(e) === 'quick'));
    letSlowCommit();
    await slow;
    const event = await eventually(
      'the slow event, without the poll',
      async () => received.find((e) => titleOf(e) === 'slow'),
      5000,
    );
    expect(event).toMatchObject({ type: 'thing.created' });
  });

  it("asks the relay to publish what a handler wrote once its transaction commits, not at the relay's next poll", async () => {
    const outbox = new Outbox('svc-test');
    const published: string[][] = [];
    const handler = async (trx: Db) => {
      const [row] = await trx('thing').insert({ title: 'follow-up' }).returning('*');
      await outbox.write(trx, { topic, key: row.id, type: 'thing.created', actor: 1, data: row });
    };
    let kicks = 0;
    // what a kicked relay finds: the rows committed by then (another connection sees no uncommitted row)
    const afterHandled = () => {
      kicks++;
      void db('outbox')
        .whereNull('sent_at')
        .pluck('event')
        .then((events: EventEnvelope[]) => published.push(events.map(titleOf)));
    };
    const inbox = new InboxConsumer(
      kafka,
      db,
      'unused',
      { name: 'follow', topics: [topic], handler },
      '',
      log,
      afterHandled,
    );
    const message = envelope();
    expect(await inbox.handle(topic, message)).toBe('handled');
    expect(await inbox.handle(topic, message)).toBe('duplicate');
    expect(kicks).toBe(1);
    const seen = await eventually('the kicked relay', async () => published[0]);
    expect(seen).toContain('follow-up');
  });

  it('rolls back the inbox mark when the handler fails, so the event is retried', async () => {
    const handler = async () => Promise.reject(new Error('handler down'));
    const inbox = new InboxConsumer(kafka, db, 'unused', { name: 'fail', topics: [topic], handler }, '', log);
    const id = randomUUID();
    await expect(inbox.handle(topic, envelope(id))).rejects.toThrow('handler down');
    expect(await db('inbox').where({ event_id: id }).first()).toBeUndefined();
  });

  it("applies a fetch's events together, in order, each once; a failing one fails alone after the ones before it", async () => {
    const seen: string[] = [];
    const handler = async (trx: Db, event: EventEnvelope) => {
      const title = String((event.data as { title: string }).title);
      if (title === 'broken') throw new Error('cannot apply');
      seen.push(title);
      await trx('thing').insert({ title });
    };
    const inbox = new InboxConsumer(
      kafka,
      db,
      'unused',
      { name: 'batch', topics: [topic], handler },
      '',
      log,
    );
    const [a, b, c] = ['batch-a', 'batch-b', 'batch-c'].map((title) =>
      envelope(randomUUID(), 'thing.created', { title }),
    );
    expect(await inbox.handleMany(topic, messages(a!, b!, a!, c!))).toEqual([
      'handled',
      'handled',
      'duplicate',
      'handled',
    ]);
    expect(seen).toEqual(['batch-a', 'batch-b', 'batch-c']);
    expect(await inbox.handleMany(topic, messages(c!, b!))).toEqual(['duplicate', 'duplicate']);

    const [d, e] = ['batch-d', 'batch-e'].map((title) => envelope(randomUUID(), 'thing.created', { title }));
    const broken = envelope(randomUUID(), 'thing.created', { title: 'broken' });
    await expect(inbox.handleMany(topic, messages(d!, broken, e!))).rejects.toThrow('cannot apply');
    // d stays applied (its own transaction after the batch's rollback); e waits for the retry behind the broken one
    const titles = await db('thing').whereLike('title', 'batch-%').orderBy('id').pluck('title');
    expect(titles).toEqual(['batch-a', 'batch-b', 'batch-c', 'batch-d']);
    expect(inbox.handled).toBe(4);
  });

  it('passes over the event types its subscription does not act on, marking nothing', async () => {
    let applied = 0;
    const handler = async () => void applied++;
    const inbox = new InboxConsumer(
      kafka,
      db,
      'unused',
      { name: 'typed', topics: [topic], handler, types: ['thing.created'] },
      '',
      log,
    );
    const other = randomUUID();
    expect(await inbox.handleMany(topic, messages(envelope(other, 'thing.renamed'), envelope()))).toEqual([
      'skipped',
      'handled',
    ]);
    expect(applied).toBe(1);
    expect(await db('inbox').where({ event_id: other }).first()).toBeUndefined();
  });
});
