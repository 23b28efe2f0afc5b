import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BULK_MESSAGES } from '@caravan/contracts';
import {
  sheetWithoutRefs,
  sheetWithSharedStrings,
  workbookParts,
  writeBomb,
  writeCellBomb,
  zipOf,
} from '../../../test/fixtures/invoices/handWritten';
import { InvoiceReadError, readInvoice } from './readInvoice';
import { XLSX_LIMITS } from './xlsxSheets';

/** What one import may unpack (docs/adr/0016-import-as-suppliers-write.md). */
const dir = mkdtempSync(join(tmpdir(), 'caravan-bounds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
jest.setTimeout(30_000);

async function refusal(promise: Promise<unknown>) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvoiceReadError);
  return (err as Error).message;
}

const TABLE = [
  ['Наименование', 'Кол-во', 'Цена'],
  ['Болт', 10, 5],
];

describe('readInvoice: an import bomb is refused in words, cheaply', () => {
  it('refuses shared strings declaring more than the bound before inflating them', async () => {
    const path = join(dir, 'bomb.xlsx');
    writeBomb(path, 255);
    expect(statSync(path).size).toBeLessThan(1024 * 1024);
    const memory = process.memoryUsage().rss;
    expect(await refusal(readInvoice(path, 'xlsx'))).toBe(BULK_MESSAGES.importTooLarge);
    // 255 MB declared: refused from the declaration, not after inflating it (time is the bench's business)
    expect(process.memoryUsage().rss - memory).toBeLessThan(50 * 1024 * 1024);
  });

  it('refuses shared strings that lie about their size, and too many of them', async () => {
    const lying = join(dir, 'lying.xlsx');
    writeBomb(lying, 40, false);
    expect(await refusal(readInvoice(lying, 'xlsx'))).toBe(BULK_MESSAGES.importUnreadable);
    const many = join(dir, 'many-strings.xlsx');
    writeBomb(many, 2);
    const limits = { ...XLSX_LIMITS, sharedStrings: 1000 };
    expect(await refusal(readInvoice(many, 'xlsx', { limits }))).toBe(BULK_MESSAGES.importTooLarge);
  });

  it('refuses a sheet of more cells than the bound, before exceljs makes rows of them', async () => {
    const path = join(dir, 'cells.xlsx');
    writeCellBomb(path, 3000, 1000);
    const limits = { ...XLSX_LIMITS, cells: 20_000 };
    expect(await refusal(readInvoice(path, 'xlsx', { limits }))).toBe(BULK_MESSAGES.importTooLarge);
  });

  it('reads an ordinary table under the same bounds', async () => {
    const { sheet, strings } = sheetWithSharedStrings(TABLE);
    const path = join(dir, 'ok.xlsx');
    writeFileSync(path, zipOf(workbookParts(sheet, strings)));
    expect((await readInvoice(path, 'xlsx')).rows).toEqual([
      {
        title: 'Болт',
        amount: '10',
        unit: '',
        price_no_nds: '5.00',
        nds: null,
        price_nds: null,
        price_cny: null,
      },
    ]);
  });
});

describe('readInvoice: cells as LibreOffice writes them', () => {
  it('reads rows and cells without the r attribute, inline strings and empty cells', async () => {
    const path = join(dir, 'no-refs.xlsx');
    const sheet = sheetWithoutRefs([
      ['Счет на оплату № 77'],
      [],
      ['№', 'Наименование', null, 'Кол-во', 'Цена'],
      [1, 'Чайник <стальной>', null, 2, 1500],
      [2, 'Кружка', null, 6, 250.5],
    ]);
    writeFileSync(path, zipOf(workbookParts(sheet)));
    const read = await readInvoice(path, 'xlsx');
    expect(read.number).toBe('77');
    expect(read.rows.map((r) => [r.title, r.amount, r.price_no_nds])).toEqual([
      ['Чайник <стальной>', '2', '1500.00'],
      ['Кружка', '6', '250.50'],
    ]);
  });
});
