import { randomUUID } from 'node:crypto';
import { CARRIER_MESSAGES, type CarrierVendor, type TrackedCarrier } from '@caravan/contracts';
import type { Db, Logger, Outbox } from '@caravan/service-kit';
import {
  CarrierError,
  type Carrier,
  type CarrierCredentials,
  type ShipmentState,
  type WaybillTracker,
} from '../../adapters/carrier';
import { credentialsOf } from '../credentials';
import { recordStatuses, type Shipment } from '../shipments';
import { storeTrackedWaybill } from '../waybills';
import { realClock, vendorPace, type Clock, type TokenBucket } from './tokenBucket';

export { TokenBucket, realClock, vendorPace, type Clock } from './tokenBucket';

export type SyncSettings = {
  /** How often a replica looks for due shipments (CARRIERS_SYNC_EVERY_SECONDS; 0 = never). */
  everySeconds: number;
  /** How long after an answer a shipment is asked about again (CARRIERS_CHECK_INTERVAL_SECONDS). */
  intervalSeconds: number;
  /** How many svc-carriers replicas share each vendor's budget (CARRIERS_REPLICAS). */
  replicas: number;
  /** How long a claim holds shipments (a replica that dies mid-round leaves them to others after it). */
  leaseSeconds: number;
  /** The longest wait after failures (and the wait after a refusal): one hour. */
  backoffCapSeconds: number;
  /** First wait after a failure; doubles with each next one. */
  backoffBaseSeconds: number;
  /** ± this share of every wait, so shipments due together drift apart. */
  jitter: number;
};

type EnvLike = Record<string, string | undefined>;
const numberOf = (env: EnvLike, name: string, fallback: number) => {
  const value = Number(env[name] ?? '');
  return env[name] !== undefined && env[name] !== '' && Number.isFinite(value) && value >= 0
    ? value
    : fallback;
};

export const syncSettings = (env: EnvLike): SyncSettings => ({
  everySeconds: numberOf(env, 'CARRIERS_SYNC_EVERY_SECONDS', 60),
  intervalSeconds: numberOf(env, 'CARRIERS_CHECK_INTERVAL_SECONDS', 900),
  replicas: Math.max(1, Math.floor(numberOf(env, 'CARRIERS_REPLICAS', 1))),
  leaseSeconds: numberOf(env, 'CARRIERS_SYNC_LEASE_SECONDS', 120),
  backoffCapSeconds: 3600,
  backoffBaseSeconds: 30,
  jitter: 0.1,
});

/** A shipment claimed for one round. */
type Claimed = Shipment;

export type RoundOutcome = { asked: number; answered: number; failed: number; events: number };

export type SyncDeps = {
  db: Db;
  outbox: Outbox;
  log: Logger;
  /** After a transaction that wrote events committed (kit.afterWrite): the relay publishes now. */
  afterWrite?: () => void;
  carriers: ReadonlyMap<TrackedCarrier, Carrier>;
  /** The Chinese tracker and its account: registered waybills not yet arrived are polled too. */
  tracker?: WaybillTracker | null;
  trackerAccount?: CarrierCredentials | null;
  credentials?: (db: Db, operatorId: number, carrier: TrackedCarrier) => Promise<CarrierCredentials | null>;
  clock?: Clock;
  random?: () => number;
};

/**
 * The background sync (ADR 0020): each round every replica claims due shipments of each vendor
 * (`for update skip locked`, then a lease, so two replicas never ask about one shipment in one round),
 * asks the vendor in batches of its batchSize, paced by a token bucket at its documented rate divided
 * by the replicas, records what it said and sets the next check. Vendors run side by side: one that does
 * not answer holds up only its own shipments.
 */
