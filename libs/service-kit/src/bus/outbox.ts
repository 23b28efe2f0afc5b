import { randomUUID } from 'node:crypto';
import { prefixedTopic, type EventEnvelope } from '@caravan/contracts';
import type { Producer } from 'kafkajs';
import type { Db } from '../db';
import type { Logger } from '../logger';

export type NewEvent = {
  topic: string;
  key: string | number;
  type: string;
  version?: number;
  actor: number | null;
  data: unknown;
};

/** Writes events into the outbox inside the caller's transaction: they exist only if the change commits. */
export class Outbox {
  private written = false;
  constructor(private readonly source: string) {}

  /** True once after any write: the service then asks the relay to run (after the commit). */
  takeWritten(): boolean {
    const was = this.written;
    this.written = false;
    return was;
  }

  async write(trx: Db, event: NewEvent): Promise<EventEnvelope> {
    const envelope: EventEnvelope = {
      id: randomUUID(),
      type: event.type,
      version: event.version ?? 1,
      occurred_at: new Date().toISOString(),
      source: this.source,
      key: String(event.key),
      actor: event.actor,
      data: event.data,
    };
    await trx('outbox').insert({
      event_id: envelope.id,
      topic: event.topic,
      key: envelope.key,
      event: JSON.stringify(envelope),
    });
    this.written = true;
    return envelope;
  }
}

const PRUNE_EVERY_MS = 60 * 60 * 1000;

type OutboxRow = { id: number; topic: string; key: string; event: EventEnvelope };

/**
 * Publishes committed outbox rows to Kafka and marks them sent. Rows are claimed with
 * FOR UPDATE SKIP LOCKED so several replicas never publish the same row at once; a failed send is
 * retried with exponential backoff (0.5 s doubling, at most 30 s).
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private stopped = true;
  private pending = false;
  private idle: Promise<void> = Promise.resolve();
  private lastPrune = 0;

  constructor(
    private readonly db: Db,
    private readonly producer: Producer,
    private readonly topicPrefix: string,
    private readonly log: Logger,
    private readonly pollMs = 1000,
    private readonly batchSize = 100,
  ) {}

  start() {
    this.stopped = false;
    this.kick();
  }

  /** Ask for a run soon (called after a transaction that wrote events commits). */
  kick() {
    if (this.stopped) return;
    if (this.running) {
      this.pending = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = true;
    this.idle = this.drain().finally(() => {
      this.running = false;
      if (this.stopped) return;
      if (this.pending) {
        this.pending = false;
        this.kick();
      } else this.timer = setTimeout(() => this.kick(), this.pollMs);
    });
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.idle;
  }

  private async drain() {
    try {
      while (!this.stopped && (await this.publishBatch()) === this.batchSize);
      if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) await this.prune();
    } catch (err) {
      this.log.warn({ err }, 'outbox relay run failed');
    }
  }

  /**
   * Published outbox rows are kept a week for inspection; inbox marks two weeks, longer than Kafka keeps
   * a message (7 days), so a redelivery always still finds its mark.
   */
  async prune() {
    this.lastPrune = Date.now();
    await this.db('outbox')
      .whereNotNull('sent_at')
      .where('sent_at', '<', this.db.raw("now() - interval '7 days'"))
      .delete();
    await this.db('inbox').where('handled_at', '<', this.db.raw("now() - interval '14 days'")).delete();
  }

  /** Publishes one batch; returns how many rows it claimed. */
  async publishBatch(): Promise<number> {
    return this.db.transaction(async (trx) => {
      const rows: OutboxRow[] = await trx('outbox')
        .select('id', 'topic', 'key', 'event')
        .whereNull('sent_at')
        .where('next_attempt_at', '<=', trx.fn.now())
        .orderBy('id')
        .limit(this.batchSize)
        .forUpdate()
        .skipLocked();
      if (!rows.length) return 0;
      const ids = rows.map((r) => r.id);
      try {
        await this.producer.sendBatch({ topicMessages: this.toTopicMessages(rows) });
        await trx('outbox').whereIn('id', ids).update({ sent_at: trx.fn.now() });
      } catch (err) {
        this.log.warn({ err, count: rows.length }, 'outbox publish failed, will retry');
        await trx('outbox')
          .whereIn('id', ids)
          .update({
            attempts: trx.raw('attempts + 1'),
            last_error: String((err as Error)?.message ?? err).slice(0, 2000),
            next_attempt_at: trx.raw("now() + least(30, 0.5 * power(2, attempts)) * interval '1 second'"),
          });
      }
      return rows.length;
    });
  }

  private toTopicMessages(rows: OutboxRow[]) {
    const byTopic = new Map<string, { key: string; value: string; headers: Record<string, string> }[]>();
    for (const row of rows) {
      const topic = prefixedTopic(this.topicPrefix, row.topic);
      const list = byTopic.get(topic) ?? [];
      list.push({ key: row.key, value: JSON.stringify(row.event), headers: { type: row.event.type } });
      byTopic.set(topic, list);
    }
    return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
  }
}
