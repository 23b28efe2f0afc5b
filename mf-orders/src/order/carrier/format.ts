/**
 * A moment of an order's story or a carrier's tracking as the card shows it: 'ДД-ММ-ГГГГ ЧЧ:ММ МСК', in Moscow
 * time (the carriers' and the operators' clock), said so, and written as every other date of the app. The chat
 * and the notifications show the reader's own clock; the mark keeps the two apart for a reader elsewhere.
 */
export function formatMoment(iso: string | null | undefined): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const part = Object.fromEntries(
    new Intl.DateTimeFormat('ru-RU', {
      timeZone: 'Europe/Moscow',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${part.day}-${part.month}-${part.year} ${part.hour}:${part.minute} МСК`;
}
