import { EventEnvelope, prefixedTopic } from '@caravan/contracts';
import type { Consumer, IHeaders, Kafka } from 'kafkajs';
import type { Db } from '../db';
import type { Logger } from '../logger';
import { consumeTraced } from '../tracing';

export type EventHandler = (trx: Db, event: EventEnvelope) => Promise<void>;

/**
 * One line of a service's subscriptions file: these topics go to this handler. `partitionsAtOnce` (default 1)
 * lets a handler that is safe beside itself — as it is beside another replica's — take that many partitions'
 * events at once; each partition's events still come one after another, in order.
 */
export type Subscription = {
  name: string;
  topics: readonly string[];
  handler: EventHandler;
  partitionsAtOnce?: number;
  /**
   * The event types the handler acts on (default: every type). Others on its topics are passed over without a
   * transaction: there is nothing to mark when nothing is done (a subscription hearing one type on a busy topic
   * otherwise commits an empty transaction per event).
   */
  types?: readonly string[];
};

/** What became of an event: applied, applied before, not an event, or of a type the subscription does not act on. */
export type InboxOutcome = 'handled' | 'duplicate' | 'invalid' | 'skipped';

/** A consumed message: its value and headers (the trace context of the action that wrote it). */
type Message = { value: Buffer | null; headers?: IHeaders };
type Pending = { event: EventEnvelope; headers?: IHeaders; at: number };

/** At most this many events of a partition share one transaction (docs/adr/0004, addendum: one commit for many). */
export const INBOX_BATCH_EVENTS = 100;

/**
 * Consumes a subscription's topics. Each event's id goes into the inbox in the same transaction as
 * the handler's effect, so a redelivered event changes nothing. A message that is not a valid
 * envelope is logged and skipped; a handler failure rolls back and is retried by Kafka.
 * The events a fetch brings of one partition are applied together, in order, in one transaction (one inbox
 * insert, one commit); if that transaction fails they are applied again one by one, so a failing event
 * fails alone and the others are not held back by it.
 */
export class InboxConsumer {
  private consumer: Consumer | null = null;
  private stopped = false;
  /** Ends a start() still waiting for its group join. */
  private onStop: (() => void) | null = null;
  handled = 0;
  duplicates = 0;
  skipped = 0;

  constructor(
    private readonly kafka: Kafka,
    private readonly db: Db,
    private readonly groupId: string,
    private readonly subscription: Subscription,
    private readonly topicPrefix: string,
    private readonly log: Logger,
    /** After a handled event committed: a handler that wrote events has them published now, not at the relay's next poll. */
    private readonly afterHandled: (envelope: EventEnvelope) => void = () => {},
  ) {}

