import { randomUUID } from 'node:crypto';
import {
  ENTITY_TOPICS,
  EntityChanged,
  EventEnvelope,
  prefixedTopic,
  wallet,
  type EntityContract,
  type Identity,
} from '@caravan/contracts';
import { ownsValues, type Logger } from '@caravan/service-kit';
import type { Response } from 'express';
import type { Consumer, Kafka } from 'kafkajs';

/** Browser stream types (spec §7) and the entity whose changes feed each one. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const STREAMS: Record<string, EntityContract<any>> = { wallet_item: wallet };

export type SseClient = { identity: Identity; type?: string; param?: number; res: Response };

/**
 * Fans Kafka events out to the browsers connected to this gateway instance. Each instance reads every
 * event (its own consumer group) and sends a browser only what its user may see, by the same
 * ownership rule the owning service applies.
 */
export class SseHub {
  private readonly clients = new Set<SseClient>();
  private consumer: Consumer | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  delivered = 0;

  constructor(
    private readonly kafka: Kafka,
    private readonly topicPrefix: string,
    private readonly log: Logger,
  ) {}

  async start() {
    const consumer = this.kafka.consumer({ groupId: `gateway-sse-${randomUUID()}`, maxWaitTimeInMs: 100 });
    this.consumer = consumer;
    await consumer.connect();
    const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
    const topics = [
      ...new Set(Object.values(STREAMS).map((c) => ENTITY_TOPICS[c.name as keyof typeof ENTITY_TOPICS])),
    ];
    for (const topic of topics)
      await consumer.subscribe({ topic: prefixedTopic(this.topicPrefix, topic), fromBeginning: false });
    await consumer.run({ eachMessage: async ({ message }) => this.dispatch(message.value) });
    await joined;
    this.heartbeat = setInterval(() => this.broadcastComment('ping'), 25_000);
  }

  add(client: SseClient) {
    this.clients.add(client);
    client.res.on('close', () => this.clients.delete(client));
  }

  get size() {
    return this.clients.size;
  }

  private dispatch(value: Buffer | null) {
    let change: EntityChanged;
    try {
      const envelope = EventEnvelope.parse(JSON.parse(value?.toString('utf8') ?? ''));
      change = EntityChanged.parse(envelope.data);
    } catch (err) {
      this.log.warn({ err }, 'sse: skipping an invalid event');
      return;
    }
    const type = Object.entries(STREAMS).find(([, c]) => c.name === change.entity)?.[0];
    const contract = type ? STREAMS[type] : undefined;
    if (!type || !contract) return;
    const payload = JSON.stringify({
      ok: true,
      type,
      id: change.id,
      op: change.op,
      amount: change.row.amount,
      item: change.row,
    });
    for (const client of this.clients) {
      if (client.type && client.type !== type) continue;
      if (client.param !== undefined && client.param !== change.id) continue;
      if (contract.ownership && !ownsValues(client.identity, contract.ownership, change.row)) continue;
      client.res.write(`event: ${type}\ndata: ${payload}\n\n`);
      this.delivered++;
    }
  }

  private broadcastComment(text: string) {
    for (const client of this.clients) client.res.write(`: ${text}\n\n`);
  }

  async stop() {
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const client of this.clients) client.res.end();
    this.clients.clear();
    await this.consumer?.disconnect();
  }
}
