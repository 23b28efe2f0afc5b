import {
  dec,
  decFormat,
  isAdmin,
  MESSAGES,
  PAYMENT_MESSAGES,
  paymentClosedReason,
  payableNow,
  paymentStatesByPaid,
  type Identity,
  type OrderPaymentPricing,
  type PaymentKind,
} from '@caravan/contracts';
import { BusinessError, type Db, type EntityStore, type Outbox } from '@caravan/service-kit';

/** The order as svc-payments knows it: svc-orders' row in the replica (ARCHITECTURE §6). */
export type OrderReplica = OrderPaymentPricing & {
  id: number;
  title: string;
  client_id: number;
  operator_id: number | null;
  stage: string;
  state: string;
  deleted: boolean;
};
/** What svc-payments itself recorded as paid for an order (order_account): the source of the paid amounts. */
export type Paid = { product_paid_rur: string; delivery_paid_rur: string };
/** The paid amounts with the account's count of changes (each payment or transfer adds one; ADR 0013). */
export type Account = Paid & { seq: number };

/**
 * The order if the caller may see it (an admin any, a client their clients', an operator their
 * operators'); anything else reads as not found, as an order of another tenant must.
 */
export async function readableOrder(db: Db, identity: Identity, orderId: number): Promise<OrderReplica> {
  const row = (await db('replica').where({ entity: 'client_order', id: orderId }).first('data')) as
    { data: OrderReplica } | undefined;
  const order = row?.data;
  if (!order || order.deleted) throw new BusinessError(MESSAGES.notFound);
  const mine =
    isAdmin(identity) ||
    identity.client_ids.includes(Number(order.client_id)) ||
    (order.operator_id !== null && identity.operator_ids.includes(Number(order.operator_id)));
  if (!mine) throw new BusinessError(MESSAGES.notFound);
  return order;
}

/** Only the order's client (or an admin) pays it; its operator sees it but does not move the client's money. */
export function assertPayer(identity: Identity, order: OrderReplica) {
  if (!isAdmin(identity) && !identity.client_ids.includes(Number(order.client_id)))
    throw new BusinessError(MESSAGES.accessDenied);
}

const money = (v: unknown) => decFormat(dec(String(v ?? '0')), 2);
/**
 * The order's paid amounts, locked: payments of one order queue here (and only here). The account
 * opens with what the order already showed as paid (amounts recorded before svc-payments took them).
 */
export async function lockPaid(trx: Db, order: OrderReplica): Promise<Account> {
  return lockAccount(trx, order.id, order);
}

/**
 * The account of an order by id, locked; opened with `seen` (what the order showed as paid) when it
 * has none yet. Accounts of several orders are locked in id order by the caller.
 */
export async function lockAccount(
  trx: Db,
  orderId: number,
  seen: { product_paid_rur?: unknown; delivery_paid_rur?: unknown },
): Promise<Account> {
  await trx.raw(
    `insert into order_account (client_order_id, product_paid_rur, delivery_paid_rur)
     values (?, ?, ?) on conflict do nothing`,
    [orderId, money(seen.product_paid_rur), money(seen.delivery_paid_rur)],
  );
  const row = (await trx('order_account').where({ client_order_id: orderId }).forUpdate().first()) as Paid & {
    seq: string | number;
  };
  return {
    product_paid_rur: money(row.product_paid_rur),
    delivery_paid_rur: money(row.delivery_paid_rur),
    seq: Number(row.seq),
  };
}

/** Writes an order's account after a change: the amounts and the next sequence. */
export async function saveAccount(trx: Db, orderId: number, account: Account) {
  await trx('order_account').where({ client_order_id: orderId }).update(account);
}

/** The order's paid amounts as recorded (or as the order shows them before its first payment here). */
export async function readPaid(db: Db, order: OrderReplica): Promise<Paid> {
  const row = (await db('order_account').where({ client_order_id: order.id }).first()) as Paid | undefined;
  return {
    product_paid_rur: money(row ? row.product_paid_rur : order.product_paid_rur),
    delivery_paid_rur: money(row ? row.delivery_paid_rur : order.delivery_paid_rur),
  };
}

