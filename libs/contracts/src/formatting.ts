import { dec, decFormat } from './decimal';

/**
 * Numbers on screen, one way everywhere: ru-RU grouping ('3 200,5'), a decimal comma, money with two
 * decimals and its currency sign after the amount ('465,00 $', '3 200,00 ₽'), rates without trailing
 * zeros ('11,05'). Values are the API's decimal strings; they are never turned into floats.
 */

/** The ru-RU group separator: a no-break space, so '3 200' never breaks across lines. */
const GROUP = '\u00a0';
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

type Amount = string | number | null | undefined;

/** A plain decimal string for a value from the API, or null when it is not a number. */
function plain(value: Amount): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  const text = value.trim();
  return PLAIN_DECIMAL.test(text) ? text : null;
}

const group = (whole: string) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, GROUP);

/**
 * `value` rounded half up to at most `maxDigits` decimals, trailing zeros dropped down to
 * `minDigits`, grouped the ru-RU way. '' for nothing; text that is not a number is shown as it is.
 */
export function formatNumber(value: Amount, { minDigits = 0, maxDigits = 2 } = {}): string {
  if (value === null || value === undefined || value === '') return '';
  const text = plain(value);
  if (text === null) return String(value);
  const rounded = decFormat(dec(text), maxDigits);
  const [whole = '0', fraction = ''] = rounded.split('.');
  let digits = fraction;
  while (digits.length > minDigits && digits.endsWith('0')) digits = digits.slice(0, -1);
  const sign = whole.startsWith('-') && /[1-9]/.test(whole + digits) ? '-' : '';
  const body = group(whole.replace('-', ''));
  return `${sign}${body}${digits ? `,${digits}` : ''}`;
}

/** Money: two decimals and the currency sign after the amount ('3 200,00 ₽'); no sign for ''. */
export function formatMoney(amount: Amount, symbol = '₽'): string {
  const text = formatNumber(amount, { minDigits: 2, maxDigits: 2 });
  if (!text) return '';
  return symbol ? `${text}${GROUP}${symbol}` : text;
}

/** An exchange or tariff rate: up to four decimals, at least two ('11,05', '92,1234'). */
export const formatRate = (value: Amount) => formatNumber(value, { minDigits: 2, maxDigits: 4 });

/** A percentage as the spec writes it: '2,5%'. */
export function formatPercent(value: Amount): string {
  const text = formatNumber(value, { maxDigits: 2 });
  return text ? `${text}%` : '';
}

/**
 * A number as typed into a form ('1 234,5', '-3', '0.25') → its plain decimal string ('1234.5'),
 * or null when it is not a number ('abc', 'сто пятьдесят', '1e3', '1,2,3'). `integer`: no fraction.
 */
export function parseNumberInput(text: string, integer = false): string | null {
  const compact = text.trim().replace(/[\s\u00a0\u202f]/g, '');
  const m = /^([-+]?)(\d+)(?:[.,](\d+))?$/.exec(compact);
  if (!m || (integer && m[3] !== undefined)) return null;
  const whole = m[2]!.replace(/^0+(?=\d)/, '');
  const sign = m[1] === '-' ? '-' : '';
  return `${sign}${whole}${m[3] !== undefined ? `.${m[3]}` : ''}`;
}

/** Is this a number as forms keep it (a plain decimal string or a finite number)? */
export const isPlainNumber = (value: unknown, integer = false): boolean =>
  typeof value === 'number'
    ? Number.isFinite(value) && (!integer || Number.isInteger(value))
    : typeof value === 'string' && (integer ? /^-?\d+$/ : PLAIN_DECIMAL).test(value);

/** An ISO date ('2026-12-01', or the date part of a timestamp) as the date inputs show it: '01-12-2026'. */
export const formatDate = (iso: string | null | undefined): string =>
  iso ? iso.slice(0, 10).split('-').reverse().join('-') : '';

/**
 * Today as YYYY-MM-DD on the user's own calendar. `toISOString()` gives the UTC day: west of Greenwich
 * in the evening that is tomorrow, and a receipt date pre-filled with it lay in the future.
 */
export function todayLocal(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
