import {
  BULK_MESSAGES,
  dec,
  decDiv,
  decFormat,
  decMul,
  recalculateVat,
  type Decimal,
  type ImportColumn,
  type ImportFlag,
  type ImportTarget,
  type InvoiceRow,
  type VatPrices,
} from '@caravan/contracts';

/** A sum agrees with кол-во × цена within the price's rounding (half a kopeck per unit, and a kopeck). */
function sumAgrees(amount: Decimal, price: Decimal, sum: Decimal): boolean {
  const product = decMul(amount, price);
  const diff = product > sum ? product - sum : sum - product;
  const abs = amount < 0n ? -amount : amount;
  return diff <= dec('0.01') + decMul(abs, dec('0.005'));
}

/** The separator of a lone ',' or '.' before three digits in a text number ('1,200'), or null. */
function separatorOfAmbiguous(cell: Cell): Separator | null {
  if (typeof cell !== 'string') return null;
  const token = /\d[\d\s',.]*\d/.exec(cell)?.[0].replace(/[\s']/g, '');
  if (!token) return null;
  return (AMBIGUOUS.exec(token)?.[1] as Separator | undefined) ?? null;
}

/** contracts' recalculateVat on an invoice row: the prices as strings, the rest of the row kept. */
const recalcVat = <T extends VatPrices>(row: T, changed: keyof VatPrices) => {
  const v = recalculateVat(row, changed);
  const text = (x: unknown) => (x === null || x === undefined ? null : String(x));
  return { ...row, price_no_nds: text(v.price_no_nds), nds: text(v.nds), price_nds: text(v.price_nds) };
};
import {
  AMBIGUOUS,
  type Cell,
  decimalOf,
  type Locale,
  money,
  moneyOf,
  norm,
  quantity,
  rate,
  type Reading,
  separatorsOf,
  type SheetRow,
  textOf,
  trimZeros,
} from './cells';
import { type Field, type Header, headerAt, NUMERIC_FIELDS, repeatsHeader, YUAN } from './headers';
import { invoiceNumber } from './invoiceNumber';

/** The header is looked for in the first rows of a sheet only (seller, buyer and bank blocks sit above it). */
const HEADER_SCAN_ROWS = 40;
/** Rows after the last position with no new one: the table has ended (formatted empty rows follow). */
const GIVE_UP_AFTER = 2000;

export class InvoiceReadError extends Error {
  override name = 'InvoiceReadError';
}

export type TableResult = {
  rows: InvoiceRow[];
  number: string;
  /** Where each recognised column went, and the rows whose numbers disagree (docs/adr/0016). */
  columns: ImportColumn[];
  flags: ImportFlag[];
  /** The table ended on its own (a closing row, a signature) rather than with the rows read. */
  ended: boolean;
  /** Sheet row numbers of the last position and of the last row read. */
  lastPositionRow: number;
  lastRow: number;
};

const word = '(?=$|[\\s:.,(])';
const TOTAL = new RegExp(
  `^(итого|итог|всего|total|subtotal|sub-total|sub total|grand total|合计|总计|小计|в том числе|в т\\.?\\s*ч|ндс|без налога|без ндс|сумма ндс|налог)${word}`,
);
const END_OF_TABLE = new RegExp(
  `^(всего наименований|всего отпущено|руководитель|главный бухгалтер|бухгалтер|поставщик|покупатель|исполнитель|заказчик|отпустил|отпуск (груза )?разрешил|груз (отпустил|принял|получил)|получил|директор|генеральный директор|индивидуальный предприниматель|м\\.?\\s*п|подпись|signature|authorized|seller|the seller|buyer|the buyer|bank details|beneficiary|卖方|买方|供应商|供货方|签字|盖章)${word}`,
);
const INCLUDED = /в\s*(том\s*числе|т\.?\s*ч\.?)\s*(ндс|налог)|включая\s*ндс|incl(uding|\.)?\s*(vat|tax)|含税/;
const RATE_IN_TEXT = [
  /(ндс|налог|vat)[^%\d]{0,15}(\d{1,2}(?:[.,]\d{1,2})?)\s*%/,
  /(\d{1,2}(?:[.,]\d{1,2})?)\s*%\s*(ндс|vat)/,
];
const NO_VAT_IN_TEXT = /без\s*(налога|ндс)|ндс\s*не\s*облагается/;

