import { dec, decFormat, type Decimal } from '@caravan/contracts';

/** A cell as the table logic sees it: text, a number, or nothing (dates, errors and booleans are nothing). */
export type Cell = string | number | null;
/** One sheet row: its 1-based number in the sheet and its cells from the first column. */
export type SheetRow = { number: number; cells: Cell[] };
/** How a text number with a lone comma reads: '1,250' is 1.25 in a Russian invoice, 1250 in an English one. */
export type Locale = 'ru' | 'en';
/**
 * What a lone ',' or '.' before exactly three digits means in one column ('1,200': 1200 or 1.2),
 * decided from the whole column and the rows' sums (table.ts); undefined: not decided.
 */
export type Reading = Partial<Record<',' | '.', 'decimal' | 'group'>>;

/** Columns read from each row; an invoice table never needs more, and a stray far cell costs nothing. */
export const MAX_COLUMNS = 100;

/** An exceljs or SheetJS cell value as a Cell: formulas give their cached result, rich text its text. */
export function cellOf(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'object' || value instanceof Date) return null;
  const v = value as Record<string, unknown>;
  if (Array.isArray(v.richText))
    return v.richText
      .map((run: { text?: unknown }) => (typeof run?.text === 'string' ? run.text : ''))
      .join('');
  if ('formula' in v || 'sharedFormula' in v || 'result' in v) return cellOf(v.result);
  if ('text' in v) return cellOf(v.text);
  return null;
}

/** Text for matching header words: lower case, ё as е, one space for any run of spaces and newlines. */
export function norm(cell: Cell): string {
  if (typeof cell !== 'string') return '';
  return cell
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s:：*]+$/, '');
}

/** Text to keep (a title, a unit): spaces and newlines collapsed; numbers as written. */
export function textOf(cell: Cell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return numberText(cell);
  return cell.replace(/\s+/g, ' ').trim();
}

const numberText = (n: number) => {
  if (Number.isInteger(n)) return String(n);
  try {
    return trimZeros(decFormat(dec(n), 6));
  } catch {
    return String(n);
  }
};

/** '10.00' → '10', '12.50' → '12.5'. */
export const trimZeros = (s: string) => (s.includes('.') ? s.replace(/\.?0+$/, '') : s);

