import { INVOICE_TEXTS } from '@caravan/contracts';
import ExcelJS from 'exceljs';
import type { Invoice } from './model';

/**
 * The same invoice as an Excel workbook (exceljs): one sheet 'Счёт', six columns (№, Товары (работы,
 * услуги), Кол-во, Ед., Цена, Сумма) with the bank details box, heading, parties, lines, totals, words
 * and signatures laid out on them by merged cells. Amounts are numbers with the '#,##0.00' format (the
 * decimal strings of the model turned into the cells' numbers only here), so the sheet sums and sorts;
 * the totals are values, as the document states them, not formulas. Printed A4 portrait, one page wide.
 */

const COLUMNS = [
  { width: 6 }, // A №
  { width: 52 }, // B title
  { width: 10 }, // C quantity
  { width: 7 }, // D unit
  { width: 15 }, // E price
  { width: 17 }, // F sum
];
const MONEY_FORMAT = '#,##0.00';
const thin: Partial<ExcelJS.Border> = { style: 'thin' };
const medium: Partial<ExcelJS.Border> = { style: 'medium' };
const FONT = 'Arial';

/** Rows of wrapped text in merged cells do not grow by themselves: a height by the text's length. */
const heightFor = (text: string, charsPerLine: number, lineHeight = 12.5) =>
  Math.max(1, Math.ceil(text.length / charsPerLine)) * lineHeight + 3;

