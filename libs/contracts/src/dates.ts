/**
 * Dates on screen are DD-MM-YYYY or DD-MM-YYYY HH:mm (spec §5); on the wire and in the database they
 * are ISO (YYYY-MM-DD, or a full ISO timestamp). Only years 1900–2050 are accepted.
 */
export const DATE_YEAR_MIN = 1900;
export const DATE_YEAR_MAX = 2050;
export const DATE_FORMAT = 'DD-MM-YYYY';
export const DATETIME_FORMAT = 'DD-MM-YYYY HH:mm';

const pad = (n: number) => String(n).padStart(2, '0');

function validDay(y: number, m: number, d: number) {
  if (y < DATE_YEAR_MIN || y > DATE_YEAR_MAX || m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** 'DD-MM-YYYY' → 'YYYY-MM-DD', or null when it is not a real date within 1900–2050. */
export function parseDisplayDate(text: string): string | null {
  const m = /^(\d{2})-(\d{2})-(\d{4})$/.exec(text.trim());
  if (!m) return null;
  const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return validDay(y, mo, d) ? `${y}-${pad(mo)}-${pad(d)}` : null;
}

/** 'DD-MM-YYYY HH:mm' (local time) → ISO timestamp, or null. */
export function parseDisplayDateTime(text: string): string | null {
  const m = /^(\d{2}-\d{2}-\d{4}) (\d{2}):(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const day = parseDisplayDate(m[1]!);
  const [h, min] = [Number(m[2]), Number(m[3])];
  if (!day || h > 23 || min > 59) return null;
  const [y, mo, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, mo - 1, d, h, min).toISOString();
}

/** 'YYYY-MM-DD' (or an ISO timestamp: its local day) → 'DD-MM-YYYY'; '' for nothing. */
export function formatDisplayDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const plain = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (plain) return `${plain[3]}-${plain[2]}-${plain[1]}`;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : `${pad(d.getDate())}-${pad(d.getMonth() + 1)}-${d.getFullYear()}`;
}

/** ISO timestamp → 'DD-MM-YYYY HH:mm' in local time, or in `timeZone` when given; '' for nothing. */
export function formatDisplayDateTime(iso: string | null | undefined, timeZone?: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  if (!timeZone) return `${formatDisplayDate(iso)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const at = Object.fromEntries(
    new Intl.DateTimeFormat('ru-RU', {
      timeZone,
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  return `${at.day}-${at.month}-${at.year} ${at.hour}:${at.minute}`;
}

/** Is 'YYYY-MM-DD' a real day within 1900–2050? */
export function isIsoDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  return Boolean(m) && validDay(Number(m![1]), Number(m![2]), Number(m![3]));
}

/** Is this a full ISO timestamp of a moment within 1900–2050 (what a date-time field keeps)? */
export function isIsoDateTime(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text)) return false;
  const d = new Date(text);
  return !Number.isNaN(d.getTime()) && d.getFullYear() >= DATE_YEAR_MIN && d.getFullYear() <= DATE_YEAR_MAX;
}
