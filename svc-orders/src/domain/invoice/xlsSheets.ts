import { readFile, utils } from '@e965/xlsx';
import { type Cell, cellOf, MAX_COLUMNS, type SheetRow } from './cells';

/** Rows read past the position limit: room for the header block, repeated headers and totals. */
export const XLS_EXTRA_ROWS = 200;

/**
 * Legacy .xls (BIFF) and the HTML/XML spreadsheets some programs save as .xls, through SheetJS CE.
 * The file is read whole (an .xls holds at most 65,536 rows), but only the first maxRows + 200 rows of
 * each sheet become cells. `truncated`: the sheet has rows beyond those.
 */
export function* xlsSheets(
  path: string,
  maxRows: number,
): Generator<{ rows: AsyncIterable<SheetRow>; truncated: boolean }> {
  // dates as Date objects (not serial numbers), so that a date is never read as a quantity or a price
  const book = readFile(path, { dense: true, cellDates: true, sheetRows: maxRows + XLS_EXTRA_ROWS });
  for (const [index, name] of book.SheetNames.entries()) {
    if (book.Workbook?.Sheets?.[index]?.Hidden) continue;
    const sheet = book.Sheets[name];
    if (!sheet?.['!ref']) continue;
    const range = utils.decode_range(sheet['!ref']);
    const full = sheet['!fullref'] ? utils.decode_range(sheet['!fullref']) : range;
    const values = utils.sheet_to_json<unknown[]>(sheet, {
      header: 1,
      raw: true,
      defval: null,
      blankrows: true,
    });
    yield { rows: rowsOf(values, range.s.r + 1), truncated: full.e.r > range.e.r };
  }
}

async function* rowsOf(values: unknown[][], first: number): AsyncGenerator<SheetRow> {
  for (const [i, row] of values.entries()) {
    const cells: Cell[] = row.slice(0, MAX_COLUMNS).map(cellOf);
    yield { number: first + i, cells };
  }
}