const NUMERIC = NUMERIC_FIELDS;
type NumericField = (typeof NUMERIC)[number];
type Separator = ',' | '.';

/** A position as read: its texts, and its number cells kept until the columns' readings are decided. */
type Position = { title: string; unit: string; nds: string | null; cells: Record<NumericField, Cell> };

/** A position's numbers under its columns' readings. */
type Values = {
  amount: string | null;
  unit: string;
} & Record<'price' | 'priceNo' | 'priceWith' | 'priceCny', string | null> &
  Record<'sum' | 'sumNo' | 'sumWith' | 'sumCny', Decimal | null>;

/** Prices and the sums they make with the quantity: the same kind first ('Цена без НДС' × кол-во = 'Сумма без НДС'). */
const SUM_PAIRS: [NumericField, NumericField][] = [
  ['price', 'sum'],
  ['priceNo', 'sumNo'],
  ['priceWith', 'sumWith'],
  ['priceNo', 'sum'],
  ['priceWith', 'sum'],
  ['price', 'sumNo'],
  ['price', 'sumWith'],
  ['priceCny', 'sumCny'],
];

/** What the closing rows say about VAT: 'В том числе НДС 20%' or 'Без налога (НДС)'. */
type VatNotes = { included: boolean; rate: string | null };

/**
 * Reads one sheet's rows into invoice rows: finds the header in the first rows, then takes each row
 * with a title and a number until the table ends. Null when the sheet has no header. Stops reading
 * (the caller's rows are closed) as soon as the table ends or has more than `maxRows` positions.
 */
export async function readTable(rows: AsyncIterable<SheetRow>, maxRows: number): Promise<TableResult | null> {
  const iterator = rows[Symbol.asyncIterator]();
  try {
    const top: SheetRow[] = [];
    let next = await iterator.next();
    while (!next.done && next.value.number <= HEADER_SCAN_ROWS + 1) {
      top.push(next.value);
      next = await iterator.next();
    }
    const at = top.findIndex((r, i) => r.number <= HEADER_SCAN_ROWS && headerAt(top, i) !== null);
    if (at < 0) return null;
    const header = headerAt(top, at)!;
    const table = new Table(header, maxRows, invoiceNumber(top.slice(0, at).map((r) => r.cells)));
    const rest = top.slice(at + header.height);
    if (!next.done) rest.push(next.value);
    for (const row of rest) if (!table.take(row)) return table.result();
    while (!(next = await iterator.next()).done) if (!table.take(next.value)) return table.result();
    return table.result();
  } finally {
    await iterator.return?.();
  }
}

class Table {
  private readonly positions: Position[] = [];
  private readonly notes: VatNotes = { included: false, rate: null };
  private readonly locale: Locale;
  private ended = false;
  /** The last position's row, or the first row after the header before there is one. */
  private lastPositionRow = 0;
  private lastRow = 0;

  constructor(
    private readonly header: Header,
    private readonly maxRows: number,
    private readonly number: string,
  ) {
    this.locale = header.russian ? 'ru' : 'en';
  }

  /** Takes a row; false once the table has ended. */
  take(row: SheetRow): boolean {
    this.lastRow = row.number;
    if (!this.lastPositionRow) this.lastPositionRow = row.number;
    const position = this.positionOf(row.cells);
    if (position) {
      this.positions.push(position);
      if (this.positions.length > this.maxRows)
        throw new InvoiceReadError(BULK_MESSAGES.importTooMany(this.maxRows));
      this.lastPositionRow = row.number;
      return true;
    }
    const first = norm(row.cells.find((c) => typeof c === 'string' && c.trim() !== '') ?? null);
    if (END_OF_TABLE.test(first) || row.number - this.lastPositionRow > GIVE_UP_AFTER) {
      this.ended = true;
      return false;
    }
    this.noteVat(row.cells);
    return true;
  }

  result(): TableResult {
    const readings = this.readings();
    const flags: ImportFlag[] = [];
    const rows = this.positions.map((p, i) => {
      const values = this.valuesOf(p, readings);
      const mismatch = this.sumMismatch(values);
      if (mismatch) flags.push({ row: i, message: mismatch });
      return this.rowOf(p, values);
    });
    return {
      rows,
      number: this.number,
      columns: this.columns(),
      flags,
      ended: this.ended,
      lastPositionRow: this.positions.length ? this.lastPositionRow : 0,
      lastRow: this.lastRow,
    };
  }

