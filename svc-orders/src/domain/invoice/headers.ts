import { type Cell, MAX_COLUMNS, norm, type SheetRow } from './cells';

/** The columns that hold numbers (a header needs a title and one of them; the table reads them as decimals). */
export const NUMERIC_FIELDS = [
  'amount',
  'price',
  'priceNo',
  'priceWith',
  'sum',
  'sumNo',
  'sumWith',
  'priceCny',
  'sumCny',
] as const;

/**
 * What a header cell names. 'nds' is the VAT rate; a VAT sum, a row number, a code or an article
 * are 'other' (recognised, so they never pass for anything else, and not read).
 */
export type Role =
  | 'title'
  | 'amount'
  | 'unit'
  | 'price'
  | 'priceNo'
  | 'priceWith'
  | 'nds'
  | 'sum'
  | 'sumNo'
  | 'sumWith'
  | 'priceCny'
  | 'sumCny'
  | 'other';
export type Field = Exclude<Role, 'other'>;

/** The table's columns: the first column of each kind, and how the header reads. */
export type Header = {
  columns: Partial<Record<Field, number>>;
  /** The rate column's header is a bare 'НДС'/'VAT', which some suppliers use for the VAT sum. */
  bareRate: boolean;
  /** A 'в т.ч. НДС' column: the prices and sums include VAT. */
  vatIncluded: boolean;
  /** Header words are Cyrillic: a lone comma in a number is a decimal comma. */
  russian: boolean;
  /** Rows the header takes (2 for a header with a row of sub-headers). */
  height: number;
  /** Each column's header text as matched, to recognise the header repeated after a page break. */
  texts: string[];
};

const END = '(?=$|[\\s(),.:;/\\-№])';
const WITHOUT = /без\s*(учета\s*)?(ндс|налога)|excl|without\s*(vat|tax)|\bnet\b|不含税|未税/;
const WITH = /(^|\s)(с|включая|вкл\.?|с\s*учетом)\s*(ндс|налог)|incl|with\s*(vat|tax)|gross|含税|价税/;
const PRICE = /цена|price|单价|тариф|стоимость\s*(единицы|за\s*ед)|unit\s*cost|cost\s*per/;
/** A column in yuan: the supplier's price (the buyout), not a sale price in roubles. */
export const YUAN = /¥|￥|\bcny\b|\brmb\b|元|юан|yuan/i;
/** Prices in another currency (dollars, euros) are neither the buyout in yuan nor a sale price in roubles. */
const FOREIGN = /\$|\busd\b|\beur\b|€|доллар|dollar|евро|美元|欧元/i;
const SUM = /^(сумма|стоимость|всего|total|amount|line\s*total|金额|总价|总金额|价税合计|合计)/;
const VAT_SUM =
  /^(в\s*т\.?\s*ч\.?|в\s*том\s*числе)\s*(сумма\s*)?(ндс|налог)|сумма\s*(ндс|налога)|^ндс\s*(сумма|,?\s*руб)|^налог\s*сумма|vat\s*amount|tax\s*amount|amount\s*of\s*(vat|tax)|税额/;
