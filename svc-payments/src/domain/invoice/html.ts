import { INVOICE_TEXTS } from '@caravan/contracts';
import { money, quantity, type Invoice } from './model';

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
/** Every text that reaches the page goes through here: names, titles and addresses are users' input. */
export const escapeHtml = (text: string | number) => String(text).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
const e = escapeHtml;

const STYLE = `
@page { size: A4; margin: 12mm 10mm 14mm 15mm; }
* { box-sizing: border-box; }
body { margin: 0; font-family: Arial, 'Liberation Sans', 'DejaVu Sans', sans-serif; font-size: 9pt; color: #000; }
table { border-collapse: collapse; width: 100%; }
.bank td { border: 1px solid #000; padding: 2px 4px; vertical-align: top; }
.bank .caption { font-size: 8pt; }
.bank .noline { border-bottom: none; }
.bank .nolinetop { border-top: none; }
.bank .key { width: 9%; }
.bank .value { width: 31%; }
h1 { font-size: 14pt; font-weight: bold; margin: 14px 0 0; padding-bottom: 4px; border-bottom: 2px solid #000; }
.parties { margin: 8px 0; }
.parties td { padding: 3px 4px 3px 0; vertical-align: top; }
.parties .label { width: 22%; }
.parties .text { font-weight: bold; }
.lines th, .lines td { border: 1px solid #000; padding: 2px 4px; vertical-align: top; }
.lines { border: 2px solid #000; }
.lines th { font-weight: bold; text-align: center; }
.lines tr { break-inside: avoid; }
.lines .num { text-align: right; white-space: nowrap; }
.lines .center { text-align: center; }
.totals { margin-top: 4px; }
.totals td { padding: 1px 4px; font-weight: bold; text-align: right; }
.totals .amount { width: 16%; white-space: nowrap; }
.summary { margin: 8px 0 0; }
.words { margin: 0 0 6px; font-weight: bold; padding-bottom: 6px; border-bottom: 2px solid #000; }
.signs { margin-top: 18px; break-inside: avoid; }
.signs td { padding: 0 4px; vertical-align: bottom; white-space: nowrap; }
.signs .line { border-bottom: 1px solid #000; width: 22%; }
.signs .name { width: 26%; border-bottom: 1px solid #000; }
`;

const row = (cells: string) => `<tr>${cells}</tr>`;

/**
 * The classic Russian 'Счёт на оплату' as one HTML page for Chromium to print (pdf.ts): the payee's bank
 * details box, the heading, supplier, buyer and basis, the lines (their header repeats on every page),
 * the totals, the amount in words and the signature lines. Nothing is loaded from elsewhere.
 */
export function renderInvoiceHtml(invoice: Invoice): string {
  const t = INVOICE_TEXTS;
  const c = t.columns;
  const bank = `
<table class="bank">
  ${row(`<td colspan="2" rowspan="2" class="noline">${e(invoice.bank.title)}</td>
    <td class="key">${e(t.bik)}</td><td class="value noline">${e(invoice.bank.bik)}</td>`)}
  ${row(`<td class="key" rowspan="2">${e(t.account)}</td><td class="value nolinetop" rowspan="2">${e(invoice.bank.corrAccount)}</td>`)}
  ${row(`<td colspan="2" class="nolinetop caption">${e(t.recipientBank)}</td>`)}
  ${row(`<td>${e(t.inn)} ${e(invoice.seller.inn)}</td><td>${e(t.kpp)} ${e(invoice.seller.kpp)}</td>
    <td class="key" rowspan="3">${e(t.account)}</td><td class="value" rowspan="3">${e(invoice.bank.account)}</td>`)}
  ${row(`<td colspan="2" class="noline">${e(invoice.seller.name)}</td>`)}
  ${row(`<td colspan="2" class="nolinetop caption">${e(t.recipient)}</td>`)}
</table>`;
  const parties = `
<table class="parties">
  ${row(`<td class="label">${e(t.seller)}</td><td class="text">${e(invoice.seller.line)}</td>`)}
  ${row(`<td class="label">${e(t.buyer)}</td><td class="text">${e(invoice.buyer.line)}</td>`)}
  ${row(`<td class="label">${e(t.basis)}</td><td class="text">${e(invoice.basis)}</td>`)}
</table>`;
  const lines = invoice.lines
    .map((l) =>
      row(`<td class="center">${l.n}</td><td>${e(l.title)}</td><td class="num">${e(quantity(l.quantity))}</td>
        <td class="center">${e(l.unit)}</td><td class="num">${e(money(l.price))}</td><td class="num">${e(money(l.sum))}</td>`),
    )
    .join('\n');
  const table = `
<table class="lines">
  <colgroup><col style="width:5%"><col><col style="width:9%"><col style="width:6%"><col style="width:14%"><col style="width:16%"></colgroup>
  <thead>${row(`<th>${e(c.n)}</th><th>${e(c.title)}</th><th>${e(c.quantity)}</th><th>${e(c.unit)}</th><th>${e(c.price)}</th><th>${e(c.sum)}</th>`)}</thead>
  <tbody>
${lines}
  </tbody>
</table>`;
  const totals = `
<table class="totals">
  ${row(`<td>${e(t.total)}</td><td class="amount">${e(money(invoice.total))}</td>`)}
  ${row(`<td>${e(invoice.vat.label)}</td><td class="amount">${invoice.vat.amount === null ? '—' : e(money(invoice.vat.amount))}</td>`)}
  ${row(`<td>${e(t.toPay)}</td><td class="amount">${e(money(invoice.total))}</td>`)}
</table>`;
  const signs = `
<table class="signs">
  ${row(`<td><b>${e(t.director)}</b></td><td class="line"></td><td class="name">${e(invoice.director)}</td>
    <td style="width:4%"></td>
    <td><b>${e(t.accountant)}</b></td><td class="line"></td><td class="name">${e(invoice.accountant)}</td>`)}
</table>`;
  return `<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><title>${e(invoice.heading)}</title><style>${STYLE}</style></head>
<body>
${bank}
<h1>${e(invoice.heading)}</h1>
${parties}
${table}
${totals}
<p class="summary">${e(invoice.summary)}</p>
<p class="words">${e(invoice.words)}</p>
${signs}
</body></html>`;
}
