import type { TrackedCarrier } from '@caravan/contracts';
import type { Db, Logger, Outbox } from '@caravan/service-kit';
import { recordStatusesOfShipments, shipmentsOfPushes, type VendorPush } from './shipments';

/** The most webhooks one transaction applies: a bound on its statements' size and on its locks. */
export const WEBHOOKS_PER_TRANSACTION = 500;

type Waiting = {
  carrier: TrackedCarrier;
  pushes: readonly VendorPush[];
  done: (err?: unknown) => void;
};

export type WebhookPushesDeps = {
  db: Db;
  outbox: Outbox;
  log: Logger;
  /** After a group committed: the relay publishes its events now. */
  afterWrite: () => void;
};

/** A deadlock with a poll's transaction, or a serialization failure: the same group goes through again. */
const isRetriedConflict = (err: unknown) =>
  ['40P01', '40001'].includes((err as { code?: string })?.code ?? '');

/**
 * Webhooks applied in groups (docs/adr/0030): a webhook waits while the transaction before it commits,
 * then every webhook that came meanwhile is applied in ONE transaction (a constant number of statements
 * however many there are), and each is answered only after that commit. Alone, a webhook waits for
 * nothing; at a thousand a second one commit carries dozens. One group at a time, in arrival order: a
 * status that came after another is applied with it or after it, never before. Two statuses of one
 * shipment in one group are applied as one poll's answer is: oldest first, and never backwards. A group
 * that fails is applied webhook by webhook, so one bad push fails only its own webhook.
 */
export class WebhookPushes {
  private waiting: Waiting[] = [];
  private running = false;

  constructor(private readonly deps: WebhookPushesDeps) {}

  /** Resolves once the pushes are committed (their status rows and events), rejects when they were not. */
  record(carrier: TrackedCarrier, pushes: readonly VendorPush[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ carrier, pushes, done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (!this.running) void this.drain();
    });
  }

  private async drain() {
    this.running = true;
    try {
      while (this.waiting.length) {
        const group = this.waiting.splice(0, WEBHOOKS_PER_TRANSACTION);
        await this.applyGroup(group);
      }
    } finally {
      this.running = false;
    }
  }

  private async applyGroup(group: Waiting[]) {
    try {
      await this.applyWithRetry(group);
      for (const w of group) w.done();
    } catch (err) {
      if (group.length === 1) return group[0]!.done(err);
      for (const w of group) {
        try {
          await this.applyWithRetry([w]);
          w.done();
        } catch (own) {
          w.done(own);
        }
      }
    }
  }

  private async applyWithRetry(group: Waiting[]) {
    try {
      await this.apply(group);
    } catch (err) {
      if (!isRetriedConflict(err)) throw err;
      await this.apply(group);
    }
  }

  /** One transaction: the shipments the pushes name, then their statuses as recordStatuses records them. */
  private async apply(group: Waiting[]) {
    const confirmed_at = new Date();
    await this.deps.db.transaction(async (trx) => {
      const reported = [];
      for (const carrier of new Set(group.map((w) => w.carrier))) {
        const pushes = group.filter((w) => w.carrier === carrier).flatMap((w) => w.pushes);
        const shipments = await shipmentsOfPushes(trx, carrier, pushes);
        for (const [i, push] of pushes.entries()) {
          const shipment = shipments[i];
          if (shipment) reported.push({ shipment_id: shipment.id, statuses: [push.status] });
          else
            this.deps.log.info(
              { carrier, number: push.number },
              'carrier webhook: a shipment we do not follow',
            );
        }
      }
      await recordStatusesOfShipments(trx, reported, { confirmed_at, outbox: this.deps.outbox });
    });
    this.deps.afterWrite();
  }
}