  private cell(cells: readonly Cell[], field: Field): Cell {
    const column = this.header.columns[field];
    return column === undefined ? null : (cells[column] ?? null);
  }

  /** A position: a title that is not a totals label, and a quantity, a price or a sum. */
  private positionOf(cells: readonly Cell[]): Position | null {
    const title = textOf(this.cell(cells, 'title'));
    if (!title || TOTAL.test(norm(title)) || columnNumbers(cells) || repeatsHeader(cells, this.header))
      return null;
    const numbers = Object.fromEntries(NUMERIC.map((f) => [f, this.cell(cells, f)])) as Position['cells'];
    if (!NUMERIC.some((f) => decimalOf(numbers[f], this.locale) !== null)) return null;
    return {
      title: title.slice(0, 500),
      unit: textOf(this.cell(cells, 'unit')).slice(0, 50),
      nds: rate(this.cell(cells, 'nds'), this.locale, this.header.bareRate),
      cells: numbers,
    };
  }

  /**
   * What '1,200' means in each column: the column's other numbers decide ('12,5' makes ',' decimal,
   * '1,234.50' makes it group), then the rows' own sums (кол-во × цена = сумма under one reading and
   * not the other); undecided, a lone ',' before three digits groups thousands (quantities and prices
   * have at most 2 decimals), a lone '.' stays decimal.
   */
  private readings(): Record<NumericField, Reading> {
    const tally = () => ({ decimal: 0, group: 0 });
    const votes = Object.fromEntries(NUMERIC.map((f) => [f, { ',': tally(), '.': tally() }])) as Record<
      NumericField,
      Record<Separator, { decimal: number; group: number }>
    >;
    const decide = (): Record<NumericField, Reading> =>
      Object.fromEntries(
        NUMERIC.map((f) => {
          const reading: Reading = {};
          for (const sep of [',', '.'] as const) {
            const { decimal, group } = votes[f][sep];
            if (decimal !== group) reading[sep] = decimal > group ? 'decimal' : 'group';
          }
          return [f, reading];
        }),
      ) as Record<NumericField, Reading>;
    for (const p of this.positions)
      for (const f of NUMERIC) {
        const found = separatorsOf(p.cells[f]);
        for (const sep of [',', '.'] as const) if (found[sep]) votes[f][sep][found[sep]]++;
      }
    const byText = decide();
    for (const p of this.positions) this.voteBySum(p, byText, votes);
    const decided = decide();
    for (const f of NUMERIC) decided[f][','] ??= 'group';
    return decided;
  }

  /** A row's vote: the readings of its ambiguous numbers under which кол-во × цена = сумма. */
  private voteBySum(
    p: Position,
    known: Record<NumericField, Reading>,
    votes: Record<NumericField, Record<Separator, { decimal: number; group: number }>>,
  ) {
    const pair = SUM_PAIRS.find(([price, sum]) => p.cells[price] !== null && p.cells[sum] !== null);
    if (!pair || p.cells.amount === null) return;
    const fields: NumericField[] = ['amount', ...pair];
    const open = fields
      .map((f) => ({ f, sep: separatorOfAmbiguous(p.cells[f]) }))
      .filter((o): o is { f: NumericField; sep: Separator } => o.sep !== null && !known[o.f][o.sep]);
    if (!open.length) return;
    const matching: Reading[][] = [];
    for (let combo = 0; combo < 1 << open.length; combo++) {
      const readings = fields.map((f) => ({ ...known[f] }));
      open.forEach(
        (o, k) => (readings[fields.indexOf(o.f)]![o.sep] = combo & (1 << k) ? 'group' : 'decimal'),
      );
      const [a, price, sum] = fields.map((f, k) => decimalOf(p.cells[f], this.locale, readings[k])?.value);
      if (a !== undefined && price !== undefined && sum !== undefined && sumAgrees(a, price, sum))
        matching.push(readings);
    }
    for (const o of open) {
      const choices = new Set(matching.map((r) => r[fields.indexOf(o.f)]![o.sep]));
      if (choices.size === 1) votes[o.f][o.sep][[...choices][0]!]++;
    }
  }

