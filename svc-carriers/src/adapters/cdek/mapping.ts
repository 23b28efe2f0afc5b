import type { CarrierStatus, PushedStatus, ShipmentDraft, ShipmentState } from '../carrier';
import type {
  CdekError,
  CdekLocation,
  CdekOrder,
  CdekOrderRequest,
  CdekOrderType,
  CdekStatusEntry,
  CdekWebhookPayload,
} from './types';

/** CDEK writes offsets as '+0700'; ISO 8601 in our events wants '+07:00'. A time with no zone is Moscow's. */
export function isoDateTime(value: string): string {
  const text = value.trim();
  const compact = /([+-])(\d{2})(\d{2})$/.exec(text);
  if (compact) return `${text.slice(0, -5)}${compact[1]}${compact[2]}:${compact[3]}`;
  if (/(Z|[+-]\d{2}:\d{2})$/i.test(text)) return text;
  return `${text}+03:00`;
}

export const toCarrierStatus = (entry: CdekStatusEntry): CarrierStatus => ({
  vendor_status: entry.code.trim(),
  status_at: isoDateTime(entry.date_time),
  city: entry.city?.trim() || null,
});

/**
 * CDEK lists statuses newest first; we keep them oldest first. Reversing first keeps statuses of the
 * same second (ACCEPTED and CREATED often share one) in the order they happened; the sort then fixes
 * any entry out of place.
 */
export function statusesOldestFirst(entries: readonly CdekStatusEntry[]): CarrierStatus[] {
  return [...entries]
    .reverse()
    .map(toCarrierStatus)
    .map((status, index) => ({ status, index, at: Date.parse(status.status_at) }))
    .sort((a, b) => (Number.isNaN(a.at) || Number.isNaN(b.at) ? 0 : a.at - b.at) || a.index - b.index)
    .map(({ status }) => status);
}

/** UUIDs go to GET /v2/orders/{uuid}; anything else is a CDEK number (GET /v2/orders?cdek_number=). */
export const isUuid = (value: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value.trim());

/** The shipment as svc-carriers keeps it; `number` is CDEK's number once it has one, else what was asked. */
export function shipmentStateOf(order: CdekOrder, asked: string): ShipmentState {
  const details: Record<string, unknown> = {};
  if (order.number) details.number = order.number;
  if (order.tariff_code !== undefined) details.tariff_code = order.tariff_code;
  if (order.planned_delivery_date) details.planned_delivery_date = order.planned_delivery_date;
  if (order.delivery_date) details.delivery_date = order.delivery_date;
  if (order.delivery_detail) details.delivery_detail = order.delivery_detail;
  return {
    number: order.cdek_number || asked,
    uuid: order.uuid || null,
    statuses: statusesOldestFirst(order.statuses ?? []),
    details,
  };
}

/** A money string ('1250.50') as the JSON number CDEK's schema asks for. */
const wireMoney = (value: string) => {
  const amount = Number(value);
  return Number.isFinite(amount) ? amount : 0;
};

const location = (place: { city: string; address: string }): CdekLocation => ({
  city: place.city,
  address: place.address,
});

/**
 * Our draft as CDEK's POST /v2/orders body. Type 1 (интернет-магазин) carries our reference as `number`
 * and per-item cash on delivery; type 2 (доставка) has neither (CDEK takes `number` from e-shops only).
 */
export function orderRequestOf(draft: ShipmentDraft, type: CdekOrderType): CdekOrderRequest {
  const body: CdekOrderRequest = {
    type,
    tariff_code: draft.tariff_code,
    recipient: {
      name: draft.recipient.name,
      ...(draft.recipient.email ? { email: draft.recipient.email } : {}),
      phones: draft.recipient.phone ? [{ number: draft.recipient.phone }] : [],
    },
    packages: draft.packages.map((pack) => ({
      number: pack.number,
      weight: pack.weight_grams,
      ...(pack.length_cm ? { length: pack.length_cm } : {}),
      ...(pack.width_cm ? { width: pack.width_cm } : {}),
      ...(pack.height_cm ? { height: pack.height_cm } : {}),
      items: pack.items.map((item) => ({
        name: item.name,
        ware_key: item.ware_key,
        cost: wireMoney(item.cost),
        payment: { value: type === 1 ? wireMoney(item.payment) : 0 },
        weight: item.weight_grams,
        amount: item.amount,
      })),
    })),
  };
  if (type === 1) body.number = draft.reference;
  if (draft.comment) body.comment = draft.comment;
  if (draft.delivery_point) body.delivery_point = draft.delivery_point;
  else if (draft.to_location) body.to_location = location(draft.to_location);
  if (draft.from_location) body.from_location = location(draft.from_location);
  return body;
}

/** The vendor's own words of its errors, one line. */
export const vendorMessage = (errors: readonly CdekError[]) =>
  errors
    .map((e) => (e.message || e.code || '').trim())
    .filter(Boolean)
    .join('; ');

/** An ORDER_STATUS webhook as the status it reports; null when it lacks the number or the code. */
export function pushedStatusOf(payload: CdekWebhookPayload): PushedStatus | null {
  const a = payload.attributes ?? {};
  const code = a.code?.trim();
  const at = a.status_date_time || payload.date_time;
  if (!a.cdek_number || !code || !at) return null;
  return {
    number: a.cdek_number,
    uuid: payload.uuid || null,
    status: { vendor_status: code, status_at: isoDateTime(at), city: a.city_name?.trim() || null },
  };
}

/** A time as CDEK writes it, in Moscow time: '2026-11-24T17:37:41+0300'. */
export function cdekDateTime(at: Date): string {
  const moscow = new Date(at.getTime() + 3 * 3600_000);
  return `${moscow.toISOString().slice(0, 19)}+0300`;
}
