import { EventEnvelope, prefixedTopic } from '@caravan/contracts';
import type { Consumer, Kafka } from 'kafkajs';
import type { Db } from '../db';
import type { Logger } from '../logger';

export type EventHandler = (trx: Db, event: EventEnvelope) => Promise<void>;

/** One line of a service's subscriptions file: these topics go to this handler. */
export type Subscription = { name: string; topics: readonly string[]; handler: EventHandler };

/**
 * Consumes a subscription's topics. Each event's id goes into the inbox in the same transaction as
 * the handler's effect, so a redelivered event changes nothing. A message that is not a valid
 * envelope is logged and skipped; a handler failure rolls back and is retried by Kafka.
 */
export class InboxConsumer {
  private consumer: Consumer | null = null;
  private stopped = false;
  /** Ends a start() still waiting for its group join. */
  private onStop: (() => void) | null = null;
  handled = 0;
  duplicates = 0;

  constructor(
    private readonly kafka: Kafka,
    private readonly db: Db,
    private readonly groupId: string,
    private readonly subscription: Subscription,
    private readonly topicPrefix: string,
    private readonly log: Logger,
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
        eachMessage: async ({ topic, message }) => {
          await this.handle(topic, message.value);
        },
      });
      await joined;
    } catch (err) {
      this.consumer = null;
      await consumer.disconnect().catch(() => {});
      throw err;
    }
  }

  async handle(topic: string, value: Buffer | null): Promise<'handled' | 'duplicate' | 'invalid'> {
    let envelope: EventEnvelope;
    try {
      envelope = EventEnvelope.parse(JSON.parse(value?.toString('utf8') ?? ''));
    } catch (err) {
      this.log.warn({ err, topic }, 'skipping a message that is not a valid event envelope');
      return 'invalid';
    }
    const outcome = await this.db.transaction(async (trx) => {
      const inserted = await trx('inbox')
        .insert({ event_id: envelope.id, topic, type: envelope.type, subscription: this.subscription.name })
        .onConflict(['subscription', 'event_id'])
        .ignore()
        .returning('event_id');
      if (!inserted.length) return 'duplicate' as const;
      await this.subscription.handler(trx, envelope);
      return 'handled' as const;
    });
    if (outcome === 'handled') this.handled++;
    else this.duplicates++;
    return outcome;
  }

  async stop() {
    this.stopped = true;
    this.onStop?.();
    await this.consumer?.disconnect();
    this.consumer = null;
  }
}