const MINUS = /^[-−–]/;
const TOKEN = /[-−–]?\d(?:[\d\s',.]*\d)?/;
const LIMIT = 10n ** 18n; // 12 integer digits at the contracts' 6 internal decimals

/**
 * The number in a cell and the text around it: '1 234,50' (also with no-break and narrow no-break
 * spaces), '1,234.50', '1.234,50', '12,5 шт', '¥ 25.00', '25,00 руб.'. Null for '-', '—', dates
 * written as text and anything else without one clear number.
 */
export function decimalOf(
  cell: Cell,
  locale: Locale,
  reading: Reading = {},
): { value: Decimal; rest: string } | null {
  if (cell === null) return null;
  if (typeof cell === 'number') {
    const value = safeDec(cell);
    return value === null ? null : { value, rest: '' };
  }
  const match = TOKEN.exec(cell);
  if (!match) return null;
  const plain = plainNumber(match[0].replace(MINUS, '').replace(/[\s']/g, ''), locale, reading);
  if (plain === null) return null;
  const value = safeDec((MINUS.test(match[0]) ? '-' : '') + plain);
  if (value === null) return null;
  return { value, rest: (cell.slice(0, match.index) + cell.slice(match.index + match[0].length)).trim() };
}

function safeDec(value: number | string): Decimal | null {
  try {
    const d = dec(value);
    return d >= LIMIT || d <= -LIMIT ? null : d;
  } catch {
    return null;
  }
}

/** A lone separator before three digits: '1,200' is 1200 or 1.2, as the column decides. */
export const AMBIGUOUS = /^[1-9]\d{0,2}([,.])\d{3}$/;

/**
 * What a text number's separators tell about its column, or nothing for an ambiguous one: '12,5' and
 * '1.234,50' use ',' as the decimal, '1,234,567' and '1,234.50' group with it.
 */
export function separatorsOf(cell: Cell): Reading {
  if (typeof cell !== 'string') return {};
  const token = TOKEN.exec(cell)?.[0].replace(MINUS, '');
  if (!token || AMBIGUOUS.test(token.replace(/[\s']/g, ''))) return {};
  const spaced = /\d[\s']\d/.test(token);
  const plain = token.replace(/[\s']/g, '');
  const dots = plain.split('.').length - 1;
  const commas = plain.split(',').length - 1;
  if (dots && commas) {
    const decimal = plain.lastIndexOf('.') > plain.lastIndexOf(',') ? '.' : ',';
    return decimal === '.' ? { '.': 'decimal', ',': 'group' } : { ',': 'decimal', '.': 'group' };
  }
  const separator = commas ? ',' : dots ? '.' : null;
  if (!separator) return {};
  if (commas + dots > 1) return { [separator]: 'group' };
  return spaced || !/^\d{1,3}[,.]\d{3}$/.test(plain) ? { [separator]: 'decimal' } : {};
}

/** '1.234,50' → '1234.50': the separator used last is the decimal one, the other groups thousands. */
function plainNumber(token: string, locale: Locale, reading: Reading): string | null {
  const dots = token.split('.').length - 1;
  const commas = token.split(',').length - 1;
  const lone = AMBIGUOUS.exec(token)?.[1] as ',' | '.' | undefined;
  let decimal: '.' | ',' | null;
  if (lone && reading[lone]) decimal = reading[lone] === 'decimal' ? lone : null;
  else if (dots && commas) decimal = token.lastIndexOf('.') > token.lastIndexOf(',') ? '.' : ',';
  else if (commas)
    decimal = commas > 1 || (locale === 'en' && /^[1-9]\d{0,2},\d{3}$/.test(token)) ? null : ',';
  else if (dots) decimal = dots > 1 ? null : '.';
  else return token;
  const grouping = decimal === ',' ? '.' : decimal === '.' ? ',' : dots ? '.' : ',';
  const [whole = '', fraction, extra] = decimal ? token.split(decimal) : [token];
  if (extra !== undefined) return null;
  const groups = whole.split(grouping);
  if (groups.length > 1 && (!/^\d{1,3}$/.test(groups[0]!) || groups.slice(1).some((g) => !/^\d{3}$/.test(g))))
    return null;
  return groups.join('') + (fraction ? `.${fraction}` : '');
}

const ZERO = 0n;
const HUNDRED = dec('100');
const ONE = dec('1');

/** A price: 2 decimals ('1234.50'). */
export function money(cell: Cell, locale: Locale, reading?: Reading): string | null {
  const found = decimalOf(cell, locale, reading);
  return found ? decFormat(found.value, 2) : null;
}

/** A decimal string with 2 decimals or null, from a computed value. */
export const moneyOf = (value: Decimal | null) => (value === null ? null : decFormat(value, 2));

/** A quantity: up to 2 decimals, never negative; '10 шт' also gives its unit. */
export function quantity(
  cell: Cell,
  locale: Locale,
  reading?: Reading,
): { amount: string | null; unit: string } {
  const found = decimalOf(cell, locale, reading);
  if (!found || found.value < ZERO) return { amount: null, unit: '' };
  const unit = found.rest.replace(/^[\s.,:;()]+|[\s,:;()]+$/g, '');
  return {
    amount: trimZeros(decFormat(found.value, 2)),
    unit: /^[\p{L}][\p{L}.\s²³/]{0,19}$/u.test(unit) ? unit : '',
  };
}

const NO_VAT = /без\s*(ндс|налога)|не\s*облагается|освобожд|exempt|免税|不征税|零税率/;

/** Rates a bare 'НДС' or 'VAT' column holds (a column of VAT sums under the same word holds others). */
const KNOWN_RATES = ['0', '1', '3', '5', '6', '7', '9', '10', '12', '13', '18', '20', '22'];

/**
 * A VAT rate as a percent string: '20%', '20 %', 20, 0.2 (a fraction below 1 is a share: ×100),
 * 'без НДС' → '0'. `strict`: only the usual rates, for a column whose header may mean the VAT sum.
 */
export function rate(cell: Cell, locale: Locale, strict = false): string | null {
  if (typeof cell === 'string' && NO_VAT.test(norm(cell))) return '0';
  const found = decimalOf(cell, locale);
  if (!found || found.value < ZERO) return null;
  const percent = typeof cell === 'string' && cell.includes('%');
  const value = !percent && found.value < ONE ? found.value * 100n : found.value;
  if (value > HUNDRED) return null;
  const text = trimZeros(decFormat(value, 2));
  return strict && !percent && !KNOWN_RATES.includes(text) ? null : text;
}
