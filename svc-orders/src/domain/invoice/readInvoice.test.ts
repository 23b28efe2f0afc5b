import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import { BULK_MESSAGES, InvoiceRow, type InvoiceImport } from '@caravan/contracts';
import ExcelJS from 'exceljs';
import { InvoiceReadError, readInvoice } from './readInvoice';

/**
 * The supplier-invoice reader (docs/adr/0009-excel-import.md): each test writes a file the way a
 * supplier's program would lay it out and checks the rows and number the operator gets.
 */
type Rows = (unknown[] | null)[];

const dir = mkdtempSync(join(tmpdir(), 'caravan-invoice-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fixtures = join(__dirname, '../../../test/fixtures/invoices');

async function writeXlsx(name: string, rows: Rows, setup?: (ws: ExcelJS.Worksheet) => void) {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Счет');
  rows.forEach((cells, i) => {
    if (cells) sheet.getRow(i + 1).values = cells as ExcelJS.CellValue[];
  });
  setup?.(sheet);
  const path = join(dir, name);
  await book.xlsx.writeFile(path);
  return path;
}

function writeSheetJs(name: string, sheets: Rows[], options: XLSX.WritingOptions = { bookType: 'biff8' }) {
  const book = XLSX.utils.book_new();
  sheets.forEach((rows, i) =>
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows.map((r) => r ?? [])), `Лист${i + 1}`),
  );
  const path = join(dir, name);
  XLSX.writeFile(book, path, options);
  return path;
}

const row = (
  title: string,
  amount: string | null,
  unit: string,
  no: string | null,
  nds: string | null,
  withVat: string | null,
  cny: string | null = null,
) => ({
  title,
  amount,
  unit,
  price_no_nds: no,
  nds,
  price_nds: withVat,
  price_cny: cny,
});

/** Every row the reader gives passes the contract the import dialog and the service check. */
function valid(result: InvoiceImport) {
  for (const r of result.rows) expect(InvoiceRow.parse(r)).toEqual(r);
  return { number: result.number, rows: result.rows };
}

async function refusal(promise: Promise<unknown>) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvoiceReadError);
  return (err as Error).message;
}

// 'Счет на оплату' as 1C prints it: bank and parties above, the table from row 13, totals, signatures
const SCHET: Rows = [
  ['ПАО СБЕРБАНК Г. МОСКВА', null, null, 'БИК', '044525225'],
  ['Банк получателя', null, null, 'Сч. №', '30101810400000000225'],
  ['ИНН 7701234567', 'КПП 770101001', null, 'Сч. №', '40702810938000012345'],
  ['ООО "Ромашка"'],
  ['Получатель'],
  null,
  [null, 'Счет на оплату № 123 от 12 ноября 2026 г.'],
  null,
  [
    'Поставщик (Исполнитель):',
    null,
    'ООО "Ромашка", ИНН 7701234567, КПП 770101001, Москва, ул. Тверская, д. 1',
  ],
  ['Покупатель (Заказчик):', null, 'ООО "Караван", ИНН 7709876543'],
  ['Основание:', null, 'Договор № 45 от 01.10.2026'],
  null,
  ['№', 'Товары (работы, услуги)', null, null, 'Кол-во', 'Ед.', 'Цена', 'Сумма'],
  [1, 'Болт М8х30 оцинкованный', null, null, 100, 'шт', 12.5, 1250],
  [2, 'Гайка М8', null, null, 100, 'шт', 3.2, 320],
  [3, 'Шайба 8 мм\n(упаковка 100 шт.)', null, null, 10, 'упак', 150.5, 1505],
  [null, null, null, null, null, null, 'Итого:', 3075],
  [null, null, null, null, null, null, 'В том числе НДС (20%):', 512.5],
  [null, null, null, null, null, null, 'Всего к оплате:', 3075],
  null,
  [null, 'Всего наименований 3, на сумму 3 075,00 руб.'],
  [null, 'Три тысячи семьдесят пять рублей 00 копеек'],
  null,
  [null, 'Руководитель', null, 'Иванов И.И.', null, 'Бухгалтер', null, 'Петрова П.П.'],
  [null, 'Образец 1', null, null, 1, 'шт', 1, 1],
];
const SCHET_ROWS = [
  row('Болт М8х30 оцинкованный', '100', 'шт', '10.42', '20', '12.50'),
  row('Гайка М8', '100', 'шт', '2.67', '20', '3.20'),
  row('Шайба 8 мм (упаковка 100 шт.)', '10', 'упак', '125.42', '20', '150.50'),
];