  /** Connects, subscribes and waits for the group join; on failure leaves nothing connected (the bus retries). */
  async start(): Promise<void> {
    this.stopped = false;
    const consumer = this.kafka.consumer({
      groupId: this.groupId,
      maxWaitTimeInMs: 100,
      allowAutoTopicCreation: false,
      // a consumer stopped while it was still joining must not restart itself after the stop
      retry: { restartOnFailure: async () => !this.stopped },
    });
    this.consumer = consumer;
    try {
      await consumer.connect();
      const joined = new Promise<void>((resolve) => {
        consumer.on(consumer.events.GROUP_JOIN, () => resolve());
        this.onStop = resolve;
      });
      for (const topic of this.subscription.topics)
        await consumer.subscribe({ topic: prefixedTopic(this.topicPrefix, topic), fromBeginning: true });
      await consumer.run({
        partitionsConsumedConcurrently: this.subscription.partitionsAtOnce ?? 1,
        eachBatchAutoResolve: false,
        eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
          for (let i = 0; i < batch.messages.length; i += INBOX_BATCH_EVENTS) {
            if (!isRunning() || isStale()) return;
            const chunk = batch.messages.slice(i, i + INBOX_BATCH_EVENTS);
            await this.handleMany(batch.topic, chunk);
            resolveOffset(chunk[chunk.length - 1]!.offset);
            await heartbeat();
          }
        },
      });
      await joined;
    } catch (err) {
      this.consumer = null;
      await consumer.disconnect().catch(() => {});
      throw err;
    }
  }

  /** An event of this subscription's, or why not. */
  private read(topic: string, value: Buffer | null): EventEnvelope | 'invalid' | 'skipped' {
    let envelope: EventEnvelope;
    try {
      envelope = EventEnvelope.parse(JSON.parse(value?.toString('utf8') ?? ''));
    } catch (err) {
      this.log.warn({ err, topic }, 'skipping a message that is not a valid event envelope');
      return 'invalid';
    }
    const { types } = this.subscription;
    return types && !types.includes(envelope.type) ? 'skipped' : envelope;
  }

  async handle(topic: string, value: Buffer | null): Promise<InboxOutcome> {
    const [outcome] = await this.handleMany(topic, [{ value }]);
    return outcome!;
  }

  /** Applies the messages' events (one partition's, in order); returns what became of each. */
  async handleMany(topic: string, messages: Message[]): Promise<InboxOutcome[]> {
    const read = messages.map((m) => this.read(topic, m.value));
    const outcomes: (InboxOutcome | null)[] = read.map((r) => (typeof r === 'string' ? r : null));
    const pending = read.flatMap((r, at) =>
      typeof r === 'string' ? [] : [{ event: r, headers: messages[at]!.headers, at }],
    );
    try {
      if (pending.length > 1) {
        const applied = await this.db
          .transaction((trx) => this.applyAll(trx, topic, pending))
          .catch((err: unknown) => {
            this.log.info(
              { err, topic, count: pending.length },
              'inbox: a batch failed, applying its events one by one',
            );
            return null;
          });
        applied?.forEach((outcome, j) => (outcomes[pending[j]!.at] = outcome));
      }
      // alone (or again one by one): a failing event throws here, after the ones before it were applied
      for (const one of pending) {
        if (outcomes[one.at]) continue;
        outcomes[one.at] = (await this.db.transaction((trx) => this.applyAll(trx, topic, [one])))[0]!;
      }
      return outcomes as InboxOutcome[];
    } finally {
      this.count(outcomes, read);
    }
  }

  private count(outcomes: (InboxOutcome | null)[], read: (EventEnvelope | string)[]) {
    outcomes.forEach((outcome, i) => {
      if (outcome === 'handled') {
        this.handled++;
        this.afterHandled(read[i] as EventEnvelope);
      } else if (outcome === 'duplicate') this.duplicates++;
      else if (outcome === 'skipped') this.skipped++;
    });
  }

  /** Marks the events in the inbox at once, then applies the ones not marked before, in order. */
  private async applyAll(trx: Db, topic: string, messages: Pending[]): Promise<InboxOutcome[]> {
    const byId = new Map(messages.map(({ event }) => [event.id, event]));
    const inserted = await trx('inbox')
      .insert(
        [...byId.values()].map((e) => ({
          event_id: e.id,
          topic,
          type: e.type,
          subscription: this.subscription.name,
        })),
      )
      .onConflict(['subscription', 'event_id'])
      .ignore()
      .returning('event_id');
    // PostgreSQL answers a uuid in lower case, whatever case the event came in
    const fresh = new Set(inserted.map((r: { event_id: string }) => r.event_id.toLowerCase()));
    const outcomes: InboxOutcome[] = [];
    for (const { event, headers } of messages) {
      // an event twice in one batch is applied at its first place only
      if (!fresh.delete(event.id.toLowerCase())) {
        outcomes.push('duplicate');
        continue;
      }
      // the handling continues the trace of the action that wrote the event (the message's traceparent)
      await consumeTraced(topic, this.groupId, headers, () => this.subscription.handler(trx, event));
      outcomes.push('handled');
    }
    return outcomes;
  }

  async stop() {
    this.stopped = true;
    this.onStop?.();
    await this.consumer?.disconnect();
    this.consumer = null;
  }
}
