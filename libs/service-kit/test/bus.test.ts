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

const envelope = (id = randomUUID()) =>
  Buffer.from(
    JSON.stringify({
      id,
      type: 'thing.created',
      version: 1,
      occurred_at: new Date().toISOString(),
      source: 'test',
      key: '1',
      actor: null,
      data: {},
    }),
  );

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

  it('rolls back the inbox mark when the handler fails, so the event is retried', async () => {
    const handler = async () => Promise.reject(new Error('handler down'));
    const inbox = new InboxConsumer(kafka, db, 'unused', { name: 'fail', topics: [topic], handler }, '', log);
    const id = randomUUID();
    await expect(inbox.handle(topic, envelope(id))).rejects.toThrow('handler down');
    expect(await db('inbox').where({ event_id: id }).first()).toBeUndefined();
  });
});
