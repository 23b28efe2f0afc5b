import { randomUUID } from 'node:crypto';
import {
  EntityChanged,
  EVENT_TYPES,
  EventEnvelope,
  IDENTITY_TOPIC,
  type Identity,
  prefixedTopic,
  SessionRevoked,
} from '@caravan/contracts';
import {
  consumeTraced,
  createProducer,
  ensureTopics,
  OutboxRelay,
  type Db,
  type Logger,
} from '@caravan/service-kit';
import type { Consumer, Kafka, Producer } from 'kafkajs';
import type { IdentityCache } from './domain/identityCache';
import type { SseHub } from './sse';

/** Entities of the gateway whose changes alter an identity: published on IDENTITY_TOPIC. */
export const IDENTITY_ENTITIES = { user: 'user', links: ['client_user_link', 'operator_user_link'] } as const;

/** What an identity event asks of this gateway instance. */
export function applyIdentityEvent(envelope: EventEnvelope, cache: IdentityCache, hub: SseHub) {
  if (envelope.type === EVENT_TYPES.sessionRevoked) {
    const revoked = SessionRevoked.parse(envelope.data);
    if (revoked.token_hash) {
      cache.dropSession(revoked.token_hash);
      hub.endSession(revoked.token_hash);
    } else {
      cache.dropUser(revoked.user_id);
      hub.endUser(revoked.user_id);
    }
    return;
  }
  if (envelope.type !== EVENT_TYPES.entityChanged) return;
  const change = EntityChanged.parse(envelope.data);
  if (change.entity === IDENTITY_ENTITIES.user) {
    cache.dropUser(change.id);
    void hub.revalidate((c) => c.userId === change.id);
  } else if ((IDENTITY_ENTITIES.links as readonly string[]).includes(change.entity)) {
    const touched = touchedByLink(change);
    cache.dropWhere(touched);
    void hub.revalidate((c) => touched(c.userId, c.identity));
  }
}

/**
 * Whose identity a link's change may alter: its user's, and — as a link may have moved from another user —
 * everyone's who holds its client or operator. Only those sessions are re-read (with 10,000 open streams a
 * link changed is 10,000 session reads otherwise). A row without its columns touches everyone.
 */
export function touchedByLink(change: EntityChanged): (userId: number, identity: Identity) => boolean {
  const userId = Number(change.row.user_table_id);
  const clientId = Number(change.row.client_id);
  const operatorId = Number(change.row.operator_id);
  if (!Number.isInteger(userId)) return () => true;
  return (user, identity) =>
    user === userId ||
    (change.entity === 'client_user_link' && identity.client_ids.includes(clientId)) ||
    (change.entity === 'operator_user_link' && identity.operator_ids.includes(operatorId));
}

const RETRY_MS = [500, 1000, 2000, 5000, 10_000];

/**
 * The gateway's Kafka side, started in the background so the gateway answers while Kafka is down:
 * the relay of its own outbox (identity events) and one consumer of its own group per instance
 * (every instance sees every event) for SSE and identity invalidation. Until it is up, cached
 * identities are bounded by the cache's TTL and SSE streams get no events.
 */
export class GatewayBus {
  private consumer: Consumer | null = null;
  private producer: Producer | null = null;
  relay: OutboxRelay | null = null;
  private stopped = false;
  private onStop: (() => void) | null = null;
  private starting: Promise<void> | null = null;
  ready = false;

  constructor(
    private readonly kafka: Kafka,
    private readonly db: Db,
    private readonly topicPrefix: string,
    private readonly log: Logger,
    private readonly handlers: {
      sse(topic: string, envelope: EventEnvelope): void;
      identity(e: EventEnvelope): void;
    },
    private readonly sseTopics: readonly string[],
  ) {}

  start(): Promise<void> {
    this.starting ??= this.connectWithRetry();
    return this.starting;
  }

  /** Ask the relay to publish soon (after a transaction that wrote identity events). */
  kick() {
    this.relay?.kick();
  }

  private async connectWithRetry() {
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        await this.connect();
        if (this.stopped) return;
        this.ready = true;
        this.log.info('gateway bus ready');
        return;
      } catch (err) {
        await this.disconnect();
        const wait = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]!;
        this.log.warn({ err: (err as Error).message, retryInMs: wait }, 'Kafka unavailable, retrying');
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  private async connect() {
    await ensureTopics(this.kafka, this.topicPrefix);
    const producer = createProducer(this.kafka);
    this.producer = producer;
    await producer.connect();
    this.relay = new OutboxRelay(this.db, producer, this.topicPrefix, this.log);
    this.relay.start();

    const consumer = this.kafka.consumer({
      groupId: `${this.topicPrefix}gateway-${randomUUID()}`,
      maxWaitTimeInMs: 100,
      retry: { restartOnFailure: async () => !this.stopped },
    });
    this.consumer = consumer;
    await consumer.connect();
    const joined = new Promise<void>((resolve) => {
      consumer.on(consumer.events.GROUP_JOIN, () => resolve());
      this.onStop = resolve; // a stop while joining ends the wait
    });
    for (const topic of [...this.sseTopics, IDENTITY_TOPIC])
      await consumer.subscribe({ topic: prefixedTopic(this.topicPrefix, topic), fromBeginning: false });
    await consumer.run({
      // an instance's group is its own and starts at the newest events: its offsets are never read back, and
      // committing them after every partition's batch put a broker round trip between each batch and the next
      autoCommit: false,
      eachMessage: ({ topic, message }) =>
        consumeTraced(topic, 'gateway', message.headers, async () => this.apply(topic, message.value)),
    });
    await joined;
  }

  /** One consumed event: to the identity cache, or to the streams of whoever may see it. */
  private apply(topic: string, value: Buffer | null) {
    const identityTopic = prefixedTopic(this.topicPrefix, IDENTITY_TOPIC);
    let envelope: EventEnvelope;
    try {
      envelope = EventEnvelope.parse(JSON.parse(value?.toString('utf8') ?? ''));
    } catch (err) {
      this.log.warn({ err, topic }, 'skipping an invalid event');
      return;
    }
    try {
      if (topic === identityTopic) this.handlers.identity(envelope);
      else this.handlers.sse(topic, envelope);
    } catch (err) {
      this.log.warn({ err, topic }, 'event not applied');
    }
  }

  private async disconnect() {
    await this.relay?.stop().catch(() => {});
    await this.consumer?.disconnect().catch(() => {});
    await this.producer?.disconnect().catch(() => {});
    this.relay = null;
    this.consumer = null;
    this.producer = null;
  }

  async stop() {
    this.stopped = true;
    this.onStop?.();
    await this.starting?.catch(() => {});
    await this.disconnect();
  }
}
