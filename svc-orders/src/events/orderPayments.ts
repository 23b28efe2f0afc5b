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

/** The paid amounts of one order carried by a payment event, with its account's sequence after it. */
type Carried = { orderId: number; product_paid_rur: string; delivery_paid_rur: string; seq: number | null };

/**
 * A payment recorded by svc-payments (ADR 0012) sets the order's paid amounts to the totals it carries
 * and the payment states those lead to, with the order's history and its event (the open card updates
 * live). A transfer of paid amount (ADR 0013) is one payment carrying two orders: the taking order and
 * the giving one, each with its amounts after it. Amounts now shrink too, so each order applies the
 * newest sequence of svc-payments' account only (an event arriving late or again changes nothing);
 * events recorded before sequences existed keep the larger of stored and carried.
 */
export const orderPaymentHandler =
  (orders: () => EntityStore, positions: () => EntityStore, outbox: Outbox): EventHandler =>
  async (trx, event) => {
    if (event.type !== EVENT_TYPES.entityChanged) return;
    const change = EntityChanged.parse(event.data);
    if (change.op !== 'created') return;
    const payment = change.row as unknown as OrderPayment & {
      paid_seq?: number | string | null;
      source_order_id?: number | null;
      source_product_paid_rur?: string | null;
      source_delivery_paid_rur?: string | null;
      source_paid_seq?: number | string | null;
    };
    const seqOf = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    const carried: Carried[] = [
      {
        orderId: Number(payment.client_order_id),
        product_paid_rur: payment.product_paid_rur,
        delivery_paid_rur: payment.delivery_paid_rur,
        seq: seqOf(payment.paid_seq),
      },
    ];
    if (payment.source_order_id)
      carried.push({
        orderId: Number(payment.source_order_id),
        product_paid_rur: String(payment.source_product_paid_rur),
        delivery_paid_rur: String(payment.source_delivery_paid_rur),
        seq: seqOf(payment.source_paid_seq),
      });
    const payer = identityOf({ user_id: event.actor ?? 1, fullname: 'оплата', roles: ['admin'] });
    // the orders' rows in id order, as every writer of several orders locks them
    for (const paid of carried.sort((a, b) => a.orderId - b.orderId))
      await applyPaid(trx, orders(), positions(), payer, outbox, paid);
  };

async function applyPaid(
  trx: Db,
  store: EntityStore,
  positions: EntityStore,
  payer: Identity,
  outbox: Outbox,
  carried: Carried,
) {
  const [order] = (await trx('client_order')
    .where({ id: carried.orderId })
    .forUpdate()
    .select(store.stored)) as Row[];
  if (!order) return;
  let paid: { product_paid_rur: string; delivery_paid_rur: string };
  if (carried.seq === null) {
    paid = {
      product_paid_rur: larger(order.product_paid_rur, carried.product_paid_rur),
      delivery_paid_rur: larger(order.delivery_paid_rur, carried.delivery_paid_rur),
    };
  } else {
    const applied = (await trx('order_paid_seq').where({ client_order_id: order.id }).first('seq')) as
      { seq: string } | undefined;
    if (applied && Number(applied.seq) >= carried.seq) return;
    await trx.raw(
      `insert into order_paid_seq (client_order_id, seq) values (?, ?)
       on conflict (client_order_id) do update set seq = excluded.seq`,
      [order.id, carried.seq],
    );
    paid = { product_paid_rur: carried.product_paid_rur, delivery_paid_rur: carried.delivery_paid_rur };
  }
  const states = paymentStatesByPaid({ ...(order as Record<string, string>), ...paid });
  await store.changeMany(trx, payer, outbox, [order], () => ({ ...paid, ...states }));
  if (states.product_payment_state === 'paid')
    await markPositionsPaid(trx, positions, payer, outbox, order.id);
}

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
