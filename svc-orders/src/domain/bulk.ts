import {
  BULK_MESSAGES,
  isStaff,
  MESSAGES,
  movableOrderStagesFor,
  ORDER_MESSAGES,
  ORDER_STAGE_LABELS,
  positionDataEditable,
  type Identity,
  type OrderStage,
} from '@caravan/contracts';
import { BusinessError, type Db, type EntityStore, type Outbox } from '@caravan/service-kit';
import { repriceOrder } from './pricing';
import { followPositions } from './stages';

export type Row = Record<string, unknown> & { id: number; deleted: boolean };
export type BulkContext = { identity: Identity; outbox: Outbox; orders: EntityStore; positions: EntityStore };

/** What a bulk procedure works with: the caller and its outbox, both stores. */
export const bulkContext = (
  ctx: { identity: Identity; outbox: Outbox },
  orders: EntityStore,
  positions: EntityStore,
): BulkContext => ({ identity: ctx.identity, outbox: ctx.outbox, orders, positions });

/**
 * Locks orders in id order, so two bulk calls over the same orders queue instead of deadlocking; each
 * order must be one the identity reaches and may change.
 */
export async function lockOrders(
  trx: Db,
  ctx: BulkContext,
  ids: readonly number[],
): Promise<Map<number, Row>> {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  const locked = new Map<number, Row>();
  for (const id of unique) {
    await ctx.orders.get(trx, ctx.identity, id); // 'запись не найдена' outside the reader's reach
    if (!(await ctx.orders.rights(trx, ctx.identity, id)).write)
      throw new BusinessError(MESSAGES.accessDenied);
    const row = (await trx('client_order')
      .where({ id })
      .forUpdate()
      .first(ctx.orders.stored as string[])) as Row | undefined;
    if (!row || row.deleted) throw new BusinessError(MESSAGES.notFound);
    locked.set(id, row);
  }
  return locked;
}

/**
 * The selected positions with their orders locked first (the lock order of every write: the order,
 * then its positions). A position deleted or moved meanwhile refuses the whole call.
 */
export async function lockSelectedPositions(trx: Db, ctx: BulkContext, ids: readonly number[]) {
  const owners = (await trx('client_order_position').whereIn('id', ids).select('id', 'client_order_id')) as {
    id: number;
    client_order_id: number;
  }[];
  if (owners.length !== ids.length) throw new BusinessError(MESSAGES.notFound);
  const orders = await lockOrders(
    trx,
    ctx,
    owners.map((o) => Number(o.client_order_id)),
  );
  const rows = (await trx('client_order_position')
    .whereIn('id', ids)
    .orderBy('id')
    .forUpdate()
    .select(ctx.positions.stored as string[])) as Row[];
  const orderOf = new Map(owners.map((o) => [Number(o.id), Number(o.client_order_id)]));
  const moved = rows.some((r) => r.deleted || Number(r.client_order_id) !== orderOf.get(Number(r.id)));
  if (moved || rows.length !== ids.length) throw new BusinessError(BULK_MESSAGES.positionsGone);
  return { orders, rows };
}

/** Spec §5: positions' data changes in draft, or by staff; a client's formed order is locked. */
export function assertPositionsEditable(identity: Identity, order: Row) {
  if (!positionDataEditable(String(order.stage), identity))
    throw new BusinessError(ORDER_MESSAGES.positionsLocked);
}

/**
 * Orders that may give and take positions (spec §9 candidate stages): staff move them between orders
 * of these stages, a client between their own draft orders.
 */
export function assertExchangeable(identity: Identity, order: Row, direction: 'from' | 'to') {
  if (movableOrderStagesFor(identity).includes(order.stage as OrderStage)) return;
  if (isStaff(identity)) throw new BusinessError(BULK_MESSAGES.moveStage);
  throw new BusinessError(direction === 'to' ? BULK_MESSAGES.moveIntoFormed : BULK_MESSAGES.moveOutOfFormed);
}

/**
 * Orders exchanging positions belong to one client and one operator (an admin too: a client's goods
 * stay theirs) and stand at one stage, so no order holds goods its stage has not reached or has passed
 * (ours, docs/adr/0010-positions-in-bulk.md).
 */
export function assertSameOwners(first: Row, other: Row) {
  if (Number(first.client_id) !== Number(other.client_id))
    throw new BusinessError(BULK_MESSAGES.moveOtherClient);
  if (Number(first.operator_id) !== Number(other.operator_id))
    throw new BusinessError(BULK_MESSAGES.moveOtherOperator);
  if (first.stage !== other.stage)
    throw new BusinessError(
      BULK_MESSAGES.moveOtherStage(
        ORDER_STAGE_LABELS[first.stage as OrderStage],
        ORDER_STAGE_LABELS[other.stage as OrderStage],
      ),
    );
}

/** After positions came or went: each order repriced, and moved on when its last position got further. */
export async function settleOrders(trx: Db, ctx: BulkContext, orderIds: Iterable<number>) {
  for (const id of [...new Set(orderIds)].sort((a, b) => a - b)) {
    await repriceOrder(trx, ctx, id);
    const order = (await trx('client_order')
      .where({ id })
      .first(ctx.orders.stored as string[])) as Row;
    await followPositions(trx, ctx, order);
  }
}
