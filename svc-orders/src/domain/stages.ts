import { AsyncLocalStorage } from 'node:async_hooks';
import {
  appendReceiveRecord,
  orderStageFromPositions,
  POSITION_STAGES,
  type Identity,
  type OrderStage,
  type OrderTransition,
  type PositionFacts,
  type PositionStage,
  type ReceiveRecordInput,
  type ReceiveRow,
} from '@caravan/contracts';
import { beforeOf, type Db, type EntityStore, type Outbox } from '@caravan/service-kit';

type Row = Record<string, unknown> & { id: number; deleted: boolean };

/**
 * Which call is changing an order's stage: client_order_created and client_order_buyout_waiting run
 * the generic update inside this scope, so the order's rules know the move came through its own
 * method (a plain client_order_update cannot form an order).
 */
const via = new AsyncLocalStorage<OrderTransition['via']>();
export const runVia = <T>(method: OrderTransition['via'], fn: () => Promise<T>) => via.run(method, fn);
export const currentVia = (): OrderTransition['via'] => via.getStore() ?? 'client_order_update';

/** The product types a route carries, from the replicated route links. */
export async function routeTypeIds(trx: Db, routeId: number | null): Promise<number[]> {
  if (!routeId) return [];
  const rows = (await trx('replica')
    .where({ entity: 'logistic_route_logistic_product_type_link', deleted: false })
    .whereRaw(`(data->>'logistic_route_id')::bigint = ?`, [routeId])
    .select(trx.raw(`(data->>'logistic_product_type_id')::bigint as id`))) as { id: number }[];
  return rows.map((r) => Number(r.id));
}

/** Does the operator serve the client (the client is on the operator's replicated client list)? */
export async function operatorServesClient(trx: Db, operatorId: number, clientId: number) {
  const row = await trx('replica')
    .where({ entity: 'operator', id: operatorId, deleted: false })
    .whereRaw(
      `exists (select 1 from jsonb_array_elements(data->'client_list') e where (e->>'id')::bigint = ?)`,
      [clientId],
    )
    .first('id');
  return Boolean(row);
}

export const livePositions = (trx: Db, orderId: number) =>
  trx('client_order_position')
    .where({ client_order_id: orderId, deleted: false })
    .orderBy('id')
    .forUpdate() as Promise<(Row & PositionFacts)[]>;

/**
 * What reaching the consolidation warehouse's stages writes on a position besides its stage (spec §4):
 * the expected date when sent; the shipment record (id max+1) and its date when received.
 */
export function warehouseFields(
  row: Record<string, unknown>,
  action: 'warehouse_waiting' | 'warehouse_received',
  input: { receive_date?: string | null; receive_record?: ReceiveRecordInput | null },
): Record<string, unknown> {
  if (action === 'warehouse_waiting') return { to_consolidation_warehouse_delivery_date: input.receive_date };
  const record = input.receive_record!;
  return {
    to_consolidation_warehouse_delivery_date: record.date,
    consolidation_receive_table: appendReceiveRecord<ReceiveRow>(
      row.consolidation_receive_table as ReceiveRow[],
      {
        transporter: record.transporter,
        date: record.date!,
        amount: record.amount!,
        cost: record.cost,
        comment: record.comment,
      },
    ),
  };
}

const rank = (s: string) => POSITION_STAGES.indexOf(s as PositionStage);

/** The positions an order's move takes with it: forming sends drafts to verification; later moves carry every position behind. */
export function positionMoveFor(
  to: OrderStage,
  selfBuyout: boolean,
): (row: Row) => Record<string, unknown> | null {
  if (to === 'created')
    return (row) =>
      row.stage === 'draft'
        ? { stage: 'verification', ...(selfBuyout ? { buyout_state: 'self' } : {}) }
        : null;
  if (['sent_to_ru', 'sent_to_door', 'client_received', 'client_confirmed'].includes(to))
    return (row) => (rank(String(row.stage)) < rank(to) ? { stage: to } : null);
  return () => null;
}

/** After a position moved: the order follows when its last position got there (buyout_done … warehouse_received). */
export async function followPositions(
  trx: Db,
  ctx: { identity: Identity; outbox: Outbox; orders: EntityStore },
  order: Row,
) {
  const stages = (await trx('client_order_position')
    .where({ client_order_id: order.id, deleted: false })
    .pluck('stage')) as PositionStage[];
  const next = orderStageFromPositions(order.stage as OrderStage, stages);
  if (!next) return;
  await patchOrder(trx, ctx, order, { stage: next });
}

/** Changes an order's columns as a consequence of a write (its stage, rate, state), with history and event. */
export async function patchOrder(
  trx: Db,
  ctx: { identity: Identity; outbox: Outbox; orders: EntityStore },
  order: Record<string, unknown> & { id: number },
  patch: Record<string, unknown>,
) {
  const [updated] = (await trx('client_order')
    .where({ id: order.id })
    .update({ ...patch, updated_at: trx.fn.now() })
    .returning(ctx.orders.stored as string[])) as Row[];
  const changes = Object.entries(patch).map(([k, v]): [string, unknown, unknown] => [k, order[k], v]);
  await ctx.orders.writeHistory(trx, ctx.identity, order.id, changes);
  await ctx.orders.publish(ctx.outbox, trx, updated!, 'updated', ctx.identity.user_id, beforeOf(changes));
}
