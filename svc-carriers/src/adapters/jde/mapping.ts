import type { ShipmentState } from '../carrier';
import type { JdeStatusByCode } from './types';

/** JDE writes Moscow wall-clock time without a zone. */
export const JDE_ZONE = '+03:00';

const ISO_LIKE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/;
const RUSSIAN = /^(\d{2})\.(\d{2})\.(\d{4})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const DAY_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

interface Parts {
  y: string;
  m: string;
  d: string;
  hh: string;
  mm: string;
  ss: string;
  zone: string | null;
}

function parts(value: string): Parts | null {
  let m = ISO_LIKE.exec(value);
  if (m) return { y: m[1]!, m: m[2]!, d: m[3]!, hh: m[4]!, mm: m[5]!, ss: m[6] ?? '00', zone: m[7] ?? null };
  m = RUSSIAN.exec(value);
  if (m)
    return { y: m[3]!, m: m[2]!, d: m[1]!, hh: m[4] ?? '00', mm: m[5] ?? '00', ss: m[6] ?? '00', zone: null };
  m = DAY_ONLY.exec(value);
  if (m) return { y: m[1]!, m: m[2]!, d: m[3]!, hh: '00', mm: '00', ss: '00', zone: null };
  return null;
}

/** '2026-11-24 17:40:05' → '2026-11-24T17:40:05+03:00' (zone-less = Moscow); null when unreadable. */
export function jdeDateTime(value: string | null | undefined): string | null {
  const p = value?.trim() ? parts(value.trim()) : null;
  if (!p) return null;
  const zone = !p.zone ? JDE_ZONE : p.zone === 'Z' ? 'Z' : p.zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  return `${p.y}-${p.m}-${p.d}T${p.hh}:${p.mm}:${p.ss}${zone}`;
}

/** The day as /api/jde_order_get shows it, DD.MM.YYYY, as JDE wrote it (Moscow); null when unreadable. */
export function jdeDay(value: string | null | undefined): string | null {
  const p = value?.trim() ? parts(value.trim()) : null;
  return p ? `${p.d}.${p.m}.${p.y}` : null;
}

/** JdeOrderGetResult's facts in ShipmentState.details, with JDE's own date beside the formatted one. */
export interface JdeDetails {
  id: number | null;
  status: string;
  /** DD.MM.YYYY */
  date: string | null;
  /** the date as JDE sent it */
  date_raw: string | null;
}

export function toShipmentState(number: string, reply: JdeStatusByCode, now: Date): ShipmentState {
  const details: JdeDetails = {
    id: typeof reply.id === 'number' ? reply.id : null,
    status: reply.status,
    date: jdeDay(reply.date),
    date_raw: typeof reply.date === 'string' ? reply.date : null,
  };
  return {
    number,
    uuid: null,
    statuses: [
      { vendor_status: reply.status, status_at: jdeDateTime(reply.date) ?? now.toISOString(), city: null },
    ],
    details: { ...details },
  };
}

/** The vendor's words in an error body, whichever of the shapes it takes. */
export function jdeErrorMessage(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as Record<string, unknown>;
  const error = b.error;
  const nested = error && typeof error === 'object' ? (error as { message?: unknown }).message : undefined;
  const list = Array.isArray(b.errors) ? b.errors.filter((e) => typeof e === 'string').join('; ') : undefined;
  const found = [error, nested, b.message, list].find(
    (v): v is string => typeof v === 'string' && !!v.trim(),
  );
  return found?.trim() ?? null;
}
