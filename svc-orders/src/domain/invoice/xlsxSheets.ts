import type { Readable } from 'node:stream';
import { stream as excelStream } from 'exceljs';
import { type Cell, cellOf, MAX_COLUMNS, type SheetRow } from './cells';
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
  model?: { sheets?: SheetModel[] };
  _parseRels(part: Readable): Promise<void>;
  _parseWorkbook(part: Readable): Promise<void>;
  _parseSharedStrings(part: Readable): AsyncIterable<unknown>;
  _parseStyles(part: Readable): Promise<void>;
  _parseWorksheet(part: Readable, id: string): Iterable<{ value: AsyncIterable<ExcelRow> }>;
};

const MB = 1024 * 1024;
const LIMITS = { small: 16 * MB, styles: 64 * MB, sharedStrings: 256 * MB, sheet: 4096 * MB };
const WORKSHEET = /\/worksheet$/;
const SHARED_STRINGS = /\/sharedStrings$/;
const STYLES = /\/styles$/;

/** The visible worksheets of an .xlsx in the workbook's order, each a lazy stream of rows. */
export async function* xlsxSheets(path: string): AsyncGenerator<{ rows: AsyncIterable<SheetRow> }> {
  const zip = await ZipFile.open(path);
  try {
    const reader = new excelStream.xlsx.WorkbookReader(path, {
      sharedStrings: 'cache',
      hyperlinks: 'ignore',
      // styles tell a date from a number: a date is never a quantity or a price
      styles: 'cache',
      worksheets: 'emit',
      entries: 'emit',
    }) as unknown as ReaderParts;
    if (!zip.has('xl/workbook.xml')) throw new ZipError('not a workbook');
    if (zip.has('xl/_rels/workbook.xml.rels'))
      await reader._parseRels(await zip.text('xl/_rels/workbook.xml.rels', LIMITS.small));
    await reader._parseWorkbook(await zip.text('xl/workbook.xml', LIMITS.small));
    const rels = reader.workbookRels ?? [];
    const partOf = (type: RegExp) => partPath(rels.find((r) => type.test(r.Type))?.Target);
    const strings = partOf(SHARED_STRINGS) ?? 'xl/sharedStrings.xml';
    if (zip.has(strings)) {
      for await (const _ of reader._parseSharedStrings(await zip.text(strings, LIMITS.sharedStrings)));
    }
    const styles = partOf(STYLES) ?? 'xl/styles.xml';
    if (zip.has(styles)) await reader._parseStyles(await zip.text(styles, LIMITS.styles));
    // a workbook exceljs cannot parse (XML with namespace prefixes) has no sheets for it
    if (!reader.model?.sheets?.length) throw new ZipError('no sheets in the workbook');
    for (const [index, sheet] of reader.model.sheets.entries()) {
      if (sheet.state && sheet.state !== 'visible') continue;
      const rel = rels.find((r) => r.Id === sheet.rId && WORKSHEET.test(r.Type));
      const part = partPath(rel?.Target);
      if (part && zip.has(part)) yield { rows: sheetRows(reader, zip, part, String(index + 1)) };
    }
  } finally {
    await zip.close();
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
): AsyncGenerator<SheetRow> {
  const text = await zip.text(part, LIMITS.sheet);
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
