import { open } from 'node:fs/promises';
import { BULK_MESSAGES, IMPORT_MAX_ROWS, type InvoiceImport } from '@caravan/contracts';
import type { SheetRow } from './cells';
import { CellLimitError } from './sheetXml';
import { InvoiceReadError, readTable } from './table';
import { xlsSheets } from './xlsSheets';
import { XLSX_LIMITS, xlsxSheets } from './xlsxSheets';
import { ZipLimitError } from './zip';

export { InvoiceReadError };

/** A table that runs on to where SheetJS stopped reading is longer than the limit. */
const RUNS_ON = 10;

export type ReadOptions = { maxRows?: number; limits?: typeof XLSX_LIMITS };

/**
 * A supplier invoice (счёт на оплату, счёт-фактура, товарная накладная, an English or Chinese
 * invoice) on disk → its position rows and number (docs/adr/0009-excel-import.md). Reads the first
 * visible sheet with a recognisable header. Refuses with InvoiceReadError carrying the Russian
 * message: importUnreadable (not an Excel file, or a broken one), importEmpty (no header or no
 * position), importTooMany (more than maxRows positions), importTooLarge (more to unpack than
 * XLSX_LIMITS allow: an import bomb).
 */
export async function readInvoice(
  path: string,
  extension: 'xlsx' | 'xls',
  o: ReadOptions = {},
): Promise<InvoiceImport> {
  const maxRows = o.maxRows ?? IMPORT_MAX_ROWS;
  try {
    const format = await formatOf(path, extension);
    if (!format) throw new InvoiceReadError(BULK_MESSAGES.importUnreadable);
    const sheets: AsyncIterable<{ rows: AsyncIterable<SheetRow>; truncated?: boolean }> =
      format === 'zip' ? xlsxSheets(path, o.limits) : toAsync(xlsSheets(path, maxRows));
    for await (const sheet of sheets) {
      const table = await readTable(sheet.rows, maxRows);
      if (!table?.rows.length) continue;
      if (sheet.truncated && !table.ended && table.lastPositionRow > table.lastRow - RUNS_ON)
        throw new InvoiceReadError(BULK_MESSAGES.importTooMany(maxRows));
      return { rows: table.rows, number: table.number, columns: table.columns, flags: table.flags };
    }
  } catch (err) {
    if (err instanceof InvoiceReadError) throw err;
    if (err instanceof ZipLimitError || err instanceof CellLimitError)
      throw new InvoiceReadError(BULK_MESSAGES.importTooLarge, { cause: err });
    throw new InvoiceReadError(BULK_MESSAGES.importUnreadable, { cause: err });
  }
  throw new InvoiceReadError(BULK_MESSAGES.importEmpty);
}

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/**
 * What the file is by its own bytes, whatever its name says: an .xlsx (zip) or a legacy .xls
 * (OLE2) under either extension; an .xls may also be an HTML or XML spreadsheet. Anything else
 * (a renamed text file) is not read.
 */
async function formatOf(path: string, extension: 'xlsx' | 'xls'): Promise<'zip' | 'sheetjs' | null> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(512);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    if (head.subarray(0, 4).equals(ZIP)) return 'zip';
    if (head.subarray(0, 8).equals(OLE2)) return 'sheetjs';
    const text = head.toString('utf8', 0, bytesRead).replace(/^\uFEFF/, '');
    return extension === 'xls' && /^\s*</.test(text) ? 'sheetjs' : null;
  } finally {
    await file.close();
  }
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}
