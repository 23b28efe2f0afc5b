import {
  dec,
  EntityChanged,
  EVENT_TYPES,
  paymentStatesByPaid,
  type Identity,
  type OrderPayment,
} from '@caravan/contracts';
import type { EntityStore, EventHandler, Outbox } from '@caravan/service-kit';

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
  (orders: () => EntityStore, outbox: Outbox): EventHandler =>
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
    const payer: Identity = {
      user_id: event.actor ?? 1,
      fullname: 'оплата',
      roles: ['admin'],
      state: 'working',
      client_ids: [],
      operator_ids: [],
    };
    await store.changeMany(trx, payer, outbox, [order], (row) => ({
      ...paid,
      ...paymentStatesByPaid({ ...(row as Record<string, string>), ...paid }),
    }));
  };
