import {
  BULK_MESSAGES,
  dec,
  decDiv,
  recalculateVat,
  type Decimal,
  type InvoiceRow,
  type VatPrices,
} from '@caravan/contracts';

/** contracts' recalculateVat on an invoice row: the prices as strings, the rest of the row kept. */
const recalcVat = <T extends VatPrices>(row: T, changed: keyof VatPrices) => {
  const v = recalculateVat(row, changed);
  const text = (x: unknown) => (x === null || x === undefined ? null : String(x));
  return { ...row, price_no_nds: text(v.price_no_nds), nds: text(v.nds), price_nds: text(v.price_nds) };
};
import {
  type Cell,
  decimalOf,
  type Locale,
  money,
  moneyOf,
  norm,
  quantity,
  rate,
  type SheetRow,
  textOf,
  trimZeros,
} from './cells';
import { type Field, type Header, headerAt, repeatsHeader } from './headers';
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

type Position = {
  title: string;
  amount: string | null;
  unit: string;
  nds: string | null;
} & Record<'price' | 'priceNo' | 'priceWith', string | null> &
  Record<'sum' | 'sumNo' | 'sumWith', Decimal | null>;

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
    return {
      rows: this.positions.map((p) => this.rowOf(p)),
      number: this.number,
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
    const { locale } = this;
    const { amount, unit } = quantity(this.cell(cells, 'amount'), locale);
    const price = (f: Field) => money(this.cell(cells, f), locale);
    const sum = (f: Field) => decimalOf(this.cell(cells, f), locale)?.value ?? null;
    const position: Position = {
      title: title.slice(0, 500),
      amount,
      unit: (textOf(this.cell(cells, 'unit')) || unit).slice(0, 50),
      nds: rate(this.cell(cells, 'nds'), locale, this.header.bareRate),
      price: price('price'),
      priceNo: price('priceNo'),
      priceWith: price('priceWith'),
      sum: sum('sum'),
      sumNo: sum('sumNo'),
      sumWith: sum('sumWith'),
    };
    const numbers = [amount, position.price, position.priceNo, position.priceWith];
    const sums = [position.sum, position.sumNo, position.sumWith];
    return numbers.some((v) => v !== null) || sums.some((v) => v !== null) ? position : null;
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

  private rowOf(p: Position): InvoiceRow {
    const priceWithVat = this.includesVat('price');
    const sumWithVat = this.includesVat('sum');
    const amount = p.amount === null ? null : dec(p.amount);
    const perUnit = (sum: Decimal | null) => (sum === null || !amount ? null : moneyOf(decDiv(sum, amount)));
    const rateColumn = this.header.columns.nds !== undefined;
    return completeVat({
      title: p.title,
      amount: p.amount,
      unit: p.unit,
      price_no_nds:
        p.priceNo ?? (priceWithVat ? null : p.price) ?? perUnit(p.sumNo ?? (sumWithVat ? null : p.sum)),
      nds: p.nds ?? (rateColumn ? null : this.notes.rate),
      price_nds:
        p.priceWith ?? (priceWithVat ? p.price : null) ?? perUnit(p.sumWith ?? (sumWithVat ? p.sum : null)),
    });
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
