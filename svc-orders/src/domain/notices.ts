import {
  dec,
  NOTIFICATION_TEXTS,
  POSITION_STAGE_NEWS,
  WATCHED_ORDER_FIELDS,
  watchedValueText,
  type CarrierStatusChanged,
  type EntityChanged,
  type EventEnvelope,
  type NewsPositionStage,
  type NotificationType,
  type OrderStage,
  type WatchedOrderField,
} from '@caravan/contracts';
import type { Db } from '@caravan/service-kit';
import { CARRIER_ACTOR_PREFIX } from './carrierStatus';
import { notify, rolesOf, type NotifyContext } from './notifications';

type Values = Record<string, unknown>;

/** How an order is named in a notice: its title, else its number. */
export const orderName = (order: { id: unknown; title?: unknown }) =>
  typeof order.title === 'string' && order.title.trim() ? order.title.trim() : `заказ ${String(order.id)}`;

export async function orderOf(trx: Db, id: number) {
  return (await trx('client_order').where({ id }).first('id', 'title', 'client_id', 'operator_id')) as
    { id: number; title: string; client_id: number; operator_id: number | null } | undefined;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
/** Did this update move the field (its value before is in the event and differs)? */
const moved = (change: EntityChanged, field: string) =>
  change.prev !== undefined &&
  field in change.prev &&
  String(change.prev[field] ?? '') !== String(change.row[field] ?? '');

const STAGE_TYPES: Partial<Record<OrderStage, NotificationType>> = {
  draft: 'warning',
  buyout_done: 'success',
  warehouse_received: 'success',
  client_received: 'success',
  client_confirmed: 'success',
};

/**
 * Was this move of the order's stage a carrier's (its history names the carrier)? Then the carrier's
 * notice told it already, with the stage: one notice per move.
 */
async function movedByCarrier(trx: Db, change: EntityChanged): Promise<boolean> {
  const row = (await trx('history')
    .where({ table_name: 'client_order', item_id: change.id, field: 'stage' })
    .whereRaw('old_value = to_jsonb(?::text) and new_value = to_jsonb(?::text)', [
      String(change.prev!.stage),
      String(change.row.stage),
    ])
    .orderBy('id', 'desc')
    .first('user_full_name')) as { user_full_name: string } | undefined;
  return Boolean(row?.user_full_name.startsWith(CARRIER_ACTOR_PREFIX));
}

/**
 * An order's change: its stage moved (the client's and the operator's users hear, not who moved it);
 * a field the client cares about changed by staff (the client's users hear: 'оператор изменил заказ').
 */
export async function orderNotices(trx: Db, ctx: NotifyContext, event: EventEnvelope, change: EntityChanged) {
  const row = change.row;
  if (change.op !== 'updated' || row.deleted) return;
  const audience = { clientId: num(row.client_id), operatorId: num(row.operator_id), except: event.actor };
  const title = orderName({ id: change.id, title: row.title });
  const base = { table_name: 'client_order' as const, item_id: change.id, category: 'data_update' as const };
  if (moved(change, 'stage') && !(await movedByCarrier(trx, change))) {
    const to = row.stage as OrderStage;
    await notify(trx, ctx, audience, {
      ...base,
      sourceKey: `order_stage:${event.id}`,
      ...NOTIFICATION_TEXTS.orderStage(title, to),
      type: STAGE_TYPES[to] ?? 'info',
      options: { client_order_title: title, modification_type: 'stage', new_value: to },
    });
  }
  const fields = (Object.keys(WATCHED_ORDER_FIELDS) as WatchedOrderField[]).filter((f) => moved(change, f));
  if (!fields.length) return;
  const roles = await rolesOf(trx, event.actor);
  const by = roles.includes('admin') ? 'администратор' : roles.includes('operator') ? 'оператор' : null;
  if (!by) return;
  for (const field of fields)
    await notify(
      trx,
      ctx,
      { clientId: audience.clientId, except: event.actor },
      {
        ...base,
        sourceKey: `staff_change:${event.id}:${field}`,
        ...NOTIFICATION_TEXTS.staffChange(title, by, field, row[field]),
        type: field === 'state' && row.state === 'cancelled' ? 'warning' : 'info',
        options: {
          client_order_title: title,
          modification_type: field,
          new_value: watchedValueText(field, row[field]),
        },
      },
    );
}

/**
 * A position reached a stage by its own action (bought out, sent to or received at the consolidation
 * warehouse): the notices of one order and stage gather in one unread row per user ('5 позиций').
 * Later stages follow the order's own move, which has its notice.
 */
export async function positionNotices(
  trx: Db,
  ctx: NotifyContext,
  event: EventEnvelope,
  change: EntityChanged,
) {
  const row = change.row;
  const to = row.stage as string;
  if (change.op !== 'updated' || row.deleted || !moved(change, 'stage') || !(to in POSITION_STAGE_NEWS))
    return;
  const order = await orderOf(trx, Number(row.client_order_id));
  if (!order) return;
  const title = orderName(order);
  const stage = to as NewsPositionStage;
  const positionTitle = String(row.title ?? '');
  await notify(
    trx,
    ctx,
    { clientId: order.client_id, operatorId: order.operator_id, except: event.actor },
    {
      sourceKey: `position_stage:${event.id}`,
      ...NOTIFICATION_TEXTS.positionStage(title, stage, 1, positionTitle),
      type: stage === 'warehouse_received' ? 'success' : 'info',
      category: 'data_update',
      table_name: 'client_order',
      item_id: order.id,
      options: { client_order_title: title, modification_type: 'position_stage', new_value: stage },
      group: {
        key: `position_stage:${order.id}:${stage}`,
        member: change.id,
        texts: (count) => NOTIFICATION_TEXTS.positionStage(title, stage, count, positionTitle),
      },
    },
  );
}

/**
 * A carrier's status of an order's shipment: the client's and the operator's users hear it once, however
 * often the carrier reports it (a webhook and a poll): the status, its time and the order are the source.
 * Told where the status is applied (svc-orders' carrier-shipments subscription), so that a status that
 * moved the order says the stage too, and the move makes no notice of its own.
 */
export async function carrierNotices(
  trx: Db,
  ctx: NotifyContext,
  status: CarrierStatusChanged,
  movedTo: OrderStage | null = null,
) {
  const order = await orderOf(trx, status.client_order_id);
  if (!order) return;
  const title = orderName(order);
  const finalType = status.stage === 'client_received' ? 'success' : 'warning';
  await notify(
    trx,
    ctx,
    { clientId: order.client_id, operatorId: order.operator_id },
    {
      sourceKey: `delivery_state:${order.id}:${status.carrier}:${status.vendor_status}:${status.status_at}`,
      ...NOTIFICATION_TEXTS.carrierStatus(
        title,
        status.carrier,
        status.number,
        status.label,
        status.city,
        movedTo,
      ),
      type: status.final ? finalType : ((movedTo && STAGE_TYPES[movedTo]) ?? 'info'),
      category: 'delivery_state',
      table_name: 'client_order',
      item_id: order.id,
      options: {
        client_order_title: title,
        transport_company_rus_delivery_state_ru: status.label,
        transport_company_rus_order_number: status.number,
        ...(movedTo ? { modification_type: 'stage', new_value: movedTo } : {}),
      },
    },
  );
}

/** A payment recorded for an order (svc-payments' order_payment): the order's people hear the money came. */
export async function paymentNotices(trx: Db, ctx: NotifyContext, change: EntityChanged) {
  const p = change.row as Values;
  if (change.op !== 'created' || p.type === 'transfer' || !(dec(String(p.amount ?? '0')) > 0n)) return;
  const order = await orderOf(trx, Number(p.client_order_id));
  const title = orderName(order ?? { id: p.client_order_id });
  await notify(
    trx,
    ctx,
    { clientId: num(p.client_id), operatorId: num(p.operator_id) },
    {
      sourceKey: `payment:${change.id}`,
      ...NOTIFICATION_TEXTS.paymentCredited(
        title,
        p.kind === 'delivery' ? 'delivery' : 'product',
        String(p.amount),
      ),
      type: 'success',
      category: 'data_update',
      table_name: 'client_order',
      item_id: Number(p.client_order_id),
      options: { client_order_title: title, modification_type: 'payment', new_value: String(p.amount) },
    },
  );
}

/** A bank payment that failed or expired (an order's or a top-up's): the client's users and the admins hear. */
export async function paymentFailedNotices(trx: Db, ctx: NotifyContext, change: EntityChanged) {
  const p = change.row as Values;
  if (p.state !== 'failed' && p.state !== 'expired') return;
  const forOrder = p.operation_type === 'client_order' && p.client_order_id;
  const order = forOrder ? await orderOf(trx, Number(p.client_order_id)) : undefined;
  const title = forOrder ? orderName(order ?? { id: p.client_order_id }) : null;
  await notify(
    trx,
    ctx,
    { clientId: num(p.client_id), admins: true },
    {
      sourceKey: `payment_failed:${change.id}`,
      ...NOTIFICATION_TEXTS.paymentFailed(title, String(p.amount), String(p.message ?? '')),
      type: 'error',
      category: 'data_update',
      table_name: forOrder ? 'client_order' : 'wallet',
      item_id: num(forOrder ? p.client_order_id : p.wallet_id),
      options: {
        ...(title ? { client_order_title: title } : {}),
        modification_type: 'payment_failed',
        new_value: String(p.amount),
      },
    },
  );
}

/** Money came into a wallet by a top-up (a fin_operation): the client's users hear. */
export async function topUpNotices(trx: Db, ctx: NotifyContext, change: EntityChanged) {
  const op = change.row as Values;
  if (change.op !== 'created' || op.cause !== 'top_up' || op.direction !== 'in') return;
  const walletTitle = typeof op.wallet_title === 'string' ? op.wallet_title : null;
  await notify(
    trx,
    ctx,
    { clientId: num(op.client_id) },
    {
      sourceKey: `top_up:${change.id}`,
      ...NOTIFICATION_TEXTS.walletTopUp(String(op.amount), walletTitle),
      type: 'success',
      category: 'data_update',
      table_name: 'wallet',
      item_id: num(op.wallet_id),
      options: { modification_type: 'top_up', new_value: String(op.amount) },
    },
  );
}
