import type { TrackedWaybill } from '../carrier';
import type { CntEvent, CntTracked } from './types';

/**
 * The registration tag is the consolidation warehouse's alias as the directory has it; its city is the
 * alias's leading letters, so 'guangzhou-1', 'Guangzhou_main' and 'GUANGZHOU2' are all in 'Guangzhou'
 * (Cyrillic works too: 'иу-склад' → 'Иу'). null for an empty tag.
 */
export function cityOfTag(tag: string | null | undefined): string | null {
  const letters = /^\p{L}+/u.exec((tag ?? '').trim())?.[0];
  if (!letters) return null;
  return letters[0]!.toUpperCase() + letters.slice(1).toLowerCase();
}

/** The event text the tracker gives when a parcel reaches the warehouse of `city`. */
export const arrivedText = (city: string | null) =>
  city ? `Arrived at consolidation warehouse city: ${city}` : 'Arrived at consolidation warehouse city';

const eventTime = (e: CntEvent) => {
  const at = Date.parse(e.time_iso);
  return Number.isNaN(at) ? 0 : at;
};

/** 17TRACK's answer for one number → what the position screen shows, events newest first. */
export function toTrackedWaybill(tracked: CntTracked): TrackedWaybill {
  const info = tracked.track_info;
  const events = [...(info?.tracking?.providers?.[0]?.events ?? [])].sort(
    (a, b) => eventTime(b) - eventTime(a),
  );
  return {
    waybill: tracked.number,
    status: info?.latest_status?.status || 'NotFound',
    tag: tracked.tag || null,
    events: events.map((e) => ({ at: e.time_iso, text: e.description, city: e.location || null })),
  };
}