describe('readInvoice: .xlsx layouts', () => {
  it("reads a 1C 'Счет на оплату': header below the parties, merged title, totals, signatures", async () => {
    const path = await writeXlsx('schet.xlsx', SCHET, (ws) => {
      ws.mergeCells('B7:H7');
      for (let r = 13; r <= 16; r++) ws.mergeCells(`B${r}:D${r}`);
    });
    // 'В том числе НДС (20%)': the prices include VAT at 20 %
    expect(valid(await readInvoice(path, 'xlsx'))).toEqual({ number: '123', rows: SCHET_ROWS });
  });

  it('reads numbers written as text: spaces, no-break spaces, commas, currency and units', async () => {
    const path = await writeXlsx('text-numbers.xlsx', [
      ['Счёт № А-15/11 от 01.11.2026'],
      ['Наименование', 'Количество', 'Цена без НДС', 'Цена с НДС'],
      ['Кабель ВВГ 3х2,5', '12,5 м', '1\u00a0234,50', '—'],
      ['Розетка', '10 шт', '1\u202f234,50', '-'],
      ['Выключатель', '5', '1,234.50', '1.481,40'],
      ['Лампа', ' 3 ', '¥ 25.00', '25,00 руб.'],
      ['Провод', 0.1 + 0.2, 10.005, null],
      ['Клемма', '1 000', '0,5', ''],
    ]);
    expect(valid(await readInvoice(path, 'xlsx'))).toEqual({
      number: 'А-15/11',
      rows: [
        row('Кабель ВВГ 3х2,5', '12.5', 'м', '1234.50', null, null),
        row('Розетка', '10', 'шт', '1234.50', null, null),
        row('Выключатель', '5', '', '1234.50', '20', '1481.40'),
        row('Лампа', '3', '', '25.00', '0', '25.00'),
        row('Провод', '0.3', '', '10.01', null, null),
        row('Клемма', '1000', '', '0.50', null, null),
      ],
    });
  });

  it('reads a two-row header (Цена over без НДС | с НДС, НДС over ставка | сумма) and skips the column numbers', async () => {
    const path = await writeXlsx(
      'two-row.xlsx',
      [
        ['Счет-фактура № 77 от 05.11.2026'],
        null,
        ['№ п/п', 'Наименование', 'Кол-во', 'Ед. изм.', 'Цена', null, 'НДС', null, 'Сумма с НДС'],
        [null, null, null, null, 'без НДС', 'с НДС', 'ставка', 'сумма', null],
        [1, 2, 3, 4, 5, 6, 7, 8, 9],
        [1, 'Кронштейн', 4, 'шт', 100, 120, '20%', 80, 480],
        [2, 'Саморез', 1000, 'шт', 0.5, null, '20 %', 100, 600],
        [3, 'Доставка', 1, 'усл', null, 1100, 0.1, 100, 1100],
        [null, 'Итого', null, null, null, null, null, 280, 2180],
      ],
      (ws) => {
        ws.mergeCells('E3:F3');
        ws.mergeCells('G3:H3');
      },
    );
    expect(valid(await readInvoice(path, 'xlsx'))).toEqual({
      number: '77',
      rows: [
        row('Кронштейн', '4', 'шт', '100.00', '20', '120.00'),
        row('Саморез', '1000', 'шт', '0.50', '20', '0.60'),
        row('Доставка', '1', 'усл', '1000.00', '10', '1100.00'),
      ],
    });
  });

  it('joins a group row above the header (Цена over без НДС | с НДС) and keeps a data row of text numbers', async () => {
    const path = await writeXlsx(
      'group-row.xlsx',
      [
        [null, null, 'Цена, руб.', null],
        ['Наименование', 'Кол-во', 'без НДС', 'с НДС'],
        ['Код 15 (переходник)', '2', '100,00', '120,00'],
      ],
      (ws) => ws.mergeCells('C1:D1'),
    );
    expect((await readInvoice(path, 'xlsx')).rows).toEqual([
      row('Код 15 (переходник)', '2', '', '100.00', '20', '120.00'),
    ]);
  });

  it("reads an English invoice: 'Invoice No.' label, model column, subtotal and seller block", async () => {
    const path = await writeXlsx('english.xlsx', [
      ['SHENZHEN BRIGHT LIGHTING CO., LTD'],
      ['COMMERCIAL INVOICE'],
      ['Invoice No.:', 'INV-2026-001', null, 'Date:', '2026-11-03'],
      ['Buyer: Caravan LLC, Moscow'],
      null,
      ['Item No.', 'Description', 'Model', 'Qty', 'Unit', 'Unit Price (USD)', 'Amount (USD)'],
      [1, 'LED strip 5 m, warm white', 'LS-5050', '1,250', 'pcs', '$3.50', 4375],
      [
        2,
        { richText: [{ text: 'Power ' }, { text: 'adapter 12V', font: { bold: true } }] },
        'PA-12',
        300,
        'pcs',
        4.2,
        1260,
      ],
      [3, { text: 'Controller (see link)', hyperlink: 'https://example.com/c' }, 'C-1', 10, 'set', null, 95],
      [null, 'Subtotal', null, null, null, null, 5730],
      [null, 'TOTAL', null, null, null, null, 5730],
      ['Seller: Shenzhen Bright Lighting', null, null, 'Signature'],
      [4, 'Not a position', null, 1, 'pcs', 1, 1],
    ]);
    expect(valid(await readInvoice(path, 'xlsx'))).toEqual({
      number: 'INV-2026-001',
      rows: [
        // prices in dollars are no rouble prices: left for the operator, never read as roubles
        row('LED strip 5 m, warm white', '1250', 'pcs', null, null, null),
        row('Power adapter 12V', '300', 'pcs', null, null, null),
        row('Controller (see link)', '10', 'set', null, null, null),
      ],
    });
  });

  it('reads Chinese headers and a 发票号码 number', async () => {
    const path = await writeXlsx('chinese.xlsx', [
      ['深圳市某某贸易有限公司'],
      ['发票号码：12345'],
      ['序号', '品名', '规格型号', '单位', '数量', '单价', '金额', '税率'],
      [1, '螺栓', 'M8', '个', 1000, 0.5, 500, 0.13],
      [2, '螺母', 'M8', '个', 1000, 0.2, 200, '13%'],
      [null, '合计', null, null, 2000, null, 700, null],
    ]);
    expect(valid(await readInvoice(path, 'xlsx'))).toEqual({
      number: '12345',
      rows: [
        row('螺栓', '1000', '个', '0.50', '13', '0.57'),
        row('螺母', '1000', '个', '0.20', '13', '0.23'),
      ],
    });
  });

  it('takes formula results, and the price from the sum when there is no price column', async () => {
    const path = await writeXlsx('formulas.xlsx', [
      ['Товарная накладная № ТН-5'],
      ['Наименование', 'Кол-во', 'Ед.', 'Сумма без НДС', 'Ставка НДС'],
      [
        { formula: '"Труба "&"ПНД 32"', result: 'Труба ПНД 32' },
        3,
        'м',
        { formula: '3*41.5', result: 124.5 },
        'без НДС',
      ],
      [
        'Муфта',
        { formula: '1+1', result: 2 },
        'шт',
        { formula: 'B4*0.1+B4*0.2', result: 0.1 * 2 + 0.2 * 2 },
        '10%',
      ],
      ['Отвод', 3, 'шт', { formula: 'NA()', result: { error: '#N/A' } }, '20%'],
    ]);
    expect(valid(await readInvoice(path, 'xlsx'))).toEqual({
      number: 'ТН-5',
      rows: [
        row('Труба ПНД 32', '3', 'м', '41.50', '0', '41.50'),
        row('Муфта', '2', 'шт', '0.30', '10', '0.33'),
        row('Отвод', '3', 'шт', null, '20', null),
      ],
    });
  });

  it('skips the header repeated after a page break with its column numbers', async () => {
    const header = ['№', 'Наименование товара', 'Кол-во', 'Ед.', 'Цена, руб.', 'Сумма, руб.'];
    const path = await writeXlsx('page-break.xlsx', [
      header,
      [1, 2, 3, 4, 5, 6],
      [1, 'Перфоратор', 1, 'шт', 9000, 9000],
      [2, 'Бур 8х160', 10, 'шт', 150, 1500],
      null,
      header,
      [1, 2, 3, 4, 5, 6],
      [3, 'Бур 10х210', 5, 'шт', 180, 900],
      ['Итого', null, null, null, null, 11400],
    ]);
    const { rows, number } = valid(await readInvoice(path, 'xlsx'));
    expect(number).toBe('');
    expect(rows.map((r) => [r.title, r.amount, r.price_no_nds])).toEqual([
      ['Перфоратор', '1', '9000.00'],
      ['Бур 8х160', '10', '150.00'],
      ['Бур 10х210', '5', '180.00'],
    ]);
  });

  it('derives the price without VAT from the price with VAT and the rate (and leaves it when the rate is unknown)', async () => {
    const path = await writeXlsx('with-vat.xlsx', [
      ['Наименование', 'Кол-во', 'Ед.', 'Цена с НДС', 'Ставка НДС'],
      ['Кресло', 2, 'шт', 120, '20%'],
      ['Стол', 1, 'шт', 110, 0.1],
      ['Лампа', 1, 'шт', '50,00', 'без НДС'],
      ['Полка', 1, 'шт', 99.99, null],
      ['Шкаф', new Date(Date.UTC(2026, 10, 1)), 'шт', 1000, '20 %'],
    ]);
    expect(valid(await readInvoice(path, 'xlsx')).rows).toEqual([
      row('Кресло', '2', 'шт', '100.00', '20', '120.00'),
      row('Стол', '1', 'шт', '100.00', '10', '110.00'),
      row('Лампа', '1', 'шт', '50.00', '0', '50.00'),
      row('Полка', '1', 'шт', null, null, '99.99'),
      // a date (Excel turned '1.11' into 1 November) is not a quantity
      row('Шкаф', null, 'шт', '833.33', '20', '1000.00'),
    ]);
  });

  it('reads the first sheet that has a header, skipping an empty cover sheet', async () => {
    const book = new ExcelJS.Workbook();
    book.addWorksheet('Обложка').getCell('A1').value = 'Коммерческое предложение';
    const hidden = book.addWorksheet('Скрытый', { state: 'hidden' });
    hidden.addRow(['Наименование', 'Кол-во']);
    hidden.addRow(['Скрытый товар', 1]);
    const sheet = book.addWorksheet('Счет');
    sheet.addRow(['Наименование', 'Кол-во', 'Цена']);
    sheet.addRow(['Фен', 2, 1500]);
    const path = join(dir, 'sheets.xlsx');
    await book.xlsx.writeFile(path);
    expect((await readInvoice(path, 'xlsx')).rows).toEqual([row('Фен', '2', '', '1500.00', null, null)]);
  });
});

