import {
  CARRIER_EVENTS,
  CARRIER_MOVABLE_FROM,
  CarrierStatusChanged,
  CDEK_FINAL_STATUSES,
  carrierStatusLabel,
  isTrackedCarrier,
  ORDER_STAGES,
  SHIPMENT_TOPIC,
  stageForCarrierStatus,
  type OrderStage,
  type TrackedCarrier,
} from '@caravan/contracts';
import type { Db, Outbox } from '@caravan/service-kit';
import type { CarrierStatus } from '../adapters/carrier';

/** A shipment svc-carriers follows: one per client order with a tracked carrier and a waybill (ADR 0020). */
export interface Shipment {
  id: number;
  client_order_id: number;
  operator_id: number;
  client_id: number;
  carrier: TrackedCarrier;
  number: string | null;
  uuid: string | null;
  vendor_status: string | null;
  status_at: Date | null;
  final: boolean;
  last_confirmed_at: Date | null;
  last_error: string | null;
  next_check_at: Date;
  failures: number;
}

const SHIPMENT_COLUMNS = [
  'id',
  'client_order_id',
  'operator_id',
  'client_id',
  'carrier',
  'number',
  'uuid',
  'vendor_status',
  'status_at',
  'final',
  'last_confirmed_at',
  'last_error',
  'next_check_at',
  'failures',
] as const;

const asShipment = (row: Record<string, unknown>): Shipment => ({
  ...(row as unknown as Shipment),
  id: Number(row.id),
  client_order_id: Number(row.client_order_id),
  operator_id: Number(row.operator_id),
  client_id: Number(row.client_id),
});

/** The shipment of a client order, or undefined when its carrier is not followed. */
export async function shipmentOfOrder(db: Db, client_order_id: number): Promise<Shipment | undefined> {
  const row = (await db('shipment').where({ client_order_id }).first(SHIPMENT_COLUMNS)) as
    Record<string, unknown> | undefined;
  return row && asShipment(row);
}

/** The shipment a vendor names in a webhook: by its number, else by its uuid. */
export async function shipmentByVendorId(
  db: Db,
  carrier: TrackedCarrier,
  number: string | null,
  uuid: string | null,
): Promise<Shipment | undefined> {
  const q = db('shipment').where({ carrier }).orderBy('id', 'desc');
  if (number && uuid) q.where((w) => w.where({ number }).orWhere({ uuid }));
  else if (number) q.where({ number });
  else if (uuid) q.where({ uuid });
  else return undefined;
  const row = (await q.first(SHIPMENT_COLUMNS)) as Record<string, unknown> | undefined;
  return row && asShipment(row);
}

/** A status after which the carrier has nothing more to say: the shipment is no longer polled. */
export function isFinalStatus(carrier: TrackedCarrier, vendorStatus: string | null): boolean {
  if (!vendorStatus) return false;
  if (carrier === 'cdek' && (CDEK_FINAL_STATUSES as readonly string[]).includes(vendorStatus)) return true;
  return stageForCarrierStatus(carrier, vendorStatus) === 'client_received';
}

type LoggedStatus = { vendor_status: string; status_at: Date; city: string | null };

/** Stores the statuses in the log; answers those it did not hold yet (a repeat stores nothing). */
async function logNewStatuses(trx: Db, shipmentId: number, statuses: readonly CarrierStatus[]) {
  if (!statuses.length) return [];
  const rows = statuses.map((s) => ({
    shipment_id: shipmentId,
    vendor_status: s.vendor_status,
    status_at: new Date(s.status_at),
    city: s.city,
  }));
  const inserted = (await trx('shipment_status')
    .insert(rows)
    .onConflict(['shipment_id', 'vendor_status', 'status_at'])
    .ignore()
    .returning(['vendor_status', 'status_at', 'city'])) as LoggedStatus[];
  return inserted.sort((a, b) => a.status_at.getTime() - b.status_at.getTime());
}

function statusEvent(
  shipment: Shipment,
  status: LoggedStatus,
  confirmedAt: Date,
  final: boolean,
): CarrierStatusChanged {
  return CarrierStatusChanged.parse({
    shipment_id: shipment.id,
    client_order_id: shipment.client_order_id,
    carrier: shipment.carrier,
    number: shipment.number ?? shipment.uuid ?? String(shipment.client_order_id),
    uuid: shipment.uuid,
    vendor_status: status.vendor_status,
    label: carrierStatusLabel(shipment.carrier, status.vendor_status),
    stage: stageForCarrierStatus(shipment.carrier, status.vendor_status),
    status_at: status.status_at.toISOString(),
    confirmed_at: confirmedAt.toISOString(),
    city: status.city,
    final,
  });
}

export type RecordOptions = {
  /** When the vendor answered (a poll) or pushed (a webhook). */
  confirmed_at: Date | string;
  /** The service's outbox (kit.outbox or ctx.outbox): the events exist only if `trx` commits. */
  outbox: Outbox;
};

/**
 * What a vendor said about a shipment (a poll's answer or a webhook), inside the caller's transaction:
 * every status goes into the log once; each status new to the log and newer than the shipment's current
 * one becomes one CarrierStatusChanged event (oldest first) and the shipment's current status. A status
 * the log already holds (a repeated push) or an older one arriving late changes nothing and publishes
 * nothing. The vendor answered, so last_confirmed_at moves and the last error is forgotten.
 * Answers the events written.
 */
