import { type Cell, norm, textOf } from './cells';

/** A document number: letters, digits and the usual joiners, with at least one digit. */
const NUMBER = '([\\p{L}\\p{N}][\\p{L}\\p{N}\\-/._#]*)';
const DOCUMENT =
  'сч[её]т(?:\\s+на\\s+оплату)?|сч[её]т-фактура|сч[её]т-договор|счет-оферта|товарная\\s+накладная|накладная|упд|универсальный\\s+передаточный\\s+документ|инвойс|спецификация|заказ(?:\\s+поставщику)?';
// longest first: 'No.: 12' is the sign 'No.', not 'N' followed by the number 'o.'
const SIGN = '(?:№|no\\.?|nr\\.?|n(?!\\p{L})|#)';
/** 'Счет на оплату № 123 от …', 'Invoice No.: INV-1', 'Invoice #: 778', '发票号码: 12345'. */
const INLINE = [
  new RegExp(`(?<!\\p{L})(?:${DOCUMENT})\\s*${SIGN}\\s*[:：]?\\s*${NUMBER}`, 'iu'),
  new RegExp(
    `(?:invoice|proforma(?:\\s*invoice)?|inv\\.?|bill|(?<!\\p{L})p\\.?\\s*/?\\s*i\\.?)\\s*(?:${SIGN}|number|num\\.?)\\s*[:：]?\\s*${NUMBER}`,
    'iu',
  ),
  new RegExp(`invoice\\s*[:：]\\s*${NUMBER}`, 'iu'),
  new RegExp(
    `(?:发票号码|发票号|发票编号|单据编号|单号|订单号|合同编号|合同号)\\s*[:：]?\\s*${NUMBER}`,
    'iu',
  ),
];
/** A label whose number is in the next cell: '№', 'Invoice No.', 'Счет на оплату №', '发票号码'. */
const LABEL = new RegExp(
  `^(?:(?:${DOCUMENT}|invoice|proforma|p\\.?\\s*/?\\s*i\\.?)\\s*)?(?:${SIGN}|number)$|^invoice\\s*(?:${SIGN}|number)$|^(发票号码|发票号|发票编号|单号)$`,
  'iu',
);
const BARE_SIGN = new RegExp(`^${SIGN}$`, 'iu');
const NAMES_DOCUMENT = new RegExp(`(^|\\s)(${DOCUMENT}|invoice|proforma|发票)`, 'iu');

/** Bank details name accounts the same way ('Расчетный счет № 40702…', 'Сч. №'). */
const BANK =
  /расч[её]тн|корр?\.?\s*сч|кор\/?сч|р\/с|к\/с|банк|(?<!\p{L})(бик|инн|кпп)(?!\p{L})|bank|account|swift|iban/iu;

const withDigit = (s: string | undefined) =>
  s && /\d/.test(s) ? s.replace(/[.\-/]+$/, '').slice(0, 200) : '';

/** A label over a box with the number under it, as in ТОРГ-12: 'Номер документа' above 'ТН-318'. */
const LABEL_ABOVE =
  /^(номер документа|номер сч[её]та|номер накладной|№ документа|invoice\s*(no\.?|number|#))$/iu;

/** The invoice number from the rows above the table, or '' when there is none. */
export function invoiceNumber(rows: readonly (readonly Cell[])[]): string {
  for (const [r, cells] of rows.entries()) {
    const found = numberInRow(cells, rows[r + 1] ?? []);
    if (found) return found;
  }
  return '';
}

function numberInRow(cells: readonly Cell[], below: readonly Cell[]): string {
  let documentNamed = false;
  for (let i = 0; i < cells.length; i++) {
    const text = textOf(cells[i] ?? null);
    if (!text || BANK.test(text)) continue;
    for (const pattern of INLINE) {
      const found = withDigit(pattern.exec(text.replace(/ё/g, 'е'))?.[1]);
      if (found) return found;
    }
    const label = norm(text);
    // a bare '№' counts only after a cell naming the document ('Счет на оплату' | '№' | '123')
    if (LABEL.test(label) && (documentNamed || !BARE_SIGN.test(label))) {
      const next = cells.slice(i + 1).find((c) => textOf(c ?? null) !== '');
      const found = withDigit(textOf(next ?? null).split(/\s+/)[0]);
      if (found) return found;
    }
    if (LABEL_ABOVE.test(label)) {
      const found = withDigit(textOf(below[i] ?? null).split(/\s+/)[0]);
      if (found) return found;
    }
    if (NAMES_DOCUMENT.test(label)) documentNamed = true;
  }
  return '';
}
