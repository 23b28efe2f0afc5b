import {
  CARRIER_VENDOR_LABELS,
  carrierStageMove,
  normalizedWaybill,
  type CarrierStatusChanged,
  type Identity,
  type OrderStage,
  type WaybillTracked,
} from '@caravan/contracts';
import { identityOf, type Db, type EntityStore, type Outbox } from '@caravan/service-kit';
import { repriceOrder } from './pricing';
import { livePositions, patchOrder, positionMoveFor } from './stages';

type Row = Record<string, unknown> & { id: number; deleted: boolean };

export type CarrierContext = {
  orders: EntityStore;
  positions: EntityStore;
  outbox: Outbox;
  /** Tells the order's people of a new status, with the stage it moved the order to (one notice of both). */
  told?: (trx: Db, status: CarrierStatusChanged, movedTo: OrderStage | null) => Promise<unknown>;
};

/** How the order's history names a carrier's change: 'изменено перевозчиком СДЭК'. */
export const CARRIER_ACTOR_PREFIX = 'изменено перевозчиком ';

/** One status of an order's shipment as client_order_get_by_id shows it, oldest first. */
export type CarrierStatusEntry = {
  carrier: string;
  vendor_status: string;
  label: string;
  status_at: string;
  city: string | null;
};

/** Who the order's history names for a carrier's change: 'изменено перевозчиком СДЭК'. */
export const carrierActor = (carrier: keyof typeof CARRIER_VENDOR_LABELS): Identity =>
  identityOf({
    user_id: 1,
    fullname: `${CARRIER_ACTOR_PREFIX}${CARRIER_VENDOR_LABELS[carrier]}`,
    roles: ['admin'],
  });

/** Stores the status in the order's history; false when it was stored already (a repeat changes nothing). */
async function recordStatus(trx: Db, status: CarrierStatusChanged): Promise<boolean> {
  const inserted = (await trx('client_order_carrier_status')
    .insert({
      client_order_id: status.client_order_id,
      shipment_id: status.shipment_id,
      carrier: status.carrier,
      number: status.number,
      vendor_status: status.vendor_status,
      label: status.label,
      status_at: status.status_at,
      confirmed_at: status.confirmed_at,
      city: status.city,
    })
    .onConflict(['client_order_id', 'carrier', 'vendor_status', 'status_at'])
    .ignore()
    .returning('id')) as { id: number }[];
  return inserted.length > 0;
}

/** Is no other stored status of the order later than this one? Then it is what the order shows. */
async function isNewest(trx: Db, status: CarrierStatusChanged): Promise<boolean> {
  const later = await trx('client_order_carrier_status')
    .where({ client_order_id: status.client_order_id })
    .where('status_at', '>', status.status_at)
    .first('id');
  return !later;
}

/** The order's columns the status sets: the newest vendor status; the carrier's order uuid and number when it has none. */
function orderPatch(order: Row, status: CarrierStatusChanged, newest: boolean): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  if (newest && order.transport_company_rus_delivery_state !== status.vendor_status)
    patch.transport_company_rus_delivery_state = status.vendor_status;
  if (!order.transport_company_rus_order_uuid && status.uuid)
    patch.transport_company_rus_order_uuid = status.uuid;
  if (!order.transport_company_rus_order_number) patch.transport_company_rus_order_number = status.number;
  return patch;
}

/**
 * Moves the order as a staff stage change would (positions carried, history, event), when the status
 * points forward from 'отправлен в РФ'. The carrier's word is the fact: the staff dialog's required
 * fields are not asked for. The delivery date is the vendor's, when staff have not given one.
 */
