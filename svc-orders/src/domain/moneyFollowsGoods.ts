import { randomUUID } from 'node:crypto';
import {
  dec,
  decDiv,
  decFormat,
  decMul,
  ENTITY_TOPICS,
  GOODS_MOVED_EVENT,
  MONEY_FOLLOWS_MESSAGES,
  type Decimal,
  type GoodsMoved,
} from '@caravan/contracts';
import { BusinessError, type Db } from '@caravan/service-kit';
import type { BulkContext, Row } from './bulk';

/** Goods leaving one order for another: their sum (positions' buyout_price_rur). */
export type GoodsMove = { from: number; to: number; goods: Decimal };

const num = (v: unknown) => dec(String(v ?? '0'));

/** The goods' sum of a position, or of the part of its amount that leaves. */
export function goodsOf(position: Row, part?: Decimal): Decimal {
  const sum = num(position.buyout_price_rur);
  if (part === undefined) return sum;
  const amount = num(position.amount ?? '1');
  return amount > 0n ? decDiv(decMul(sum, part), amount) : 0n;
}

/** Each order's goods' sum now: read before the goods move (the base of the pro rata shares). */
export async function goodsTotals(trx: Db, orderIds: Iterable<number>): Promise<Map<number, Decimal>> {
  const ids = [...new Set(orderIds)];
  const rows = (await trx('client_order_position')
    .whereIn('client_order_id', ids)
    .where({ deleted: false })
    .groupBy('client_order_id')
    .select('client_order_id', trx.raw('coalesce(sum(buyout_price_rur), 0)::text as goods'))) as {
    client_order_id: number;
    goods: string;
  }[];
  const totals = new Map(ids.map((id) => [id, 0n]));
  for (const r of rows) totals.set(Number(r.client_order_id), dec(r.goods));
  return totals;
}

const paidSeen = (order: Row | undefined) => ({
  product_paid_rur: decFormat(num(order?.product_paid_rur), 2),
  delivery_paid_rur: decFormat(num(order?.delivery_paid_rur), 2),
});

/**
 * What was paid for goods that leave an order goes with them (ADR 0013), inside the move's transaction,
 * after the positions moved: refused when the giving order's delivery is paid (a parcel's delivery is
 * not shared by goods) or its paid goods have no sum to share by; otherwise one `goods.moved` event per
 * giving order (through the outbox, keyed by it) tells svc-payments which goods went where, and
 * svc-payments moves the paid amount pro rata of the goods and records the transfers. Drafts take no
 * money, so goods moving between drafts tell nothing.
 */
export async function moneyFollowsGoods(
  trx: Db,
  c: BulkContext,
  orders: ReadonlyMap<number, Row>,
  moves: readonly GoodsMove[],
  totals: ReadonlyMap<number, Decimal>,
) {
  const bySource = new Map<number, Map<number, Decimal>>();
  for (const m of moves) {
    if (m.from === m.to) continue;
    const targets = bySource.get(m.from) ?? new Map<number, Decimal>();
    targets.set(m.to, (targets.get(m.to) ?? 0n) + m.goods);
    bySource.set(m.from, targets);
  }
  const transferId = randomUUID();
  for (const [fromId, targets] of [...bySource].sort(([a], [b]) => a - b)) {
    const from = orders.get(fromId)!;
    if (from.stage === 'draft') continue;
    const title = String(from.title ?? from.id);
    if (num(from.delivery_paid_rur) > 0n) throw new BusinessError(MONEY_FOLLOWS_MESSAGES.deliveryPaid(title));
    const total = totals.get(fromId) ?? 0n;
    if (num(from.product_paid_rur) > 0n && total <= 0n)
      throw new BusinessError(MONEY_FOLLOWS_MESSAGES.goodsUnpriced(title));
    const left = await trx('client_order_position')
      .where({ client_order_id: fromId, deleted: false })
      .first('id');
    const data: GoodsMoved = {
      transfer_id: transferId,
      from_order_id: fromId,
      client_id: Number(from.client_id),
      operator_id:
        from.operator_id === null || from.operator_id === undefined ? null : Number(from.operator_id),
      from_goods_rur: decFormat(total, 2),
      left_empty: !left,
      from_paid: paidSeen(from),
      shares: [...targets].map(([to, goods]) => ({
        to_order_id: to,
        goods_rur: decFormat(goods, 2),
        to_paid: paidSeen(orders.get(to)),
      })),
    };
    await c.outbox.write(trx, {
      topic: ENTITY_TOPICS.client_order,
      key: fromId,
      type: GOODS_MOVED_EVENT,
      actor: c.identity.user_id,
      data,
    });
  }
}