  private valuesOf(p: Position, readings: Record<NumericField, Reading>): Values {
    const { locale } = this;
    const { amount, unit } = quantity(p.cells.amount, locale, readings.amount);
    const price = (f: NumericField) => money(p.cells[f], locale, readings[f]);
    const sum = (f: NumericField) => decimalOf(p.cells[f], locale, readings[f])?.value ?? null;
    return {
      amount,
      unit: p.unit || unit.slice(0, 50),
      price: price('price'),
      priceNo: price('priceNo'),
      priceWith: price('priceWith'),
      priceCny: price('priceCny'),
      sum: sum('sum'),
      sumNo: sum('sumNo'),
      sumWith: sum('sumWith'),
      sumCny: sum('sumCny'),
    };
  }

  /** A row whose sum is not its quantity × price under any of its price columns, in words. */
  private sumMismatch(v: Values): string | null {
    if (v.amount === null) return null;
    const amount = dec(v.amount);
    const pairs = SUM_PAIRS.filter(
      ([price, sum]) => v[price as 'price'] !== null && v[sum as 'sum'] !== null,
    );
    if (!pairs.length) return null;
    const agrees = pairs.some(([price, sum]) =>
      sumAgrees(amount, dec(v[price as 'price']!), v[sum as 'sum']!),
    );
    if (agrees) return null;
    const [price, sum] = pairs[0]!;
    const p = v[price as 'price']!;
    return BULK_MESSAGES.importSumMismatch(
      decFormat(v[sum as 'sum']!, 2),
      v.amount,
      p,
      decFormat(decMul(amount, dec(p)), 2),
    );
  }

  /** Which column went where, for the preview (docs/adr/0016-import-as-suppliers-write.md). */
  private columns(): ImportColumn[] {
    const { columns, texts } = this.header;
    const priceWithVat = this.includesVat('price');
    const targets: Record<Field, ImportTarget> = {
      title: 'title',
      amount: 'amount',
      unit: 'unit',
      nds: 'nds',
      price: this.inYuan('price') ? 'price_cny' : priceWithVat ? 'price_nds' : 'price_no_nds',
      priceNo: this.inYuan('priceNo') ? 'price_cny' : 'price_no_nds',
      priceWith: this.inYuan('priceWith') ? 'price_cny' : 'price_nds',
      sum: this.inYuan('sum') ? 'sum_cny' : 'sum',
      sumNo: this.inYuan('sumNo') ? 'sum_cny' : 'sum',
      sumWith: this.inYuan('sumWith') ? 'sum_cny' : 'sum',
      priceCny: 'price_cny',
      sumCny: 'sum_cny',
    };
    return (Object.entries(columns) as [Field, number][])
      .sort((a, b) => a[1] - b[1])
      .map(([field, column]) => ({ header: texts[column] ?? '', target: targets[field] }));
  }

  private readonly yuan = new Map<Field, boolean>();

  /** A price or sum column in yuan: its header, or most of its values, say ¥, CNY, RMB or 元. */
  private inYuan(field: Field): boolean {
    if (!this.yuan.has(field)) this.yuan.set(field, this.marksYuan(field));
    return this.yuan.get(field)!;
  }

  private marksYuan(field: Field): boolean {
    const column = this.header.columns[field];
    if (column === undefined) return false;
    if (YUAN.test(this.header.texts[column] ?? '')) return true;
    const filled = this.positions.map((p) => p.cells[field as NumericField]).filter((c) => c !== null);
    const marked = filled.filter((c) => typeof c === 'string' && YUAN.test(c)).length;
    return marked * 2 > filled.length;
  }

  private noteVat(cells: readonly Cell[]) {
    for (const cell of cells) {
      const text = norm(cell);
      if (!text) continue;
      if (INCLUDED.test(text)) this.notes.included = true;
      if (this.notes.rate !== null) continue;
      const found = RATE_IN_TEXT.map((r) => r.exec(text)).find(Boolean);
      const percent = found?.[2] && /\d/.test(found[2]) ? found[2] : found?.[1];
      if (percent) this.notes.rate = rate(`${percent}%`, this.locale);
      else if (NO_VAT_IN_TEXT.test(text)) this.notes.rate = '0';
    }
  }

