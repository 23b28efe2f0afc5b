import { pipeline, type Readable } from 'node:stream';
import { stream as excelStream } from 'exceljs';
import { type Cell, cellOf, MAX_COLUMNS, type SheetRow } from './cells';
import { CellLimitError, sheetXml } from './sheetXml';
import { ZipError, ZipFile } from './zip';

/**
 * .xlsx sheets, row by row, without the file in memory (docs/adr/0009-excel-import.md).
 *
 * exceljs's streaming WorkbookReader parses each part, but its own pass over the zip is not used: in
 * exceljs 4.4.0 it drops zip entries at random when the consumer is slower than the file (issue
 * #3064: the workbook or the shared strings go missing in ~20 % of reads of a SheetJS-written file),
 * decodes each chunk on its own (a Cyrillic letter split between chunks becomes U+FFFD) and leaves
 * temporary files and handles behind when the reader stops early. Instead the parts are streamed
 * from the zip's central directory in the order the parse needs (relationships, workbook, shared
 * strings, styles, then the sheets in the workbook's order) as UTF-8 text, into the same reader's
 * part parsers. Those are exceljs internals (4.4.0); the unit tests read files written by exceljs
 * and by SheetJS and fail if they change.
 */

type Relationship = { Id: string; Type: string; Target: string };
type SheetModel = { name: string; state?: string; rId: string };
type ExcelRow = { number: number; values: unknown };
type ReaderParts = {
  workbookRels?: Relationship[];
  sharedStrings?: unknown[];
  model?: { sheets?: SheetModel[] };
  _parseRels(part: Readable): Promise<void>;
  _parseWorkbook(part: Readable): Promise<void>;
  _parseSharedStrings(part: Readable): AsyncIterable<{ index: number; text: unknown }>;
  _parseStyles(part: Readable): Promise<void>;
  _parseWorksheet(part: Readable, id: string): Iterable<{ value: AsyncIterable<ExcelRow> }>;
};

const MB = 1024 * 1024;
/**
 * What one import may unpack (docs/adr/0016-import-as-suppliers-write.md): each part's declared size,
 * the shared strings' count and a sheet's cells. A 20,000-position invoice needs a fraction of each
 * (its shared strings ~3 MB, its sheet ~15 MB, ~200,000 cells); a bomb declaring 255 MB of strings is
 * refused from the zip's directory before a byte is inflated.
 */
export const XLSX_LIMITS = {
  small: 4 * MB,
  styles: 16 * MB,
  sharedStringsBytes: 32 * MB,
  sharedStrings: 300_000,
  sheetBytes: 128 * MB,
  cells: 1_000_000,
};
const WORKSHEET = /\/worksheet$/;
const SHARED_STRINGS = /\/sharedStrings$/;
const STYLES = /\/styles$/;

/** The visible worksheets of an .xlsx in the workbook's order, each a lazy stream of rows. */
export async function* xlsxSheets(
  path: string,
  limits = XLSX_LIMITS,
): AsyncGenerator<{ rows: AsyncIterable<SheetRow> }> {
  const zip = await ZipFile.open(path);
  try {
    yield* workbookSheets(zip, path, limits);
  } finally {
    await zip.close();
  }
}

async function* workbookSheets(zip: ZipFile, path: string, limits: typeof XLSX_LIMITS) {
  const reader = new excelStream.xlsx.WorkbookReader(path, {
    // emitted to be counted, and cached here (the worksheet parser reads reader.sharedStrings)
    sharedStrings: 'emit',
    hyperlinks: 'ignore',
    // styles tell a date from a number: a date is never a quantity or a price
    styles: 'cache',
    worksheets: 'emit',
    entries: 'emit',
  }) as unknown as ReaderParts;
  if (!zip.has('xl/workbook.xml')) throw new ZipError('not a workbook');
  if (zip.has('xl/_rels/workbook.xml.rels'))
    await reader._parseRels(await zip.text('xl/_rels/workbook.xml.rels', limits.small));
  await reader._parseWorkbook(await zip.text('xl/workbook.xml', limits.small));
  const rels = reader.workbookRels ?? [];
  const partOf = (type: RegExp) => partPath(rels.find((r) => type.test(r.Type))?.Target);
  const strings = partOf(SHARED_STRINGS) ?? 'xl/sharedStrings.xml';
  const cached: unknown[] = (reader.sharedStrings = []);
  if (zip.has(strings)) {
    const part = await zip.text(strings, limits.sharedStringsBytes);
    for await (const { text } of reader._parseSharedStrings(part)) {
      if (cached.push(text) > limits.sharedStrings) {
        part.destroy();
        throw new CellLimitError(`more than ${limits.sharedStrings} shared strings`);
      }
    }
  }
  const styles = partOf(STYLES) ?? 'xl/styles.xml';
  if (zip.has(styles)) await reader._parseStyles(await zip.text(styles, limits.styles));
  // a workbook exceljs cannot parse (XML with namespace prefixes) has no sheets for it
  if (!reader.model?.sheets?.length) throw new ZipError('no sheets in the workbook');
  for (const [index, sheet] of reader.model.sheets.entries()) {
    if (sheet.state && sheet.state !== 'visible') continue;
    const rel = rels.find((r) => r.Id === sheet.rId && WORKSHEET.test(r.Type));
    const part = partPath(rel?.Target);
    if (part && zip.has(part)) yield { rows: sheetRows(reader, zip, part, String(index + 1), limits) };
  }
}

/** 'worksheets/sheet1.xml' (relative to xl/) or '/xl/worksheets/sheet1.xml' → the zip's entry name. */
function partPath(target: string | undefined): string | null {
  if (!target) return null;
  return target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`;
}

async function* sheetRows(
  reader: ReaderParts,
  zip: ZipFile,
  part: string,
  id: string,
  limits: typeof XLSX_LIMITS,
): AsyncGenerator<SheetRow> {
  const raw = await zip.text(part, limits.sheetBytes);
  const text = sheetXml(limits.cells);
  pipeline(raw, text, () => undefined);
  try {
    for (const { value: worksheet } of reader._parseWorksheet(text, id)) {
      for await (const row of worksheet) yield { number: row.number, cells: cellsOf(row.values) };
    }
  } finally {
    text.destroy();
  }
}

/** exceljs row values are 1-based (values[1] is column A). */
function cellsOf(values: unknown): Cell[] {
  if (!Array.isArray(values)) return [];
  const width = Math.min(values.length - 1, MAX_COLUMNS);
  const cells: Cell[] = [];
  for (let column = 1; column <= width; column++) cells.push(cellOf(values[column]));
  return cells;
}
