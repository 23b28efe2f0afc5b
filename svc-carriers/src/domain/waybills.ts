import {
  CARRIER_EVENTS,
  CNT_STATUS_LABELS,
  normalizedWaybill,
  SHIPMENT_TOPIC,
  WaybillTracked,
  type CntWaybillInfo,
} from '@caravan/contracts';
import type { Db, Outbox } from '@caravan/service-kit';
import type { CarrierCredentials, TrackedWaybill, WaybillTracker } from '../adapters/carrier';

/**
 * Chinese domestic waybills (ADR 0020): registered with the tracker (17TRACK-style), their status and
 * events kept in `cnt_waybill`, each change published as CARRIER_EVENTS.waybillTracked keyed by the
 * normalized waybill. The domestic courier delivers to the consolidation warehouse: 'Delivered' (or
 * waiting for pickup there) is the parcel's arrival.
 */
const ARRIVED_STATUSES = ['Delivered', 'AvailableForPickup'];

type WaybillRow = {
  waybill: string;
  order_id: number | null;
  status: string;
  events: TrackedWaybill['events'];
  arrived: boolean;
  updated_at: Date;
};

const infoOf = (row: WaybillRow): CntWaybillInfo => ({
  waybill: row.waybill,
  status: row.status,
  label: CNT_STATUS_LABELS[row.status] ?? row.status,
  arrived: row.arrived,
  events: row.events,
  updated_at: new Date(row.updated_at).toISOString(),
});

/**
 * Registers a position's waybill with the tracker and keeps it (a waybill registered before is not sent
 * again). Throws the tracker's CarrierError (its message in the user's words) when it refuses.
 */
export async function registerWaybill(
  db: Db,
  tracker: WaybillTracker,
  credentials: CarrierCredentials,
  input: { waybill: string; order_id?: number | null; warehouse_alias?: string },
): Promise<{ accepted: boolean; message: string | null; info: CntWaybillInfo }> {
  const waybill = normalizedWaybill(input.waybill);
  const known = (await db('cnt_waybill').where({ waybill }).first()) as WaybillRow | undefined;
  let message: string | null = null;
  if (!known) {
    const result = await tracker.register(credentials, [
      // the tracker's tag is the consolidation warehouse's alias: its sandbox walks the parcel to that city
      { waybill: input.waybill.trim(), tag: input.warehouse_alias ?? '' },
    ]);
    const rejected = result.rejected[0];
    if (rejected) message = rejected.message;
  }
  if (message) {
    const info = known ? infoOf(known) : infoOf(emptyRow(waybill, input.order_id ?? null));
    return { accepted: false, message, info };
  }
  const [row] = (await db('cnt_waybill')
    .insert({ waybill, order_id: input.order_id ?? null, warehouse_alias: input.warehouse_alias ?? '' })
    .onConflict('waybill')
    .merge({
      order_id: db.raw('coalesce(excluded.order_id, cnt_waybill.order_id)'),
      warehouse_alias: input.warehouse_alias ?? '',
      updated_at: db.fn.now(),
    })
    .returning(['waybill', 'order_id', 'status', 'events', 'arrived', 'updated_at'])) as WaybillRow[];
  return { accepted: true, message: null, info: infoOf(row!) };
}

const emptyRow = (waybill: string, order_id: number | null): WaybillRow => ({
  waybill,
  order_id,
  status: 'NotFound',
  events: [],
  arrived: false,
  updated_at: new Date(),
});

/**
 * What the tracker knows of a waybill: asked now (its answer stored and published when it changed);
 * the stored one when the tracker does not answer; null when the waybill is unknown to both.
 */
export async function waybillInfo(
  db: Db,
  outbox: Outbox,
  tracker: WaybillTracker,
  credentials: CarrierCredentials,
  waybill: string,
): Promise<CntWaybillInfo | null> {
  const key = normalizedWaybill(waybill);
  const tracked = await tracker.get(credentials, waybill.trim());
  if (tracked) return db.transaction((trx) => storeTrackedWaybill(trx, outbox, tracked));
  const row = (await db('cnt_waybill').where({ waybill: key }).first()) as WaybillRow | undefined;
  return row ? infoOf(row) : null;
}

type WaybillEvent = TrackedWaybill['events'][number];
/** Field by field: jsonb gives the keys back in its own order. */
const sameEvent = (a: WaybillEvent | null, b: WaybillEvent | null) =>
  a === b || (!!a && !!b && a.at === b.at && a.text === b.text && (a.city ?? null) === (b.city ?? null));

/**
 * Stores what the tracker said of a waybill (a push or a poll); when its status or newest event is new,
 * publishes one WaybillTracked. A replayed push changes nothing and publishes nothing.
 */
export async function storeTrackedWaybill(
  trx: Db,
  outbox: Outbox,
  tracked: TrackedWaybill,
): Promise<CntWaybillInfo> {
  const waybill = normalizedWaybill(tracked.waybill);
  const before = (await trx('cnt_waybill').where({ waybill }).forUpdate().first()) as WaybillRow | undefined;
  const arrived = (before?.arrived ?? false) || ARRIVED_STATUSES.includes(tracked.status);
  const newest = tracked.events[0] ?? null;
  const changed = !before || before.status !== tracked.status || !sameEvent(before.events[0] ?? null, newest);
  const orderId = before?.order_id ?? null;
  const [row] = (await trx('cnt_waybill')
    .insert({
      waybill,
      order_id: orderId,
      status: tracked.status,
      events: JSON.stringify(tracked.events),
      arrived,
    })
    .onConflict('waybill')
    .merge(
      changed
        ? {
            status: tracked.status,
            events: JSON.stringify(tracked.events),
            arrived,
            updated_at: trx.fn.now(),
          }
        : { last_error: null },
    )
    .returning(['waybill', 'order_id', 'status', 'events', 'arrived', 'updated_at'])) as WaybillRow[];
  if (changed)
    await outbox.write(trx, {
      topic: SHIPMENT_TOPIC,
      key: waybill,
      type: CARRIER_EVENTS.waybillTracked,
      actor: null,
      data: WaybillTracked.parse({
        waybill,
        client_order_id: orderId === null ? null : Number(orderId),
        status: tracked.status,
        label: CNT_STATUS_LABELS[tracked.status] ?? tracked.status,
        event: newest?.text ?? null,
        city: newest?.city ?? null,
        event_at: new Date(newest?.at ?? Date.now()).toISOString(),
        arrived,
      }),
    });
  return infoOf(row!);
}
