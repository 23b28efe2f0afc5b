import {
  dec,
  EntityChanged,
  EVENT_TYPES,
  paymentStatesByPaid,
  type Identity,
  type OrderPayment,
} from '@caravan/contracts';
import { identityOf, type Db, type EntityStore, type EventHandler, type Outbox } from '@caravan/service-kit';

type Row = Record<string, unknown> & { id: number; deleted: boolean };

/** The larger of two amounts: paid amounts only grow, so the newest payment's totals win in any order. */
const larger = (a: unknown, b: string) => {
  const stored = String(a ?? '0');
  return dec(stored) >= dec(b) ? stored : b;
};

/**
 * A payment recorded by svc-payments (ADR 0012) sets the order's paid amounts to the totals it carries
 * and the payment states those lead to, with the order's history and its event (the open card updates
 * live). Paid amounts only grow, so taking the larger of stored and carried makes a redelivered or a
 * late event change nothing; the inbox makes each event count once anyway.
 */
export const orderPaymentHandler =
  (orders: () => EntityStore, positions: () => EntityStore, outbox: Outbox): EventHandler =>
  async (trx, event) => {
    if (event.type !== EVENT_TYPES.entityChanged) return;
    const change = EntityChanged.parse(event.data);
    if (change.op !== 'created') return;
    const payment = change.row as unknown as OrderPayment;
    const store = orders();
    const [order] = (await trx('client_order')
      .where({ id: payment.client_order_id })
      .forUpdate()
      .select(store.stored)) as Row[];
    if (!order) return;
    const paid = {
      product_paid_rur: larger(order.product_paid_rur, payment.product_paid_rur),
      delivery_paid_rur: larger(order.delivery_paid_rur, payment.delivery_paid_rur),
    };
    const payer = identityOf({ user_id: event.actor ?? 1, fullname: 'оплата', roles: ['admin'] });
    const states = paymentStatesByPaid({ ...(order as Record<string, string>), ...paid });
    await store.changeMany(trx, payer, outbox, [order], () => ({ ...paid, ...states }));
    if (states.product_payment_state === 'paid')
      await markPositionsPaid(trx, positions(), payer, outbox, order.id);
  };

/**
 * The product paid in full: the order's positions awaiting payment become 'оплачена' (spec §4's
 * position stage buyout_waiting), so staff see what to buy out. Partly paid leaves them waiting.
 */
async function markPositionsPaid(
  trx: Db,
  store: EntityStore,
  payer: Identity,
  outbox: Outbox,
  orderId: number,
) {
  const waiting = (await trx('client_order_position')
    .where({ client_order_id: orderId, deleted: false, stage: 'created' })
    .orderBy('id')
    .forUpdate()
    .select(store.stored)) as Row[];
  await store.changeMany(trx, payer, outbox, waiting, () => ({ stage: 'buyout_waiting' }));
}
