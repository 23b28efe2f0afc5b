import { dec, decFormat } from '@caravan/contracts';
import type { ShipmentState } from '../carrier';
import type { PecCargoInfo, PecCargoStatus } from './types';

/** PEC writes Moscow wall-clock time without a zone (vendor-apis §3). */
export const PEC_ZONE = '+03:00';

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A PEC date-time as ISO 8601 with an offset: zone-less ones read as Moscow time ('2026-11-24T17:40:05' →
 * '2026-11-24T17:40:05+03:00'); a plain day stays a day ('2026-11-28'); anything else → null.
 */
export function pecDateTime(value: string | null | undefined): string | null {
  const text = value?.trim();
  if (!text) return null;
  if (DATE.test(text)) return text;
  const m = DATE_TIME.exec(text);
  if (!m) return null;
  const zone = m[4] ? (m[4] === 'Z' ? 'Z' : m[4].replace(/^([+-]\d{2})(\d{2})$/, '$1:$2')) : PEC_ZONE;
  return `${m[1]}T${m[2]}${m[3] ?? ':00'}${zone}`;
}

/** services.sum as money: '2450.50'; null when absent or not a number. */
export function pecMoney(value: number | string | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  try {
    return decFormat(dec(typeof value === 'string' ? value.replace(',', '.') : value), 2);
  } catch {
    return null;
  }
}

/** The dates of a cargo's events, each saying when a status was reached. */
const EVENT_DATES: ReadonlyArray<keyof PecCargoInfo> = [
  'takeOnStockDateTime',
  'sendingDateTime',
  'arrivalDateTime',
  'giveOutDateTime',
  'receivedByClientDateTime',
];

/**
 * When the current status was reached: the status call gives no date of the status itself, so the latest
 * of the cargo's event dates stands for it (stable between polls); `now` when the cargo has none yet.
 */
export function pecStatusAt(info: PecCargoInfo, now: Date): string {
  const times = EVENT_DATES.map((field) => pecDateTime(info[field] as string | null | undefined))
    .filter((t): t is string => !!t && !DATE.test(t))
    .sort((a, b) => Date.parse(a) - Date.parse(b));
  return times[times.length - 1] ?? now.toISOString();
}

/** PecOrderGetResult's facts, kept in ShipmentState.details (what /api/pec_order_get answers). */
export interface PecDetails {
  cargoStatus: string;
  receivedByClientDateTime: string | null;
  deliveryPlanDate: string | null;
  services_sum: string | null;
}

export function toShipmentState(cargo: PecCargoStatus, now: Date): ShipmentState {
  const details: PecDetails = {
    cargoStatus: cargo.info.cargoStatus,
    receivedByClientDateTime: pecDateTime(cargo.info.receivedByClientDateTime),
    deliveryPlanDate: pecDateTime(cargo.info.deliveryPlanDate),
    services_sum: pecMoney(cargo.services?.sum),
  };
  return {
    number: cargo.cargo.code,
    uuid: null,
    statuses: [
      {
        vendor_status: cargo.info.cargoStatus,
        status_at: pecStatusAt(cargo.info, now),
        city: null,
      },
    ],
    details: { ...details },
  };
}

/** The vendor's words in its error envelope: message (or title), with the fields' messages. */
export function pecErrorMessage(body: unknown): string | null {
  const error = (body as { error?: unknown } | null | undefined)?.error;
  if (!error || typeof error !== 'object') return typeof error === 'string' && error ? error : null;
  const e = error as Record<string, unknown>;
  const main = [e.message, e.title, e.error].find((v): v is string => typeof v === 'string' && !!v.trim());
  const fields = Array.isArray(e.fields)
    ? e.fields
        .map((f) => (typeof f === 'string' ? f : (f as { message?: unknown })?.message))
        .filter((m): m is string => typeof m === 'string' && !!m.trim())
    : [];
  const words = [main, ...fields.filter((f) => f !== main)].filter(Boolean).join('; ');
  return words || null;
}