describe('readInvoice: .xls and files from other programs', () => {
  it('reads the same rows from a legacy .xls (BIFF8) as from the .xlsx', async () => {
    const path = writeSheetJs('schet.xls', [SCHET]);
    expect(valid(await readInvoice(path, 'xls'))).toEqual({ number: '123', rows: SCHET_ROWS });
  });

  it('reads an .xlsx written by SheetJS (shared strings after the sheets) the same way every time', async () => {
    const path = writeSheetJs('sheetjs.xlsx', [[['Пусто']], SCHET], { bookType: 'xlsx', bookSST: true });
    const reads = await Promise.all(Array.from({ length: 20 }, () => readInvoice(path, 'xlsx')));
    for (const read of reads) expect(valid(read)).toEqual({ number: '123', rows: SCHET_ROWS });
  });

  it('reads a file by its content whatever the extension says, and an HTML table saved as .xls', async () => {
    const xls = writeSheetJs('really-xls.xlsx', [SCHET]);
    expect((await readInvoice(xls, 'xlsx')).rows).toEqual(SCHET_ROWS);
    const html = join(dir, 'export.xls');
    writeFileSync(
      html,
      '<html><body><table><tr><td>Наименование</td><td>Кол-во</td><td>Цена</td></tr>' +
        '<tr><td>Чайник</td><td>2</td><td>1 500,00</td></tr></table></body></html>',
    );
    expect((await readInvoice(html, 'xls')).rows).toEqual([row('Чайник', '2', '', '1500.00', null, null)]);
  });

  it('reads the committed fixtures', async () => {
    expect(valid(await readInvoice(join(fixtures, 'torg12-like.xlsx'), 'xlsx'))).toEqual({
      number: 'ТН-318',
      rows: [
        row('Перчатки нитриловые, размер M', '50', 'пар', '42.00', '20', '50.40'),
        row('Маска защитная FFP2', '200', 'шт', '35.50', '20', '42.60'),
        row('Очки защитные прозрачные', '12', 'шт', '180.00', '20', '216.00'),
      ],
    });
    expect(valid(await readInvoice(join(fixtures, 'supplier-cn.xls'), 'xls'))).toEqual({
      number: 'YW-2026-1108',
      rows: [
        // its prices are in USD: not read as roubles
        row('硅胶手机壳 iPhone 15', '500', '个', null, null, null),
        row('Type-C 数据线 1m', '1000', '条', null, null, null),
        row('无线充电器 15W', '120', '个', null, null, null),
      ],
    });
    expect(valid(await readInvoice(join(fixtures, 'upd-sheetjs.xlsx'), 'xlsx'))).toEqual({
      number: '2026-1107',
      rows: [
        row('Картридж HP 85A (CE285A)', '4', 'шт', '2500.00', '22', '3050.00'),
        row('Бумага SvetoCopy A4, 500 л.', '10', 'пач', '310.00', '22', '378.20'),
      ],
    });
  });
});