export async function renderInvoiceXlsx(invoice: Invoice): Promise<Buffer> {
  const t = INVOICE_TEXTS;
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Caravan';
  workbook.title = invoice.heading;
  const sheet = workbook.addWorksheet('Счёт', {
    pageSetup: {
      paperSize: 9, // A4
      orientation: 'portrait',
      fitToPage: true,
      fitToWidth: 1,
      fitToHeight: 0,
      margins: { left: 0.6, right: 0.4, top: 0.5, bottom: 0.5, header: 0.2, footer: 0.2 },
    },
  });
  sheet.columns = COLUMNS;
  sheet.properties.defaultRowHeight = 15;

  const put = (
    address: string,
    value: ExcelJS.CellValue,
    style: { bold?: boolean; size?: number; align?: ExcelJS.Alignment['horizontal']; wrap?: boolean } = {},
  ) => {
    const cell = sheet.getCell(address);
    cell.value = value;
    cell.font = { name: FONT, size: style.size ?? 9, bold: style.bold ?? false };
    cell.alignment = {
      vertical: 'top',
      horizontal: style.align ?? 'left',
      wrapText: style.wrap ?? false,
    };
    return cell;
  };
  const box = (range: string, sides: Partial<ExcelJS.Borders>) => {
    const [from, to] = range.split(':') as [string, string?];
    const first = sheet.getCell(from);
    const last = sheet.getCell(to ?? from);
    for (let r = Number(first.row); r <= Number(last.row); r++)
      for (let c = Number(first.col); c <= Number(last.col); c++) {
        const cell = sheet.getCell(r, c);
        cell.border = {
          ...cell.border,
          ...(r === Number(first.row) && sides.top ? { top: sides.top } : {}),
          ...(r === Number(last.row) && sides.bottom ? { bottom: sides.bottom } : {}),
          ...(c === Number(first.col) && sides.left ? { left: sides.left } : {}),
          ...(c === Number(last.col) && sides.right ? { right: sides.right } : {}),
        };
      }
  };
  const all = { top: thin, bottom: thin, left: thin, right: thin };

  // the bank details box: rows 1–6, A:C left, D key, E:F value
  sheet.mergeCells('A1:C2');
  put('A1', invoice.bank.title, { wrap: true });
  box('A1:C2', { top: thin, left: thin, right: thin });
  sheet.mergeCells('A3:C3');
  put('A3', t.recipientBank, { size: 8 });
  box('A3:C3', { bottom: thin, left: thin, right: thin });
  put('D1', t.bik);
  box('D1', all);
  sheet.mergeCells('E1:F1');
  put('E1', invoice.bank.bik);
  box('E1:F1', all);
  sheet.mergeCells('D2:D3');
  put('D2', t.account);
  box('D2:D3', all);
  sheet.mergeCells('E2:F3');
  put('E2', invoice.bank.corrAccount);
  box('E2:F3', all);
  sheet.mergeCells('A4:B4');
  put('A4', `${t.inn} ${invoice.seller.inn}`);
  box('A4:B4', all);
  put('C4', `${t.kpp} ${invoice.seller.kpp}`);
  box('C4', all);
  sheet.mergeCells('D4:D6');
  put('D4', t.account);
  box('D4:D6', all);
  sheet.mergeCells('E4:F6');
  put('E4', invoice.bank.account);
  box('E4:F6', all);
  sheet.mergeCells('A5:C5');
  put('A5', invoice.seller.name, { wrap: true });
  box('A5:C5', { top: thin, left: thin, right: thin });
  sheet.getRow(5).height = heightFor(invoice.seller.name, 70);
  sheet.mergeCells('A6:C6');
  put('A6', t.recipient, { size: 8 });
  box('A6:C6', { bottom: thin, left: thin, right: thin });

  // the heading
  sheet.mergeCells('A8:F8');
  put('A8', invoice.heading, { bold: true, size: 14 });
  sheet.getRow(8).height = 22;
  box('A8:F8', { bottom: medium });

  // supplier, buyer, basis: each a row over A:F, the label plain, the text bold
  let r = 10;
  for (const [label, text] of [
    [t.seller, invoice.seller.line],
    [t.buyer, invoice.buyer.line],
    [t.basis, invoice.basis],
  ] as const) {
    sheet.mergeCells(`A${r}:F${r}`);
    put(
      `A${r}`,
      { richText: [{ text: `${label} ` }, { text, font: { bold: true, name: FONT, size: 9 } }] },
      {
        wrap: true,
      },
    );
    sheet.getRow(r).height = heightFor(`${label} ${text}`, 105);
    r++;
  }

  // the lines
  r++;
  const headerRow = r;
  const c = t.columns;
  [c.n, c.title, c.quantity, c.unit, c.price, c.sum].forEach((text, i) => {
    const cell = sheet.getCell(headerRow, i + 1);
    cell.value = text;
    cell.font = { name: FONT, size: 9, bold: true };
    cell.alignment = { horizontal: 'center', vertical: 'middle', wrapText: true };
    cell.border = {
      top: medium,
      bottom: thin,
      left: i === 0 ? medium : thin,
      right: i === 5 ? medium : thin,
    };
  });
  for (const line of invoice.lines) {
    r++;
    const values: ExcelJS.CellValue[] = [
      line.n,
      line.title,
      Number(line.quantity),
      line.unit,
      Number(line.price),
      Number(line.sum),
    ];
    values.forEach((value, i) => {
      const cell = sheet.getCell(r, i + 1);
      cell.value = value;
      cell.font = { name: FONT, size: 9 };
      cell.alignment = {
        vertical: 'top',
        horizontal: i === 1 ? 'left' : i === 0 || i === 3 ? 'center' : 'right',
        wrapText: i === 1,
      };
      cell.border = {
        top: thin,
        bottom: thin,
        left: i === 0 ? medium : thin,
        right: i === 5 ? medium : thin,
      };
    });
    sheet.getCell(r, 3).numFmt = Number.isInteger(Number(line.quantity)) ? '#,##0' : '#,##0.00';
    sheet.getCell(r, 5).numFmt = MONEY_FORMAT;
    sheet.getCell(r, 6).numFmt = MONEY_FORMAT;
    sheet.getRow(r).height = heightFor(line.title, 60);
  }
  box(`A${r}:F${r}`, { bottom: medium });
  // the header repeats on every printed page
  sheet.pageSetup.printTitlesRow = `${headerRow}:${headerRow}`;

  // the totals: a label over B:E, the amount in F
  const total = (label: string, amount: string | null) => {
    r++;
    sheet.mergeCells(`B${r}:E${r}`);
    put(`B${r}`, label, { bold: true, align: 'right' });
    const cell = put(`F${r}`, amount === null ? '—' : Number(amount), { bold: true, align: 'right' });
    if (amount !== null) cell.numFmt = MONEY_FORMAT;
  };
  total(t.total, invoice.total);
  total(invoice.vat.label, invoice.vat.amount);
  total(t.toPay, invoice.total);

  // count and words
  r += 2;
  sheet.mergeCells(`A${r}:F${r}`);
  put(`A${r}`, invoice.summary);
  r++;
  sheet.mergeCells(`A${r}:F${r}`);
  put(`A${r}`, invoice.words, { bold: true, wrap: true });
  sheet.getRow(r).height = heightFor(invoice.words, 100);
  box(`A${r}:F${r}`, { bottom: medium });

  // signatures: the title over A:B, the place to sign C:D, the name E:F
  const sign = (label: string, name: string) => {
    sheet.mergeCells(`A${r}:B${r}`);
    put(`A${r}`, label, { bold: true });
    sheet.mergeCells(`C${r}:D${r}`);
    box(`C${r}:D${r}`, { bottom: thin });
    sheet.mergeCells(`E${r}:F${r}`);
    put(`E${r}`, name);
    box(`E${r}:F${r}`, { bottom: thin });
  };
  r += 3;
  sign(t.director, invoice.director);
  r += 2;
  sign(t.accountant, invoice.accountant);

  return Buffer.from(await workbook.xlsx.writeBuffer());
}