export class ShipmentSync {
  readonly owner = randomUUID();
  private readonly buckets = new Map<TrackedCarrier, TokenBucket>();
  private waybillBucket: TokenBucket | null = null;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly credentials: NonNullable<SyncDeps['credentials']>;
  private readonly abort = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: SyncDeps,
    private readonly settings: SyncSettings,
  ) {
    this.clock = deps.clock ?? realClock;
    this.random = deps.random ?? Math.random;
    this.credentials = deps.credentials ?? credentialsOf;
  }

  /** Spreads what fell due while no replica ran, then runs a round every `everySeconds`. */
  async start() {
    if (this.settings.everySeconds <= 0) return;
    await this.spreadDue();
    this.schedule();
  }

  async stop() {
    this.abort.abort();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule() {
    if (this.abort.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.running = this.runRound()
        .catch((err: unknown) => this.deps.log.warn({ err }, 'carrier sync round failed'))
        .finally(() => this.schedule());
    }, this.settings.everySeconds * 1000);
    this.timer.unref();
  }

  /**
   * After a restart every shipment that fell due meanwhile would be asked at once: they are spread
   * over one check interval instead (a storm of requests would hit the vendors' limits).
   */
  async spreadDue() {
    await this.deps.db.raw(
      `update shipment set next_check_at = now() + make_interval(secs => random() * ?)
       where not final and next_check_at <= now() and (lease_until is null or lease_until < now())`,
      [this.settings.intervalSeconds],
    );
  }

  /** One round: every vendor's due shipments, vendors side by side. */
  async runRound(): Promise<RoundOutcome> {
    const outcome: RoundOutcome = { asked: 0, answered: 0, failed: 0, events: 0 };
    await Promise.all([
      ...[...this.deps.carriers.values()].map((carrier) =>
        this.runVendor(carrier, outcome).catch((err: unknown) =>
          this.deps.log.warn({ err, vendor: carrier.vendor }, 'carrier sync of a vendor failed'),
        ),
      ),
      this.runWaybills(outcome).catch((err: unknown) =>
        this.deps.log.warn({ err, vendor: 'cnt' }, 'waybill sync failed'),
      ),
    ]);
    return outcome;
  }

  /**
   * Registered Chinese waybills not yet arrived, claimed like shipments (moving `next_check_at` a lease
   * ahead is the claim), asked one by one at the tracker's pace.
   */
  private async runWaybills(outcome: RoundOutcome) {
    const { tracker, trackerAccount } = this.deps;
    if (!tracker || !trackerAccount) return;
    this.waybillBucket ??= vendorPace(
      tracker.rateLimit.requestsPerSecond,
      this.settings.replicas,
      this.clock,
    );
    const bucket = this.waybillBucket;
    while (!this.abort.signal.aborted) {
      const { rows } = (await this.deps.db.raw(
        `update cnt_waybill w set next_check_at = now() + make_interval(secs => ?)
         from (select id from cnt_waybill where not arrived and next_check_at <= now()
               order by next_check_at, id limit 40 for update skip locked) due
         where w.id = due.id
         returning w.id, w.waybill`,
        [this.settings.leaseSeconds],
      )) as { rows: Array<{ id: number; waybill: string }> };
      if (!rows.length) return;
      for (const row of rows) {
        await bucket.take(this.abort.signal);
        if (this.abort.signal.aborted) return;
        outcome.asked++;
        await this.askWaybill(tracker, trackerAccount, bucket, row, outcome);
      }
    }
  }

  private async askWaybill(
    tracker: WaybillTracker,
    account: CarrierCredentials,
    bucket: TokenBucket,
    row: { id: number; waybill: string },
    outcome: RoundOutcome,
  ) {
    const db = this.deps.db;
    try {
      const tracked = await tracker.get(account, row.waybill);
      if (tracked) await db.transaction((trx) => storeTrackedWaybill(trx, this.deps.outbox, tracked));
      this.deps.afterWrite?.();
      outcome.answered++;
      await db('cnt_waybill')
        .where({ id: row.id })
        .update({ next_check_at: this.after(this.settings.intervalSeconds * 1000), last_error: null });
    } catch (err) {
      const failure = asFailure('cnt', err);
      if (failure.kind === 'rate_limited') bucket.pause(failure.retryAfterMs ?? this.backoffMs(1));
      const waitMs =
        failure.kind === 'unavailable' || failure.kind === 'rate_limited'
          ? this.backoffMs(1)
          : this.settings.backoffCapSeconds * 1000;
      outcome.failed++;
      await db('cnt_waybill')
        .where({ id: row.id })
        .update({ next_check_at: this.after(waitMs), last_error: failure.message });
    }
  }

  /** A moment `ms` from now, ± jitter. */
  private after(ms: number) {
    return new Date(this.clock.now() + ms * (1 + this.settings.jitter * (this.random() * 2 - 1)));
  }

  private bucketOf(carrier: Carrier) {
    let bucket = this.buckets.get(carrier.vendor);
    if (!bucket) {
      bucket = vendorPace(carrier.rateLimit.requestsPerSecond, this.settings.replicas, this.clock);
      this.buckets.set(carrier.vendor, bucket);
    }
    return bucket;
  }

  /**
   * Claims at most what the vendor's budget serves in a third of the lease (ten batches at a time, so
   * replicas share a round), until none is due.
   */
  private async runVendor(carrier: Carrier, outcome: RoundOutcome) {
    const perSecond = carrier.rateLimit.requestsPerSecond / this.settings.replicas;
    const chunk = Math.max(
      carrier.batchSize,
      Math.floor(perSecond * carrier.batchSize * (this.settings.leaseSeconds / 3)),
    );
    while (!this.abort.signal.aborted) {
      const claimed = await this.claim(carrier.vendor, Math.min(chunk, carrier.batchSize * 10, 1000));
      if (!claimed.length) return;
      for (const [operatorId, shipments] of groupBy(claimed, (s) => s.operator_id))
        await this.askForOperator(carrier, operatorId, shipments, outcome);
    }
  }

  /** Due shipments of one vendor nobody holds, leased to this replica (one short transaction). */
  private async claim(vendor: TrackedCarrier, limit: number): Promise<Claimed[]> {
    const { rows } = (await this.deps.db.raw(
      `update shipment s set lease_owner = ?, lease_until = now() + make_interval(secs => ?)
       from (select id from shipment
             where carrier = ? and not final and next_check_at <= now()
               and (lease_until is null or lease_until < now())
             order by next_check_at, id
             limit ? for update skip locked) due
       where s.id = due.id
       returning s.id, s.client_order_id, s.operator_id, s.client_id, s.carrier, s.number, s.uuid,
                 s.vendor_status, s.status_at, s.final, s.failures`,
      [this.owner, this.settings.leaseSeconds, vendor, limit],
    )) as { rows: Claimed[] };
    return rows.map((r) => ({ ...r, id: Number(r.id), operator_id: Number(r.operator_id) }));
  }

  private async askForOperator(
    carrier: Carrier,
    operatorId: number,
    shipments: Claimed[],
    outcome: RoundOutcome,
  ) {
    const credentials = await this.credentials(this.deps.db, operatorId, carrier.vendor);
    if (!credentials) {
      await this.settle(shipments, { kind: 'refused', message: CARRIER_MESSAGES.noApiData });
      outcome.failed += shipments.length;
      return;
    }
    for (let i = 0; i < shipments.length && !this.abort.signal.aborted; i += carrier.batchSize) {
      const batch = shipments.slice(i, i + carrier.batchSize);
      await this.askBatch(carrier, credentials, batch, outcome);
    }
    // what a stop left unasked goes back at once: the next replica takes it
    await this.release(shipments);
  }

  /** One vendor call; a 429 pauses the whole vendor for its Retry-After and the batch is asked again. */
  private async askBatch(
    carrier: Carrier,
    credentials: CarrierCredentials,
    batch: Claimed[],
    outcome: RoundOutcome,
  ) {
    const bucket = this.bucketOf(carrier);
    const keys = batch.map(keyOf);
    for (let attempt = 1; ; attempt++) {
      await bucket.take(this.abort.signal);
      if (this.abort.signal.aborted) return;
      outcome.asked++;
      let states: ShipmentState[];
      try {
        states = await carrier.getStatuses(credentials, keys);
      } catch (err) {
        const failure = asFailure(carrier.vendor, err);
        if (failure.kind === 'rate_limited') {
          const waitMs = failure.retryAfterMs ?? this.backoffMs(attempt);
          bucket.pause(waitMs);
          // asked again in this round while the lease lasts; else at the vendor's moment
          if (attempt < 3 && waitMs < (this.settings.leaseSeconds * 1000) / 4) continue;
          await this.settle(batch, failure, waitMs);
        } else {
          if (!(err instanceof CarrierError))
            this.deps.log.warn({ err, vendor: carrier.vendor }, 'carrier sync: unexpected failure');
          await this.settle(batch, failure);
        }
        outcome.failed += batch.length;
        return;
      }
      outcome.events += await this.answered(batch, states);
      outcome.answered += batch.length;
      return;
    }
  }

  /** The vendor answered: each shipment's statuses are recorded and its next check set (one transaction). */
  private async answered(batch: Claimed[], states: ShipmentState[]): Promise<number> {
    const now = new Date(this.clock.now());
    let events = 0;
    await this.deps.db.transaction(async (trx) => {
      for (const shipment of batch) {
        const state = states.find(
          (s) =>
            (shipment.number && s.number === shipment.number) || (shipment.uuid && s.uuid === shipment.uuid),
        );
        if (state) {
          events += (
            await recordStatuses(trx, shipment, state.statuses, {
              confirmed_at: now,
              outbox: this.deps.outbox,
            })
          ).length;
          await this.nextCheck(trx, shipment, this.settings.intervalSeconds * 1000, {});
        } else {
          const message = CARRIER_MESSAGES.refused(shipment.carrier, 'груз с таким номером не найден');
          await this.nextCheck(trx, shipment, this.settings.intervalSeconds * 1000, { last_error: message });
        }
      }
    });
    if (events) this.deps.afterWrite?.();
    return events;
  }

  /** A failed call: retryable ones back off per shipment (capped), refusals wait the cap. */
  private async settle(batch: Claimed[], failure: Failure, waitMs?: number) {
    await this.deps.db.transaction(async (trx) => {
      for (const shipment of batch) {
        const failures = shipment.failures + 1;
        const ms =
          waitMs ??
          (failure.kind === 'unavailable'
            ? this.backoffMs(failures)
            : this.settings.backoffCapSeconds * 1000);
        await this.nextCheck(trx, shipment, ms, { last_error: failure.message, failures });
      }
    });
  }

  private backoffMs(failures: number) {
    const { backoffBaseSeconds, backoffCapSeconds } = this.settings;
    return Math.min(backoffCapSeconds, backoffBaseSeconds * 2 ** Math.max(0, failures - 1)) * 1000;
  }

  /** Sets when to ask again (± jitter) and ends this replica's lease. */
  private async nextCheck(
    trx: Db,
    shipment: Claimed,
    afterMs: number,
    changes: { last_error?: string; failures?: number },
  ) {
    await trx('shipment')
      .where({ id: shipment.id, lease_owner: this.owner })
      .update({
        ...changes,
        next_check_at: this.after(afterMs),
        lease_owner: null,
        lease_until: null,
        updated_at: trx.fn.now(),
      });
  }

  private async release(shipments: Claimed[]) {
    await this.deps
      .db('shipment')
      .whereIn(
        'id',
        shipments.map((s) => s.id),
      )
      .where({ lease_owner: this.owner })
      .update({ lease_owner: null, lease_until: null });
  }
}

type Failure = { kind: CarrierError['kind']; message: string; retryAfterMs?: number };

function asFailure(vendor: CarrierVendor, err: unknown): Failure {
  if (err instanceof CarrierError)
    return { kind: err.kind, message: err.message, retryAfterMs: err.retryAfterMs };
  return { kind: 'unavailable', message: CARRIER_MESSAGES.noAnswer(vendor) };
}

/** What a shipment is asked by: its number, or the uuid while the vendor has given no number yet. */
const keyOf = (s: Claimed) => s.number ?? s.uuid ?? '';

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