describe('readInvoice: refusals and limits', () => {
  it('refuses a text file renamed to .xlsx, a zip that is not a workbook and a missing file', async () => {
    const text = join(dir, 'notes.xlsx');
    writeFileSync(text, 'это просто текст, а не таблица\n1;2;3\n');
    expect(await refusal(readInvoice(text, 'xlsx'))).toBe(BULK_MESSAGES.importUnreadable);
    expect(await refusal(readInvoice(text, 'xls'))).toBe(BULK_MESSAGES.importUnreadable);
    const broken = join(dir, 'broken.xlsx');
    writeFileSync(broken, Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]));
    expect(await refusal(readInvoice(broken, 'xlsx'))).toBe(BULK_MESSAGES.importUnreadable);
    expect(await refusal(readInvoice(join(dir, 'absent.xlsx'), 'xlsx'))).toBe(BULK_MESSAGES.importUnreadable);
  });

  it('refuses a sheet without a header, and a header without positions', async () => {
    const noHeader = await writeXlsx('no-header.xlsx', [['Прайс-лист'], ['Болт', 10, 5], ['Гайка', 20, 3]]);
    expect(await refusal(readInvoice(noHeader, 'xlsx'))).toBe(BULK_MESSAGES.importEmpty);
    const noRows = await writeXlsx('no-rows.xlsx', [
      ['Наименование', 'Кол-во', 'Цена'],
      ['Итого', null, 0],
    ]);
    expect(await refusal(readInvoice(noRows, 'xlsx'))).toBe(BULK_MESSAGES.importEmpty);
  });

  it('refuses more positions than the limit, in .xlsx and in .xls', async () => {
    const rows: Rows = [['Наименование', 'Кол-во', 'Цена']];
    for (let i = 1; i <= 300; i++) rows.push([`Товар ${i}`, i, 10]);
    const xlsx = await writeXlsx('many.xlsx', rows);
    const xls = writeSheetJs('many.xls', [rows]);
    expect(await refusal(readInvoice(xlsx, 'xlsx', { maxRows: 5 }))).toBe(BULK_MESSAGES.importTooMany(5));
    expect(await refusal(readInvoice(xls, 'xls', { maxRows: 5 }))).toBe(BULK_MESSAGES.importTooMany(5));
    expect((await readInvoice(xls, 'xls', { maxRows: 300 })).rows).toHaveLength(300);
    // SheetJS reads maxRows + 200 rows: a table running on past them is too long as well
    const sparse = writeSheetJs('sparse.xls', [rows.flatMap((r) => [r, null])]);
    expect(await refusal(readInvoice(sparse, 'xls', { maxRows: 250 }))).toBe(
      BULK_MESSAGES.importTooMany(250),
    );
  });

  it('reads 10,000 positions and leaves no file open', async () => {
    const rows: Rows = [['Счет № 10000'], ['№', 'Наименование', 'Кол-во', 'Ед.', 'Цена', 'Сумма']];
    for (let i = 1; i <= 10_000; i++)
      rows.push([i, `Товар номер ${i} — длинное название`, i % 50, 'шт', i / 100, (i % 50) * (i / 100)]);
    rows.push([null, 'Итого', null, null, null, 1]);
    const path = await writeXlsx('big.xlsx', rows);
    const openFiles = () => readdirSync('/proc/self/fd').length;
    const before = openFiles();
    const { rows: read, number } = await readInvoice(path, 'xlsx');
    expect(number).toBe('10000');
    expect(read).toHaveLength(10_000);
    expect(read[7776]).toEqual(row('Товар номер 7777 — длинное название', '27', 'шт', '77.77', null, null));
    // every Cyrillic letter whole, also where the zip stream splits one between two chunks
    expect(read.filter((r, i) => r.title !== `Товар номер ${i + 1} — длинное название`)).toEqual([]);
    await refusal(readInvoice(path, 'xlsx', { maxRows: 100 }));
    // a handle of an earlier test may close meanwhile; none of this read stays open
    expect(openFiles()).toBeLessThanOrEqual(before);
  }, 30_000);
});
