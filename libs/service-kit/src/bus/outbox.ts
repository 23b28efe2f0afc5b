import { randomUUID } from 'node:crypto';
import { prefixedTopic, type EventEnvelope } from '@caravan/contracts';
import type { Knex } from 'knex';
import type { Producer } from 'kafkajs';
import type { Db } from '../db';
import type { Logger } from '../logger';
import { currentTraceCarrier, inChildSpan, startPublishing, type TraceCarrier } from '../tracing';

const OUTBOX_CHUNK = 2_000;

export type NewEvent = {
  topic: string;
  key: string | number;
  type: string;
  version?: number;
  actor: number | null;
  data: unknown;
};

/**
 * Writes events into the outbox inside the caller's transaction: they exist only if the change commits.
 * Each event carries `seq`, the outbox row's id: writers of one aggregate serialize on its row lock, so
 * a later change of the same key always gets a larger `seq` (consumers drop an event older than the
 * one they hold).
 */
export class Outbox {
  private written = false;
  /** The outermost transactions that wrote events and will call `onCommitted` when they commit. */
  private readonly watched = new WeakSet<object>();
  /**
   * Called once after each transaction that wrote events commits: the service asks its relay to run. (A
   * flag taken by whoever finished first was not enough: a call committing first took it for another's
   * transaction still open, the relay ran before that one committed, and its events waited for the poll.)
   */
  onCommitted: () => void = () => {};
  /** The envelope's `source`: the service writing (svc-payments). */
  constructor(readonly source: string) {}

  /** Marks a write: `onCommitted` follows the commit of the transaction's outermost level. */
  private wrote(trx?: Db) {
    this.written = true;
    let tx = trx as Knex.Transaction | undefined;
    if (!tx?.isTransaction || !tx.executionPromise) return;
    while (tx.parentTransaction) tx = tx.parentTransaction;
    if (this.watched.has(tx)) return;
    this.watched.add(tx);
    tx.executionPromise.then(
      () => this.onCommitted(),
      () => {}, // rolled back: nothing to publish
    );
  }

  /** True once after any write: the service then asks the relay to run (after the commit). */
  takeWritten(): boolean {
    const was = this.written;
    this.written = false;
    return was;
  }

  /** Events were written by a statement of the caller's own (a database function): the relay runs after the commit. */
  markWritten(trx?: Db) {
    this.wrote(trx);
  }

  /** The envelope of a new event, all but its seq (the outbox row's id). */
  private envelope(event: NewEvent): Omit<EventEnvelope, 'seq'> {
    return {
      id: randomUUID(),
      type: event.type,
      version: event.version ?? 1,
      occurred_at: new Date().toISOString(),
      source: this.source,
      key: String(event.key),
      actor: event.actor,
      data: event.data,
    };
  }

  /** Within a traced action the row keeps its span's context (`trace`): the relay's send continues that trace. */
  write(trx: Db, event: NewEvent): Promise<EventEnvelope> {
    return inChildSpan(`outbox write ${event.topic}`, { 'messaging.destination.name': event.topic }, () =>
      this.insert(trx, event),
    );
  }

  private async insert(trx: Db, event: NewEvent): Promise<EventEnvelope> {
    const draft = this.envelope(event);
    // one statement: the row's id is drawn first and stored inside the event as its seq
    const { rows } = (await trx.raw(
      `insert into outbox (id, event_id, topic, key, event, trace)
       select s.id, ?, ?, ?, ?::jsonb || jsonb_build_object('seq', s.id), ?::jsonb
       from (select nextval(pg_get_serial_sequence('outbox', 'id')) as id) s
       returning id`,
      [draft.id, event.topic, draft.key, JSON.stringify(draft), traceJson()],
    )) as { rows: { id: number }[] };
    this.wrote(trx);
    return { ...draft, seq: rows[0]!.id };
  }

  /**
   * Many events in one statement (a bulk change of thousands of rows): each gets its seq in the order
   * given, so events of one key keep their order.
   */
  writeMany(trx: Db, events: readonly NewEvent[]): Promise<void> {
    if (!events.length) return Promise.resolve();
    return inChildSpan('outbox write many', { 'caravan.outbox.events': events.length }, () =>
      this.insertMany(trx, events),
    );
  }

  private async insertMany(trx: Db, events: readonly NewEvent[]): Promise<void> {
    const trace = traceJson();
    for (let i = 0; i < events.length; i += OUTBOX_CHUNK) {
      const chunk = events.slice(i, i + OUTBOX_CHUNK).map((event, n) => {
        const envelope = this.envelope(event);
        return { n, event_id: envelope.id, topic: event.topic, key: envelope.key, event: envelope };
      });
      // the sequence is drawn in a subquery (volatile, so never flattened) in the order given, and stored as seq
      await trx.raw(
        `insert into outbox (id, event_id, topic, key, event, trace)
         select s.id, s.event_id::uuid, s.topic, s.key, s.event || jsonb_build_object('seq', s.id), ?::jsonb
         from (select nextval(pg_get_serial_sequence('outbox', 'id')) as id, e.*
               from (select * from jsonb_to_recordset(?::jsonb)
                       as x(n int, event_id text, topic text, key text, event jsonb) order by n) e) s`,
        [trace, JSON.stringify(chunk)],
      );
    }
    this.wrote(trx);
  }
}