async function moveStage(
  trx: Db,
  ctx: CarrierContext & { identity: Identity },
  order: Row,
  status: CarrierStatusChanged,
): Promise<Row> {
  const to = carrierStageMove(order.stage as OrderStage, status.stage);
  if (!to) return order;
  const positions = await livePositions(trx, order.id);
  await ctx.positions.changeMany(
    trx,
    ctx.identity,
    ctx.outbox,
    positions,
    positionMoveFor(to, order.buyout_type === 'self'),
  );
  const patch: Record<string, unknown> = { stage: to };
  if (to === 'client_received' && !order.to_door_delivery_date)
    patch.to_door_delivery_date = status.status_at.slice(0, 10);
  await patchOrder(trx, ctx, order, patch);
  return { ...order, ...patch };
}

/**
 * A carrier's status of an order's shipment (svc-carriers' CarrierStatusChanged), in the inbox's
 * transaction: stored once in the order's history; the order shows the newest one and moves forward
 * by it. The order's row is locked first, as every writer of an order does, so a staff change waits
 * or is waited for and each sees the other's result.
 */
export async function applyCarrierStatus(trx: Db, ctx: CarrierContext, status: CarrierStatusChanged) {
  const order = (await trx('client_order')
    .where({ id: status.client_order_id })
    .forUpdate()
    .first(ctx.orders.stored as string[])) as Row | undefined;
  if (!order) return;
  if (!(await recordStatus(trx, status))) return;
  const identity = carrierActor(status.carrier);
  const patch = orderPatch(order, status, await isNewest(trx, status));
  if (Object.keys(patch).length) await patchOrder(trx, { ...ctx, identity }, order, patch);
  const moved = await moveStage(trx, { ...ctx, identity }, { ...order, ...patch }, status);
  if (moved.stage !== order.stage) await repriceOrder(trx, { ...ctx, identity }, order.id);
  await ctx.told?.(trx, status, moved.stage !== order.stage ? (moved.stage as OrderStage) : null);
}

/**
 * The Chinese tracker's news of a waybill (svc-carriers' WaybillTracked): the positions with that
 * waybill (of its order, or of every order when the tracker knows none) show it and are tracked.
 */
export async function applyWaybillTracked(trx: Db, ctx: CarrierContext, tracked: WaybillTracked) {
  const matching = () => {
    const query = trx('client_order_position')
      .where({ deleted: false })
      .whereRaw('lower(btrim(waybill)) = ?', [normalizedWaybill(tracked.waybill)]);
    if (tracked.client_order_id !== null) query.where({ client_order_id: tracked.client_order_id });
    return query;
  };
  // the orders first, in id order, as every writer of an order's positions locks them
  const orderIds = (await matching().distinct('client_order_id').pluck('client_order_id')) as number[];
  if (!orderIds.length) return;
  await trx('client_order').whereIn('id', orderIds).orderBy('id').forUpdate().select('id');
  const positions = (await matching()
    .orderBy('id')
    .forUpdate()
    .select(ctx.positions.stored as string[])) as Row[];
  const data = {
    status: tracked.status,
    label: tracked.label,
    event: tracked.event,
    city: tracked.city,
    event_at: tracked.event_at,
    arrived: tracked.arrived,
  };
  const identity = carrierActor('cnt');
  await ctx.positions.changeMany(trx, identity, ctx.outbox, positions, (row) => ({
    warehouse_cnt_data: data,
    is_waybill_tracking: true,
    options: {
      ...(row.options as Record<string, unknown> | null),
      cnt_data: { number: tracked.waybill.trim(), updated_at: new Date().toISOString() },
    },
  }));
}

/** The order's shipment history, oldest first (client_order_get_by_id only). */
export async function carrierStatuses(db: Db, orderId: number): Promise<CarrierStatusEntry[]> {
  const rows = (await db('client_order_carrier_status')
    .where({ client_order_id: orderId })
    .orderBy([{ column: 'status_at' }, { column: 'id' }])
    .select('carrier', 'vendor_status', 'label', 'status_at', 'city')) as (Omit<
    CarrierStatusEntry,
    'status_at'
  > & { status_at: Date })[];
  return rows.map((r) => ({ ...r, status_at: new Date(r.status_at).toISOString() }));
}
