import {
  dec,
  decFormat,
  MONEY_FOLLOWS_MESSAGES,
  paidShares,
  type GoodsMoved,
  type Identity,
} from '@caravan/contracts';
import type { Db, EntityStore, Outbox } from '@caravan/service-kit';
import { lockAccount, saveAccount, type Account } from './orderPayments';

type OrderSeen = { id: number; title?: string };

const replicaOrder = async (trx: Db, id: number) =>
  (
    (await trx('replica').where({ entity: 'client_order', id }).first('data')) as
      { data: OrderSeen } | undefined
  )?.data ?? null;

/**
 * Moves what was paid for goods that left an order to the orders that took them (ADR 0013), under the
 * accounts' locks (every order of the move, in id order, as payments of those orders lock them): each
 * share is pro rata of the goods' sums from what svc-payments itself recorded as paid for the goods
 * (not what svc-orders showed), and each transfer is ONE order_payment of type transfer on the taking
 * order, naming the giving one, with both orders' paid amounts and account sequences after it. A
 * repeat of the event finds its rows (the transfer id is their key) and moves nothing again.
 */
export async function transferPaid(
  trx: Db,
  ctx: { identity: Identity; outbox: Outbox; payments: EntityStore },
  moved: GoodsMoved,
) {
  const key = (to: number) => `goods_moved:${moved.transfer_id}:${to}`;
  const seen = new Map<number, GoodsMoved['from_paid']>([
    [moved.from_order_id, moved.from_paid],
    ...moved.shares.map((s) => [s.to_order_id, s.to_paid] as const),
  ]);
  const accounts = new Map<number, Account>();
  for (const id of [...seen.keys()].sort((a, b) => a - b))
    accounts.set(id, await lockAccount(trx, id, seen.get(id)!));
  const done = await trx('order_payment')
    .where({ source_order_id: moved.from_order_id })
    .whereIn(
      'idempotency_key',
      moved.shares.map((s) => key(s.to_order_id)),
    )
    .first('id');
  if (done) return [];

  const from = accounts.get(moved.from_order_id)!;
  const amounts = paidShares(
    from.product_paid_rur,
    moved.from_goods_rur,
    moved.shares.map((s) => s.goods_rur),
    moved.left_empty,
  );
  const fromOrder = await replicaOrder(trx, moved.from_order_id);
  const rows: Record<string, unknown>[] = [];
  for (const [i, share] of moved.shares.entries()) {
    const amount = dec(amounts[i]!);
    if (amount <= 0n) continue;
    const source = accounts.get(moved.from_order_id)!;
    const target = accounts.get(share.to_order_id)!;
    const sourceAfter: Account = {
      ...source,
      product_paid_rur: decFormat(dec(source.product_paid_rur) - amount, 2),
      seq: source.seq + 1,
    };
    const targetAfter: Account = {
      ...target,
      product_paid_rur: decFormat(dec(target.product_paid_rur) + amount, 2),
      seq: target.seq + 1,
    };
    accounts.set(moved.from_order_id, sourceAfter);
    accounts.set(share.to_order_id, targetAfter);
    rows.push({
      client_order_id: share.to_order_id,
      client_id: moved.client_id,
      operator_id: moved.operator_id,
      kind: 'product',
      type: 'transfer',
      amount: decFormat(amount, 2),
      product_paid_rur: targetAfter.product_paid_rur,
      delivery_paid_rur: targetAfter.delivery_paid_rur,
      paid_seq: targetAfter.seq,
      source_order_id: moved.from_order_id,
      source_product_paid_rur: sourceAfter.product_paid_rur,
      source_delivery_paid_rur: sourceAfter.delivery_paid_rur,
      source_paid_seq: sourceAfter.seq,
      comment: MONEY_FOLLOWS_MESSAGES.transferComment(String(fromOrder?.title ?? moved.from_order_id)),
      idempotency_key: key(share.to_order_id),
    });
  }
  if (!rows.length) return [];
  for (const [id, account] of accounts) await saveAccount(trx, id, account);
  return ctx.payments.insertMany(trx, ctx.identity, ctx.outbox, rows);
}