  /** Whether a column read just 'Цена' or 'Сумма' holds amounts with VAT. */
  private includesVat(kind: 'price' | 'sum'): boolean {
    const { columns } = this.header;
    const without = columns[kind === 'price' ? 'priceNo' : 'sumNo'] !== undefined;
    const withVat = columns[kind === 'price' ? 'priceWith' : 'sumWith'] !== undefined;
    if (without !== withVat) return without;
    if (withVat) return false;
    if (this.header.vatIncluded || this.notes.included) return true;
    return kind === 'sum' && columns.priceWith !== undefined && columns.priceNo === undefined;
  }

  /** The row: yuan columns give the buyout price_cny, the others the sale prices with and without VAT. */
  private rowOf(p: Position, values: Values): InvoiceRow {
    const priceWithVat = this.includesVat('price');
    const sumWithVat = this.includesVat('sum');
    const amount = values.amount === null ? null : dec(values.amount);
    const perUnit = (sum: Decimal | null) => (sum === null || !amount ? null : moneyOf(decDiv(sum, amount)));
    const rateColumn = this.header.columns.nds !== undefined;
    const yuan = (['price', 'priceNo', 'priceWith', 'sum', 'sumNo', 'sumWith'] as const).filter((f) =>
      this.inYuan(f),
    );
    const v = { ...values };
    for (const f of yuan) v[f] = null;
    const yuanPrice = yuan.map((f) => values[f]).find((x) => x !== null && typeof x === 'string') as
      string | undefined;
    const yuanSum = yuan.map((f) => values[f]).find((x) => typeof x === 'bigint') as Decimal | undefined;
    return {
      ...completeVat({
        title: p.title,
        amount: values.amount,
        unit: values.unit,
        price_no_nds:
          v.priceNo ?? (priceWithVat ? null : v.price) ?? perUnit(v.sumNo ?? (sumWithVat ? null : v.sum)),
        nds: p.nds ?? (rateColumn ? null : this.notes.rate),
        price_nds:
          v.priceWith ?? (priceWithVat ? v.price : null) ?? perUnit(v.sumWith ?? (sumWithVat ? v.sum : null)),
        price_cny: null,
      }),
      price_cny: values.priceCny ?? yuanPrice ?? perUnit(values.sumCny ?? yuanSum ?? null),
    };
  }
}

/** The row of column numbers under a Russian form's header: 1, 2, 3… (also '1а', and 'А', 'Б' in a УПД). */
function columnNumbers(cells: readonly Cell[]): boolean {
  const filled = cells.filter((c) => c !== null && textOf(c) !== '');
  const numbers: number[] = [];
  for (const c of filled) {
    if (typeof c === 'number') numbers.push(c);
    else if (/^\d{1,2}[а-яa-z]?$/i.test(c!.trim())) numbers.push(parseInt(c!.trim(), 10));
    else if (!/^[а-яa-z]$/i.test(c!.trim())) return false;
  }
  if (numbers.length < 3 || numbers[0]! > 2) return false;
  return numbers.every((n, i) => Number.isInteger(n) && n <= 99 && (i === 0 || n >= numbers[i - 1]!));
}

const RATES = ['0', '20', '22', '10', '13', '9', '6', '3', '1', '5', '7', '12', '18'];

/**
 * Fills the third of price without VAT, VAT % and price with VAT from the other two (contracts'
 * recalculateVat, as the edit dialog does). A rate derived from two rounded prices is the usual rate that
 * gives them back when there is one ('19.98' is 20 % on a price of 8.33).
 */
function completeVat(row: InvoiceRow): InvoiceRow {
  const { price_no_nds: without, price_nds: withVat, nds } = row;
  if (without !== null && withVat === null && nds !== null) return recalcVat(row, 'price_no_nds');
  if (withVat !== null && without === null && nds !== null) return recalcVat(row, 'price_nds');
  if (without === null || withVat === null || nds !== null) return row;
  const usual = RATES.find(
    (r) =>
      recalcVat({ price_no_nds: without, nds: r, price_nds: null }, 'price_no_nds').price_nds === withVat ||
      recalcVat({ price_no_nds: null, nds: r, price_nds: withVat }, 'price_nds').price_no_nds === without,
  );
  if (usual !== undefined) return { ...row, nds: usual };
  const derived = recalcVat(row, 'price_no_nds').nds;
  const value = derived === null ? null : Number(derived);
  return { ...row, nds: value !== null && value >= 0 && value <= 100 ? trimZeros(derived!) : null };
}