/** The order with what svc-payments recorded as paid (the replica's copy may lag a payment). */
export const withPaid = (order: OrderReplica, paid: Paid): OrderReplica => ({ ...order, ...paid });

/**
 * Why the order cannot be paid here now, or null (the payment dialog's prepare, spec §4–§5): a draft
 * is not priced yet, a cancelled order takes no money, and there must be something to pay.
 */
export function whyNotPayable(order: OrderReplica, kind?: PaymentKind): string | null {
  const closed = paymentClosedReason(order);
  if (closed) return closed;
  const due = (k: PaymentKind) => dec(payableNow(order, k)) > 0n;
  if (kind) return due(kind) ? null : PAYMENT_MESSAGES.nothingDue(kind);
  return due('product') || due('delivery') ? null : PAYMENT_MESSAGES.nothingDueAtAll;
}

export type OrderPaymentInput = {
  kind: PaymentKind;
  type: 'img' | 'link' | 'card' | 'wallet' | 'manual';
  amount: string;
  acquiring_payment_id?: number | null;
  fin_operation_id?: number | null;
  comment?: string;
  key?: string;
  test?: boolean;
  /** money the bank already took is recorded even when it exceeds what is due (an overpayment) */
  overpayAllowed?: boolean;
};

/**
 * Records one payment of an order under its order_account lock: refuses more than is payable (unless
 * the bank already took it), writes the order_payment with the paid amounts after it (its event tells
 * svc-orders), and returns the row and the payment states those amounts lead to.
 */
export async function recordOrderPayment(
  trx: Db,
  ctx: { identity: Identity; outbox: Outbox; payments: EntityStore },
  order: OrderReplica,
  input: OrderPaymentInput,
) {
  const { seq, ...paid } = await lockPaid(trx, order);
  if (input.key) {
    const done = await trx('order_payment')
      .where({ client_order_id: order.id, idempotency_key: input.key })
      .first();
    if (done) return { row: done as Record<string, unknown>, order: withPaid(order, paid), repeated: true };
  }
  const current = withPaid(order, paid);
  const payable = payableNow(current, input.kind);
  if (!input.overpayAllowed && dec(input.amount) > dec(payable))
    throw new BusinessError(
      dec(payable) > 0n ? PAYMENT_MESSAGES.tooMuch(payable) : PAYMENT_MESSAGES.nothingDue(input.kind),
    );
  const field = input.kind === 'product' ? 'product_paid_rur' : 'delivery_paid_rur';
  const after: Paid = { ...paid, [field]: decFormat(dec(paid[field]) + dec(input.amount), 2) };
  const account: Account = { ...after, seq: seq + 1 };
  const [row] = await ctx.payments.insertMany(trx, ctx.identity, ctx.outbox, [
    {
      client_order_id: order.id,
      client_id: order.client_id,
      operator_id: order.operator_id,
      kind: input.kind,
      type: input.type,
      amount: decFormat(dec(input.amount), 2),
      ...after,
      paid_seq: account.seq,
      acquiring_payment_id: input.acquiring_payment_id ?? null,
      fin_operation_id: input.fin_operation_id ?? null,
      comment: input.comment ?? '',
      idempotency_key: input.key ?? '',
      test: input.test ?? false,
    },
  ]);
  await saveAccount(trx, order.id, account);
  return { row: row as Record<string, unknown>, order: withPaid(order, after), repeated: false };
}

/** The spec's success text of a payment of this kind, by the state the order's amounts now lead to. */
export function paidMessage(order: OrderReplica, kind: PaymentKind): string {
  const states = paymentStatesByPaid(order);
  return kind === 'product'
    ? PAYMENT_MESSAGES.productPaid(states.product_payment_state === 'paid')
    : PAYMENT_MESSAGES.deliveryPaid(states.delivery_payment_state);
}
