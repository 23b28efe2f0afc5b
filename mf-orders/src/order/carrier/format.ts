import { formatDisplayDateTime } from '@caravan/contracts';

/**
 * A moment of an order's story or a carrier's tracking as the card shows it: 'ДД-ММ-ГГГГ ЧЧ:ММ МСК', in Moscow
 * time (the carriers' and the operators' clock), said so, and written as every other date of the app. The chat
 * and the notifications show the reader's own clock; the mark keeps the two apart for a reader elsewhere.
 */
export function formatMoment(iso: string | null | undefined): string {
  if (!iso) return '';
  const shown = formatDisplayDateTime(iso, 'Europe/Moscow');
  return shown ? `${shown} МСК` : iso;
}