const RATE = /ставка|^(ндс|налог)\s*,?\s*(%|в\s*%)|^%$|^(vat|tax)\s*(rate|%)|税率/;
const BARE_RATE = /^(ндс|налог|vat|tax)$/;
const CODE = new RegExp(
  `^(код|артикул|арт|sku|code|item\\s*code|item\\s*no\\.?|item\\s*number|art\\.?\\s*no\\.?|style\\s*no\\.?|product\\s*code|model|model\\s*no|part\\s*(no|number)|штрих-?код|barcode|ean|型号|货号|编码|条码|规格型号|规格)${END}|\\sкод${END}|货号|款号`,
);
const NUMBER =
  /^(№|n|no|nr|#|п\/п|№\s*п\s*\/?\s*п|номер|номер по порядку|item\s*(no|#)|line|pos|поз|позиция|序号|s\/?n|sl\s*no)\.?$/;
const AMOUNT = new RegExp(`^(кол-во|кол|количество|к-во|qty|q-ty|q['’‘\`]ty|qnty|quantity|数量)${END}`);
const PACKAGES = /мест|в\s*одном\s*месте|упаков|короб|ctn|carton|箱/;
const UNIT = new RegExp(
  `^(ед|единица|ед\\.?\\s*изм|unit|units|uom|u\\/m|单位|计量单位)${END}|условное\\s*обозначение`,
);
const TITLE = new RegExp(
  `^(наименование|название|товар|товары|продукция|номенклатура|работы|услуги|предмет\\s*счета|description|desc|item|items|product|product\\s*name|goods|name|commodity|品名|商品名称|商品|名称|货物名称|产品名称|品名规格)${END}`,
);

/** The kind of column a header text names, or null. Order matters: 'сумма НДС' is a VAT sum, not a sum. */
export function classify(text: string): Role | null {
  if (!text) return null;
  if (VAT_SUM.test(text)) return 'other';
  if (RATE.test(text) || BARE_RATE.test(text)) return 'nds';
  if (CODE.test(text) || NUMBER.test(text)) return 'other';
  const price = PRICE.test(text);
  if (price && YUAN.test(text)) return 'priceCny';
  if (SUM.test(text) && YUAN.test(text)) return 'sumCny';
  if ((price || SUM.test(text)) && FOREIGN.test(text)) return 'other';
  if (price && WITHOUT.test(text)) return 'priceNo';
  if (price && WITH.test(text)) return 'priceWith';
  const sum = SUM.test(text);
  if (sum && WITHOUT.test(text)) return 'sumNo';
  if (sum && WITH.test(text)) return 'sumWith';
  if (price) return 'price';
  if (sum) return 'sum';
  if (AMOUNT.test(text)) return PACKAGES.test(text) ? 'other' : 'amount';
  if (UNIT.test(text)) return 'unit';
  if (TITLE.test(text)) return 'title';
  return null;
}

/** Words of a sub-header row under a merged header cell ('Цена' over 'без НДС' | 'с НДС'). */
const SUB_HEADER = new RegExp(
  `^(без\\s*(учета\\s*)?(ндс|налога)|с\\s*(учетом\\s*)?(ндс|налогом?)|код|наименование|условное\\s*обозначение|ставка|сумма|%|в\\s*одном\\s*месте|мест|excl|incl|net|gross|含税|不含税|цифровой\\s*код|краткое\\s*наименование)${END}`,
);

const texts = (cells: readonly Cell[]) => cells.slice(0, MAX_COLUMNS).map(norm);

function headerOf(columnTexts: string[], height: number): Header | null {
  const columns: Header['columns'] = {};
  let bareRate = false;
  let vatIncluded = false;
  columnTexts.forEach((text, column) => {
    const role = classify(text);
    if (role === 'other' && /^(в\s*т\.?\s*ч\.?|в\s*том\s*числе)/.test(text)) vatIncluded = true;
    if (!role || role === 'other' || columns[role] !== undefined) return;
    columns[role] = column;
    if (role === 'nds') bareRate = BARE_RATE.test(text);
  });
  if (columns.title === undefined || !NUMERIC_FIELDS.some((f) => columns[f] !== undefined)) return null;
  const russian = /[а-я]/.test(columnTexts[columns.title] ?? '');
  return { columns, bareRate, vatIncluded, russian, height, texts: columnTexts };
}

/**
 * A header row's texts joined with the sub-header row under it. A header cell merged across
 * columns keeps its text in the first one only, so a sub-header cell under an empty header cell
 * takes the text of the nearest header cell to its left ('Цена' + 'с НДС' → 'цена с ндс').
 */
function joined(top: string[], sub: string[]): string[] {
  const width = Math.max(top.length, sub.length);
  const out: string[] = [];
  let parent = '';
  for (let column = 0; column < width; column++) {
    const above = top[column] ?? '';
    const below = sub[column] ?? '';
    if (above) parent = above;
    else if (!below) parent = '';
    out.push([above || (below ? parent : ''), below].filter(Boolean).join(' '));
  }
  return out;
}

const hasNumbers = (cells: readonly Cell[]) => cells.some((c) => typeof c === 'number');

function isSubHeader(cells: readonly Cell[]): boolean {
  if (hasNumbers(cells)) return false;
  return texts(cells).some((t) => t !== '' && (SUB_HEADER.test(t) || classify(t) !== null));
}

/** A joined reading is taken when it finds as many columns as the plain one and reads some differently. */
function better(candidate: Header | null, base: Header): candidate is Header {
  if (!candidate) return false;
  const count = (h: Header) => Object.keys(h.columns).length;
  return (
    count(candidate) >= count(base) && JSON.stringify(candidate.columns) !== JSON.stringify(base.columns)
  );
}

/**
 * The header at `rows[index]`, or null. A group row right above it ('Цена' over its 'без НДС' |
 * 'с НДС' row) and a sub-header row right under it ('НДС' over 'ставка' | 'сумма') are joined in
 * when they make the columns clearer.
 */
export function headerAt(rows: readonly SheetRow[], index: number): Header | null {
  const row = rows[index]!;
  let top = texts(row.cells);
  let header = headerOf(top, 1);
  if (!header) return null;
  const previous = rows[index - 1];
  if (previous && previous.number === row.number - 1 && !hasNumbers(previous.cells)) {
    const groupedTexts = joined(texts(previous.cells), top);
    const grouped = headerOf(groupedTexts, 1);
    if (better(grouped, header)) [header, top] = [grouped, groupedTexts];
  }
  const next = rows[index + 1];
  if (next && next.number === row.number + 1 && isSubHeader(next.cells)) {
    const split = headerOf(joined(top, texts(next.cells)), 2);
    if (better(split, header)) header = split;
  }
  return header;
}

/** A row that repeats the header (a page break in a printed form): header words and no numbers. */
export function repeatsHeader(cells: readonly Cell[], header: Header): boolean {
  if (hasNumbers(cells)) return false;
  const found = texts(cells).filter((t, column) => t !== '' && (t === header.texts[column] || classify(t)));
  return found.length >= 2;
}