export async function recordStatuses(
  trx: Db,
  shipment: Pick<Shipment, 'id'>,
  statuses: readonly CarrierStatus[],
  options: RecordOptions,
): Promise<CarrierStatusChanged[]> {
  const confirmedAt = new Date(options.confirmed_at);
  // the row lock orders a webhook and a poll of one shipment: each sees what the other committed
  const row = (await trx('shipment').where({ id: shipment.id }).forUpdate().first(SHIPMENT_COLUMNS)) as
    Record<string, unknown> | undefined;
  if (!row) return [];
  const current = asShipment(row);
  const fresh = await logNewStatuses(trx, current.id, statuses);
  const events: CarrierStatusChanged[] = [];
  let latest = { vendor_status: current.vendor_status, status_at: current.status_at };
  for (const status of fresh) {
    if (latest.status_at && status.status_at.getTime() <= latest.status_at.getTime()) continue;
    const final = isFinalStatus(current.carrier, status.vendor_status);
    const event = statusEvent(current, status, confirmedAt, final);
    await options.outbox.write(trx, {
      topic: SHIPMENT_TOPIC,
      key: String(current.id),
      type: CARRIER_EVENTS.statusChanged,
      actor: null,
      data: event,
    });
    events.push(event);
    latest = { vendor_status: status.vendor_status, status_at: status.status_at };
  }
  await trx('shipment')
    .where({ id: current.id })
    .update({
      vendor_status: latest.vendor_status,
      status_at: latest.status_at,
      final: current.final || isFinalStatus(current.carrier, latest.vendor_status),
      last_confirmed_at: confirmedAt,
      last_error: null,
      failures: 0,
      updated_at: trx.fn.now(),
    });
  return events;
}

/** The order fields svc-carriers reads from its client_order replica. */
type ReplicatedOrder = {
  deleted?: boolean;
  operator_id?: number | null;
  client_id?: number | null;
  stage?: OrderStage | null;
  transport_company_rus?: string | null;
  transport_company_rus_order_number?: string | null;
  transport_company_rus_order_uuid?: string | null;
};

const text = (value: string | null | undefined) => (value ?? '').trim() || null;
const sentToRussia = (stage: OrderStage | null | undefined) =>
  !!stage && ORDER_STAGES.indexOf(stage) >= ORDER_STAGES.indexOf(CARRIER_MOVABLE_FROM);

/**
 * After the replica of a client order changed (same transaction as the replica handler): the order is
 * followed when its carrier is tracked, it has a number or uuid and it left for Russia. A new waybill
 * restarts the shipment (the log of the old one goes); an order that leaves the carrier, or is deleted,
 * is no longer followed (final); one that comes back is followed again.
 */
export async function followOrder(trx: Db, clientOrderId: number): Promise<void> {
  const replica = (await trx('replica')
    .where({ entity: 'client_order', id: clientOrderId })
    .first('data')) as { data: ReplicatedOrder } | undefined;
  const order = replica?.data;
  const existing = (await trx('shipment')
    .where({ client_order_id: clientOrderId })
    .forUpdate()
    .first(SHIPMENT_COLUMNS)) as Record<string, unknown> | undefined;
  const shipment = existing && asShipment(existing);
  const carrier = order?.transport_company_rus;
  const number = text(order?.transport_company_rus_order_number);
  const uuid = text(order?.transport_company_rus_order_uuid);
  const tracked =
    !!order && !order.deleted && isTrackedCarrier(carrier) && !!(number || uuid) && sentToRussia(order.stage);
  if (!tracked) {
    if (shipment && !shipment.final)
      await trx('shipment').where({ id: shipment.id }).update({ final: true, updated_at: trx.fn.now() });
    return;
  }
  const owners = { operator_id: Number(order.operator_id), client_id: Number(order.client_id) };
  if (!shipment) {
    await trx('shipment')
      .insert({ client_order_id: clientOrderId, carrier, number, uuid, ...owners })
      .onConflict('client_order_id')
      .ignore();
    return;
  }
  // CDEK gives the uuid first and the number later: one waybill as long as either still matches
  const sameWaybill =
    shipment.carrier === carrier &&
    ((!!uuid && uuid === shipment.uuid) || (!!number && number === shipment.number));
  if (!sameWaybill) {
    await trx('shipment_status').where({ shipment_id: shipment.id }).delete();
    await trx('shipment')
      .where({ id: shipment.id })
      .update({
        ...owners,
        carrier,
        number,
        uuid,
        vendor_status: null,
        status_at: null,
        final: false,
        last_confirmed_at: null,
        last_error: null,
        failures: 0,
        next_check_at: trx.fn.now(),
        updated_at: trx.fn.now(),
      });
    return;
  }
  const reopen = shipment.final && !isFinalStatus(shipment.carrier, shipment.vendor_status);
  await trx('shipment')
    .where({ id: shipment.id })
    .update({
      ...owners,
      number,
      uuid,
      ...(reopen ? { final: false, next_check_at: trx.fn.now() } : {}),
      updated_at: trx.fn.now(),
    });
}
