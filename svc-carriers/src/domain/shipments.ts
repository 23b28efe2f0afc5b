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

/** A webhook's status of a shipment the vendor names by its number, or its uuid. */
export type VendorPush = { number: string | null; uuid: string | null; status: CarrierStatus };

/**
 * The shipments the vendor's pushes name (one query for all of them): each push matches the newest
 * shipment of the carrier with its number, else its uuid; undefined where none does.
 */
export async function shipmentsOfPushes(
  db: Db,
  carrier: TrackedCarrier,
  pushes: readonly Pick<VendorPush, 'number' | 'uuid'>[],
): Promise<Array<Shipment | undefined>> {
  const numbers = [...new Set(pushes.map((p) => p.number).filter((n): n is string => !!n))];
  const uuids = [...new Set(pushes.map((p) => p.uuid).filter((u): u is string => !!u))];
  if (!numbers.length && !uuids.length) return pushes.map(() => undefined);
  const rows = (await db('shipment')
    .where({ carrier })
    .where((w) => w.whereIn('number', numbers).orWhereIn('uuid', uuids))
    .select(SHIPMENT_COLUMNS)) as Record<string, unknown>[];
  const byNumber = new Map<string, Shipment>();
  const byUuid = new Map<string, Shipment>();
  const keepNewest = (map: Map<string, Shipment>, key: string | null, s: Shipment) => {
    if (key && (map.get(key)?.id ?? 0) < s.id) map.set(key, s);
  };
  for (const row of rows) {
    const s = asShipment(row);
    keepNewest(byNumber, s.number, s);
    keepNewest(byUuid, s.uuid, s);
  }
  return pushes.map((p) => {
    const a = p.number ? byNumber.get(p.number) : undefined;
    const b = p.uuid ? byUuid.get(p.uuid) : undefined;
    return a && b ? (a.id > b.id ? a : b) : (a ?? b);
  });
}

/** A status after which the carrier has nothing more to say: the shipment is no longer polled. */
export function isFinalStatus(carrier: TrackedCarrier, vendorStatus: string | null): boolean {
  if (!vendorStatus) return false;
  if (carrier === 'cdek' && (CDEK_FINAL_STATUSES as readonly string[]).includes(vendorStatus)) return true;
  return stageForCarrierStatus(carrier, vendorStatus) === 'client_received';
}

/**
 * Is a new status later than the shipment's current one? By its time; vendors give times to the second, so two
 * statuses of one second (CDEK's 'в пути' and 'вручён' a moment apart) are told apart by arrival — the one logged
 * later is later — except that nothing replaces a final status of the same second.
 */
function isLater(
  carrier: TrackedCarrier,
  status: { vendor_status: string; status_at: Date },
  latest: { vendor_status: string | null; status_at: Date | null },
): boolean {
  if (!latest.status_at) return true;
  const diff = status.status_at.getTime() - latest.status_at.getTime();
  if (diff !== 0) return diff > 0;
  if (status.vendor_status === latest.vendor_status) return false;
  return !isFinalStatus(carrier, latest.vendor_status);
}

type LoggedStatus = { shipment_id: number; vendor_status: string; status_at: Date; city: string | null };

/**
 * Stores the statuses in the log (one statement); answers those it did not hold yet, per shipment and
 * oldest first (a repeat stores nothing).
 */
async function logNewStatuses(trx: Db, reported: readonly ReportedStatuses[]) {
  const rows = reported.flatMap((r) => r.statuses.map((s) => ({ shipment_id: r.shipment_id, ...s })));
  const fresh = new Map<number, LoggedStatus[]>();
  if (!rows.length) return fresh;
  const { rows: inserted } = (await trx.raw(
    `insert into shipment_status (shipment_id, vendor_status, status_at, city)
     select shipment_id, vendor_status, status_at, city
     from jsonb_to_recordset(?::jsonb) as x(shipment_id bigint, vendor_status text, status_at timestamptz, city text)
     on conflict (shipment_id, vendor_status, status_at) do nothing
     returning shipment_id, vendor_status, status_at, city`,
    [JSON.stringify(rows)],
  )) as { rows: LoggedStatus[] };
  for (const row of inserted) {
    const id = Number(row.shipment_id);
    fresh.set(id, [...(fresh.get(id) ?? []), { ...row, shipment_id: id }]);
  }
  for (const list of fresh.values()) list.sort((a, b) => a.status_at.getTime() - b.status_at.getTime());
  return fresh;
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

/** What a vendor said about one shipment. */
export type ReportedStatuses = { shipment_id: number; statuses: readonly CarrierStatus[] };

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
  return recordStatusesOfShipments(trx, [{ shipment_id: shipment.id, statuses }], options);
}

/**
 * recordStatuses for many shipments at once, in a constant number of statements whatever their count
 * (a group of webhooks, docs/adr/0030): the shipments are locked in id order, the statuses logged in one
 * insert, the events written in one outbox insert, the shipments updated in one statement.
 */
export async function recordStatusesOfShipments(
  trx: Db,
  reported: readonly ReportedStatuses[],
  options: RecordOptions,
): Promise<CarrierStatusChanged[]> {
  const confirmedAt = new Date(options.confirmed_at);
  const ids = [...new Set(reported.map((r) => r.shipment_id))].sort((a, b) => a - b);
  if (!ids.length) return [];
  // the row locks order a webhook and a poll of one shipment: each sees what the other committed
  const locked = (
    (await trx('shipment').whereIn('id', ids).orderBy('id').forUpdate().select(SHIPMENT_COLUMNS)) as Record<
      string,
      unknown
    >[]
  ).map(asShipment);
  const known = new Set(locked.map((s) => s.id));
  const fresh = await logNewStatuses(
    trx,
    reported.filter((r) => known.has(r.shipment_id)),
  );
  const events: CarrierStatusChanged[] = [];
  const updates = locked.map((current) => {
    let latest = { vendor_status: current.vendor_status, status_at: current.status_at };
    for (const status of fresh.get(current.id) ?? []) {
      if (!isLater(current.carrier, status, latest)) continue;
      events.push(
        statusEvent(current, status, confirmedAt, isFinalStatus(current.carrier, status.vendor_status)),
      );
      latest = { vendor_status: status.vendor_status, status_at: status.status_at };
    }
    return {
      id: current.id,
      ...latest,
      final: current.final || isFinalStatus(current.carrier, latest.vendor_status),
    };
  });
  await options.outbox.writeMany(
    trx,
    events.map((event) => ({
      topic: SHIPMENT_TOPIC,
      key: String(event.shipment_id),
      type: CARRIER_EVENTS.statusChanged,
      actor: null,
      data: event,
    })),
  );
  await trx.raw(
    `update shipment s
     set vendor_status = v.vendor_status, status_at = v.status_at, final = v.final,
         last_confirmed_at = ?, last_error = null, failures = 0, updated_at = now()
     from jsonb_to_recordset(?::jsonb) as v(id bigint, vendor_status text, status_at timestamptz, final boolean)
     where s.id = v.id`,
    [confirmedAt.toISOString(), JSON.stringify(updates)],
  );
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
