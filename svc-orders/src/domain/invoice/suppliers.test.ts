import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BULK_MESSAGES, InvoiceRow } from '@caravan/contracts';
import { sheetWithoutRefs, workbookParts, zipOf } from '../../../test/fixtures/invoices/handWritten';
import { readInvoice } from './readInvoice';

/**
 * Issue 17, an import that reads what suppliers send (docs/adr/0016-import-as-suppliers-write.md):
 * files laid out as LibreOffice writes them (rows and cells without `r`, inline strings).
 */
const dir = mkdtempSync(join(tmpdir(), 'caravan-suppliers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Value = string | number | null;
async function read(name: string, rows: Value[][]) {
  const path = join(dir, name);
  writeFileSync(path, zipOf(workbookParts(sheetWithoutRefs(rows))));
  const result = await readInvoice(path, 'xlsx');
  for (const r of result.rows) expect(InvoiceRow.parse(r)).toEqual(r);
  return result;
}
const numbers = (rows: InvoiceRow[]) => rows.map((r) => [r.amount, r.price_no_nds, r.price_cny]);

describe('separators decided per column', () => {
  it("reads '1,200' and '3,000 pcs' under a Russian header as thousands, checked by the row's sum", async () => {
    const result = await read('ru-thousands.xlsx', [
      ['Наименование', 'Кол-во', 'Цена', 'Сумма'],
      ['Термокружка', '1,200', '250', '300,000'],
      ['Крышка', '3,000 pcs', '15.5', '46,500'],
    ]);
    expect(numbers(result.rows)).toEqual([
      ['1200', '250.00', null],
      ['3000', '15.50', null],
    ]);
    expect(result.flags).toEqual([]);
  });

  it("reads '1,250' as 1.25 when the column's other numbers use a decimal comma", async () => {
    const result = await read('ru-decimal.xlsx', [
      ['Наименование', 'Кол-во, кг', 'Цена'],
      ['Гвозди', '1,250', '300,00'],
      ['Шурупы', '0,5', '420,00'],
    ]);
    expect(numbers(result.rows)).toEqual([
      ['1.25', '300.00', null],
      ['0.5', '420.00', null],
    ]);
  });

  it("lets the rows' sums decide a column of ambiguous numbers only", async () => {
    const result = await read('ru-by-sum.xlsx', [
      ['Наименование', 'Количество', 'Цена', 'Сумма'],
      ['Проволока', '1,500', '200', '300'],
      ['Лента', '2,500', '100', '250'],
    ]);
    expect(numbers(result.rows)).toEqual([
      ['1.5', '200.00', null],
      ['2.5', '100.00', null],
    ]);
    expect(result.flags).toEqual([]);
  });

  it('flags a row whose sum is not its quantity × price, in words', async () => {
    const result = await read('mismatch.xlsx', [
      ['Наименование', 'Кол-во', 'Цена', 'Сумма'],
      ['Болт', 10, 5, 50],
      ['Гайка', 100, 3.2, 3200],
    ]);
    expect(result.flags).toEqual([
      { row: 1, message: BULK_MESSAGES.importSumMismatch('3200.00', '100', '3.20', '320.00') },
    ]);
  });
});

describe('yuan and roubles', () => {
  it('fills price_cny from a column in RMB and says which column went where', async () => {
    const result = await read('cny.xlsx', [
      ['PI NO.: YW-2026-77'],
      ['ITEM NO.\n货号', 'DESCRIPTION\n品名', "Q'TY", 'UNIT PRICE\n(RMB)', 'AMOUNT\n(RMB)'],
      ['A-1001', 'Silicone case', '1,000', '6.80', '6,800.00'],
      ['A-1002', 'Type-C cable', 500, '¥3.25', '1,625.00'],
      ['A-1003', 'Charger 15W', 120, null, '3,360.00'],
    ]);
    expect(result.number).toBe('YW-2026-77');
    expect(result.rows.map((r) => [r.title, r.amount, r.price_cny, r.price_no_nds, r.price_nds])).toEqual([
      ['Silicone case', '1000', '6.80', null, null],
      ['Type-C cable', '500', '3.25', null, null],
      ['Charger 15W', '120', '28.00', null, null],
    ]);
    expect(result.columns).toEqual([
      { header: 'description 品名', target: 'title' },
      { header: "q'ty", target: 'amount' },
      { header: 'unit price (rmb)', target: 'price_cny' },
      { header: 'amount (rmb)', target: 'sum_cny' },
    ]);
  });

  it('never reads a dollar column as roubles: it fills no price and the preview does not list it', async () => {
    const result = await read('usd.xlsx', [
      ['Description', 'Qty', 'Unit Price (USD)', 'Amount, $'],
      ['LED strip 5m', 40, '2.15', '86.00'],
    ]);
    expect(result.rows.map((r) => [r.title, r.amount, r.price_cny, r.price_no_nds, r.price_nds])).toEqual([
      ['LED strip 5m', '40', null, null, null],
    ]);
    expect(result.columns?.map((c) => c.target)).toEqual(['title', 'amount']);
  });

  it('keeps a rouble column for the sale prices beside a yuan one', async () => {
    const result = await read('cny-rub.xlsx', [
      ['Invoice No.: INV-5'],
      ['Наименование', 'Кол-во', 'Цена, ¥', 'Цена, руб.'],
      ['Чайник', 2, '100', '1 300,00'],
    ]);
    expect(result.number).toBe('INV-5');
    expect(result.rows.map((r) => [r.price_cny, r.price_no_nds])).toEqual([['100.00', '1300.00']]);
    expect(result.columns?.map((c) => c.target)).toEqual(['title', 'amount', 'price_cny', 'price_no_nds']);
  });
});
