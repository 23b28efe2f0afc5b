import {
  RECONCILE_LABELS,
  ReconcileParams,
  type AcquiringPayment,
  type ReconcileOutcome,
} from '@caravan/contracts';
import type { ServiceKit } from '@caravan/service-kit';
import { AcquirerError } from '../adapters/acquirer';
import {
  applyBankWord,
  expireNeverStarted,
  type AcquiringSetup,
  type PaymentStores,
  type Row,
} from './payment';

/**
 * A payment with no transaction id is one the bank never answered (or the service fell between the
 * bank's answer and saving it): expired only once even the slowest bank call (10 s) is long over.
 */
const NEVER_STARTED_AFTER_SECONDS = 60;

export type ReconcileSettings = { afterSeconds: number; everySeconds: number };

/**
 * Reconciliation (ADR 0014): asks the acquirer about every payment pending longer than `afterSeconds`
 * (its callback never came: the gateway or the service was down while the bank retried), one at a time
 * under its row lock taken with SKIP LOCKED — so two replicas never ask about the same payment at once,
 * and a callback arriving meanwhile waits for the lock and then finds the payment settled. What the
 * bank completed is credited by the callback's own path (`applyBankWord`, keyed by the payment: once);
 * what it declined, let expire or never started is 'expired' with the reason; a payment still on the
 * way, or a bank out of reach, stays pending for the next run.
 */
export async function reconcilePayments(
  kit: ServiceKit,
  stores: PaymentStores,
  setup: AcquiringSetup,
  afterSeconds: number,
): Promise<ReconcileOutcome> {
  const outcome: ReconcileOutcome = { asked: 0, credited: 0, expired: 0, unchanged: 0 };
  let lastId = 0;
  for (;;) {
    const step = await kit.db.transaction(async (trx) => {
      const row = (await trx('acquiring_payment')
        .where({ state: 'pending', deleted: false })
        .where('id', '>', lastId)
        .whereRaw('created_at < now() - make_interval(secs => ?)', [afterSeconds])
        .whereRaw(`(transaction_id <> '' or created_at < now() - make_interval(secs => ?))`, [
          Math.max(afterSeconds, NEVER_STARTED_AFTER_SECONDS),
        ])
        .orderBy('id')
        .forUpdate()
        .skipLocked()
        .first(stores.acquiring.stored)) as (Row & Pick<AcquiringPayment, 'transaction_id'>) | undefined;
      if (!row) return null;
      lastId = row.id;
      if (!row.transaction_id) {
        await expireNeverStarted(trx, kit, stores, row);
        return 'declined' as const;
      }
      outcome.asked++;
      try {
        const word = await setup.acquirer.getTransaction(row.transaction_id);
        return await applyBankWord(trx, kit, stores, setup, row, word, 'reconciliation');
      } catch (err) {
        if (err instanceof AcquirerError && err.notFound) {
          await expireNeverStarted(trx, kit, stores, row);
          return 'declined' as const;
        }
        if (!(err instanceof AcquirerError)) throw err;
        kit.log.warn(
          { id: row.id, err: err.message },
          'reconciliation: the bank did not answer; asked again later',
        );
        return 'unchanged' as const;
      }
    });
    if (step === null) break;
    kit.afterWrite();
    if (step === 'credited') outcome.credited++;
    else if (step === 'declined') outcome.expired++;
    else outcome.unchanged++;
  }
  if (outcome.credited || outcome.expired)
    kit.log.info(outcome, 'reconciliation: payments settled by asking the bank');
  return outcome;
}

/**
 * The periodic reconciliation (every `everySeconds`, 0 = never; one run at a time per replica, stopped
 * with the service) and `acquiring_payment_reconcile`, an admin's 'ask the bank now'.
 */
export function registerReconciliation(
  kit: ServiceKit,
  stores: PaymentStores,
  setup: AcquiringSetup,
  settings: ReconcileSettings,
) {
  let running: Promise<unknown> | null = null;
  const run = (afterSeconds: number) => {
    const current = (running ?? Promise.resolve()).then(() =>
      reconcilePayments(kit, stores, setup, afterSeconds),
    );
    running = current.catch(() => undefined);
    return current;
  };
  kit.registry.register({
    name: 'acquiring_payment_reconcile',
    params: ReconcileParams,
    labels: RECONCILE_LABELS,
    access: 'admin',
    handler: async (_ctx, p) => run(p.older_than_seconds ?? settings.afterSeconds),
  });
  if (settings.everySeconds <= 0) return;
  let stopped = false;
  const timer = setInterval(() => {
    if (stopped) return;
    run(settings.afterSeconds).catch((err: unknown) => kit.log.warn({ err }, 'reconciliation failed'));
  }, settings.everySeconds * 1000);
  timer.unref();
  kit.onStop(async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  });
}
