import { ENTITY_TOPICS, prefixedTopic } from '@caravan/contracts';
import {
  callService,
  createProducer,
  eventually,
  identityOf,
  startService,
  type RunningService,
} from '@caravan/service-kit';
import { carriersService } from '../../svc-carriers/src/app';
import { ordersService } from '../src/app';

const admin = identityOf({ user_id: 1, roles: ['admin'] });
let carriers: RunningService;
let orders: RunningService;

beforeAll(async () => {
  [carriers, orders] = await Promise.all([startService(carriersService()), startService(ordersService())]);
  // the consumers join their groups in the background: on a fresh topic prefix the broker's leader election alone
  // can outlast a replica wait (a CI run timed out here)
  await Promise.all([carriers.bus.ready, orders.bus.ready]);
});
afterAll(async () => {
  await Promise.all([carriers?.stop(), orders?.stop()]);
});

const replicaOf = (id: number) => orders.db('replica').where({ entity: 'country', id }).first();

/** Waits for the replica of country `id`; a timeout says where the event stopped (two landing CI runs timed out here). */
async function replicaArrives(id: number) {
  try {
    return await eventually('the replica', () => replicaOf(id));
  } catch (err) {
    const outbox = await carriers
      .db('outbox')
      .where({ key: String(id), topic: ENTITY_TOPICS.country })
      .select('id', 'sent_at', 'attempts', 'last_error', 'claimed_by', 'next_attempt_at');
    const consumers = orders.consumers.map((c) => ({ handled: c.handled, duplicates: c.duplicates }));
    throw new Error(
      `${(err as Error).message}: outbox ${JSON.stringify(outbox)}, relay ${carriers.relay.id}, ` +
        `bus ${carriers.bus.state}/${orders.bus.state}, consumers ${JSON.stringify(consumers)}`,
    );
  }
}

describe('reference data replication carriers → orders', () => {
  it('keeps a replica of a country created and then renamed in svc-carriers', async () => {
    const created = await callService(
      carriers.url,
      'country_update',
      { id: -1, title: 'Вьетнам', title_en: 'Vietnam' },
      admin,
    );
    expect(created.body.ok).toBe(true);
    const id = (created.body.result as { id: number }).id;
    const replica = await replicaArrives(id);
    expect(replica.data).toMatchObject({ id, title: 'Вьетнам', title_en: 'Vietnam', deleted: false });

    await callService(
      carriers.url,
      'country_update',
      { id, title: 'Социалистическая Республика Вьетнам' },
      admin,
    );
    await eventually(
      'the renamed replica',
      async () => (await replicaOf(id))?.data.title === 'Социалистическая Республика Вьетнам',
    );

    await callService(carriers.url, 'country_update', { id, deleted: true }, admin);
    await eventually('the deletion', async () => (await replicaOf(id))?.deleted === true);
  });

  it('changes nothing when the same event is delivered twice', async () => {
    const created = await callService(carriers.url, 'country_update', { id: -1, title: 'Лаос' }, admin);
    const id = (created.body.result as { id: number }).id;
    await replicaArrives(id);
    // the country's own event: other entities of svc-carriers publish under the same key (their own ids)
    const [{ event }] = await carriers
      .db('outbox')
      .where({ key: String(id), topic: ENTITY_TOPICS.country })
      .orderBy('id');
    const consumer = orders.consumers[0]!;
    const duplicatesBefore = consumer.duplicates;
    const inboxBefore = await orders.db('inbox').count({ n: '*' }).first();
    const replicaBefore = await replicaOf(id);

    // Redeliver the first event through the real broker, as a producer retry or a replayed partition would.
    const producer = createProducer(carriers.kafka);
    await producer.connect();
    await producer.send({
      topic: prefixedTopic(process.env.KAFKA_TOPIC_PREFIX, ENTITY_TOPICS.country),
      messages: [{ key: String(id), value: JSON.stringify(event) }],
    });
    await producer.disconnect();

    await eventually('the duplicate to be seen', async () => consumer.duplicates > duplicatesBefore);
    expect(await orders.db('inbox').count({ n: '*' }).first()).toEqual(inboxBefore);
    expect(await replicaOf(id)).toEqual(replicaBefore);
  });
});