/** The trace context stored with an outbox row, as JSON; null outside a traced action. */
const traceJson = () => {
  const carrier = currentTraceCarrier();
  return carrier ? JSON.stringify(carrier) : null;
};

const PRUNE_EVERY_MS = 60 * 60 * 1000;
/**
 * One produce request's events at most, in bytes of their JSON: Kafka refuses a partition's batch over its
 * message.max.bytes (1 MB by default), and a batch's rows may all be one key's.
 */
const SEND_BYTES = 512 * 1024;
/** The sent mark is retried 5 times, 100 ms doubling (3 s in all), before the claim is released. */
const MARK_RETRIES = 5;
const MARK_FIRST_RETRY_MS = 100;

/** Claim → send → mark cycles a relay runs at once by default (each needs a connection of its pool). */
export const RELAY_LANES = 2;

type OutboxRow = { id: number; topic: string; key: string; event: EventEnvelope; trace: TraceCarrier | null };

/**
 * How a relay claims and retries; the lease must outlast one send (the producer's own retries). `lanes`: how many
 * claim → send → mark cycles may run at once in this relay.
 */
export type RelayOptions = { pollMs?: number; batchSize?: number; leaseSeconds?: number; lanes?: number };

/**
 * Publishes committed outbox rows to Kafka and marks them sent, in three short steps and never inside
 * a transaction held during the send:
 * 1. claim (one statement, serialized between the replicas of a service by an advisory lock): the oldest
 *    unsent rows of keys that nobody else holds, whose first unsent row is due; the claim is a lease
 *    (`claimed_by`, `claimed_until`) on whole keys, so a second relay never sends a newer event of a key
 *    while an older one is unsent;
 * 2. send them in id order (one partition per key keeps that order);
 * 3. mark them sent, or on failure release them with exponential backoff (0.5 s doubling, at most
 *    30 s); the key waits for its oldest row, so a failure never lets a newer event overtake it.
 * A relay that dies holding a claim leaves its keys to others once the lease ends; rows it may already
 * have sent are sent again (at least once: consumers deduplicate by event id and drop stale `seq`).
 *
 * A relay runs up to `lanes` cycles at once (2 by default): rows committed while one lane sends and marks are
 * claimed by another at once instead of after that cycle. The lanes claim under the same lock and leases as two
 * relays would, so a key held by one lane waits for it (ADR 0004, addendum 2).
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private pending = false;
  private readonly cycles = new Set<Promise<void>>();
  private lastPrune = 0;
  readonly id = randomUUID();
  private readonly pollMs: number;
  private readonly batchSize: number;
  private readonly leaseSeconds: number;
  private readonly lanes: number;

  constructor(
    private readonly db: Db,
    private readonly producer: Producer,
    private readonly topicPrefix: string,
    private readonly log: Logger,
    options: RelayOptions | number = {},
  ) {
    const o = typeof options === 'number' ? { pollMs: options } : options;
    this.pollMs = o.pollMs ?? 1000;
    this.batchSize = o.batchSize ?? 500;
    this.leaseSeconds = o.leaseSeconds ?? 60;
    this.lanes = Math.max(1, o.lanes ?? RELAY_LANES);
  }

  start() {
    this.stopped = false;
    this.kick();
  }

  /** Ask for a run soon (called after a transaction that wrote events commits): a free lane starts at once. */
  kick() {
    if (this.stopped) return;
    if (this.cycles.size >= this.lanes) {
      this.pending = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const cycle: Promise<void> = this.drain().finally(() => {
      this.cycles.delete(cycle);
      if (this.stopped) return;
      if (this.pending) {
        this.pending = false;
        this.kick();
      } else if (this.cycles.size === 0) this.timer = setTimeout(() => this.kick(), this.pollMs);
    });
    this.cycles.add(cycle);
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await Promise.all([...this.cycles]);
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

  /**
   * Publishes one batch; returns how many rows it claimed. The batch goes in produce requests of at most
   * SEND_BYTES, one after another (a key's events keep their order); if one fails, the rows sent before it
   * are marked sent and the rest released.
   */
  async publishBatch(): Promise<number> {
    const rows = await this.claim();
    if (!rows.length) return 0;
    const ids = rows.map((r) => r.id);
    const values = rows.map((row) => JSON.stringify(row.event));
    const publishing = rows.map((row) =>
      startPublishing(prefixedTopic(this.topicPrefix, row.topic), row.trace),
    );
    let sent = 0;
    try {
      for (const end of chunkEnds(values, SEND_BYTES)) {
        await this.producer.sendBatch({
          topicMessages: this.toTopicMessages(rows, values, publishing, sent, end),
        });
        for (const p of publishing.slice(sent, end)) p.end();
        sent = end;
      }
    } catch (err) {
      for (const p of publishing.slice(sent)) p.end(err);
      this.log.warn({ err, count: rows.length - sent }, 'outbox publish failed, will retry');
      if (sent) await this.markSent(ids.slice(0, sent));
      await this.release(ids.slice(sent), err);
      return rows.length;
    }
    await this.markSent(ids);
    return rows.length;
  }

  /**
   * Step 3. A failed mark (its connection dropped) is retried on a fresh connection; if it never
   * works the claim is released, so newer events of those keys wait seconds, not the whole lease (the
   * rows go out again: at least once).
   */
  private async markSent(ids: number[]) {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.bookkeeping((trx) =>
          trx('outbox')
            .whereIn('id', ids)
            .update({ sent_at: trx.fn.now(), claimed_by: null, claimed_until: null }),
        );
        return;
      } catch (err) {
        if (attempt >= MARK_RETRIES) {
          this.log.error({ err, count: ids.length }, 'outbox sent mark failed; releasing the claim');
          await this.db('outbox')
            .whereIn('id', ids)
            .where({ claimed_by: this.id })
            .update({ claimed_by: null, claimed_until: null })
            .catch((e: unknown) => this.log.error({ err: e }, 'outbox claim release failed'));
          throw err;
        }
        this.log.warn({ err, attempt }, 'outbox sent mark failed, retrying');
        await new Promise((r) => setTimeout(r, MARK_FIRST_RETRY_MS * 2 ** attempt));
      }
    }
  }

  /**
   * The relay's own marks (claims, sent marks) do not wait for the disk (`synchronous_commit = off`): a mark a
   * database crash loses only sends its rows again, in order (WAL is flushed in order, so a later mark never
   * outlives an earlier one), and consumers drop repeats. The streams bench showed commits waiting 130 ms on
   * average, up to 300 ms, for a busy disk: two of them in every relay cycle held every event back.
   */
  private bookkeeping<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction(async (trx) => {
      await trx.raw('set local synchronous_commit = off');
      return work(trx);
    });
  }

  /** Step 1: takes a lease on the oldest unsent rows of free, due keys (see the class comment). */
  async claim(): Promise<OutboxRow[]> {
    return this.bookkeeping(async (trx) => {
      await trx.raw("select pg_advisory_xact_lock(hashtext(current_schema() || '.outbox-claim'))");
      const { rows } = (await trx.raw(
        `with picked as (
           select o.id from outbox o
           where o.sent_at is null
             and not exists (
               select 1 from outbox c
               where c.topic = o.topic and c.key = o.key and c.sent_at is null and c.claimed_until > now())
             and not exists (
               select 1 from outbox w
               where w.topic = o.topic and w.key = o.key and w.sent_at is null and w.id <= o.id
                 and w.next_attempt_at > now())
           order by o.id
           limit ?)
         update outbox o
         set claimed_by = ?, claimed_until = now() + ? * interval '1 second'
         from picked where o.id = picked.id
         returning o.id, o.topic, o.key, o.event, o.trace`,
        [this.batchSize, this.id, this.leaseSeconds],
      )) as { rows: OutboxRow[] };
      return rows.sort((a, b) => a.id - b.id);
    });
  }

  private async release(ids: number[], err: unknown) {
    await this.db('outbox')
      .whereIn('id', ids)
      .where({ claimed_by: this.id })
      .update({
        attempts: this.db.raw('attempts + 1'),
        last_error: String((err as Error)?.message ?? err).slice(0, 2000),
        next_attempt_at: this.db.raw("now() + least(30, 0.5 * power(2, attempts)) * interval '1 second'"),
        claimed_by: null,
        claimed_until: null,
      });
  }

  /** Rows [from, to) as messages; each carries its event's type and, for a traced row, its publish span's context. */
  private toTopicMessages(
    rows: OutboxRow[],
    values: string[],
    publishing: { headers: TraceCarrier }[],
    from: number,
    to: number,
  ) {
    const byTopic = new Map<string, { key: string; value: string; headers: Record<string, string> }[]>();
    for (let i = from; i < to; i++) {
      const row = rows[i]!;
      const topic = prefixedTopic(this.topicPrefix, row.topic);
      const list = byTopic.get(topic) ?? [];
      const headers = { ...publishing[i]?.headers, type: row.event.type };
      list.push({ key: row.key, value: values[i]!, headers });
      byTopic.set(topic, list);
    }
    return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
  }
}

/** Where each produce request ends: consecutive values of at most `bytes` together (a larger value alone). */
export function chunkEnds(values: readonly string[], bytes: number): number[] {
  const ends: number[] = [];
  let size = 0;
  values.forEach((value, i) => {
    const length = Buffer.byteLength(value);
    if (size > 0 && size + length > bytes) {
      ends.push(i);
      size = 0;
    }
    size += length;
  });
  if (values.length) ends.push(values.length);
  return ends;
}
