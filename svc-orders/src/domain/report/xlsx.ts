import {
  dec,
  decFormat,
  ORDER_STAGE_LABELS,
  REPORT_TEXTS,
  REPORT_TIME_ZONE,
  type ReportGroup,
  type ReportRow,
  type ReportSummary,
} from '@caravan/contracts';
import ExcelJS from 'exceljs';
import type { Writable } from 'node:stream';

/**
 * The report as an Excel workbook, streamed (exceljs' WorkbookWriter): each row is written and let go
 * as it comes from the database, so 100,000 orders never sit in memory at once. Sheet 'Заказы': the
 * rows as the page's table shows them and the total; sheet 'Клиенты': the per-client summary and the
 * total. Money cells are numbers with the '#,##0.00' format (the decimal strings become the cells'
 * numbers only here, as in the invoice), so the sheet sums and sorts.
 */

const MONEY_FORMAT = '#,##0.00';
const DATE_FORMAT = 'dd.mm.yyyy hh:mm';
const c = REPORT_TEXTS.columns;

const ORDER_COLUMNS: Partial<ExcelJS.Column>[] = [
  { header: c.id, key: 'id', width: 10 },
  { header: c.title, key: 'title', width: 28 },
  { header: c.order_number, key: 'order_number', width: 18 },
  { header: c.client_title, key: 'client_title', width: 28 },
  { header: c.stage, key: 'stage', width: 26 },
  { header: c.created_at, key: 'created_at', width: 17, style: { numFmt: DATE_FORMAT } },
  { header: c.product_price_sum, key: 'product_price_sum', width: 15, style: { numFmt: MONEY_FORMAT } },
  { header: c.delivery_price_sum, key: 'delivery_price_sum', width: 15, style: { numFmt: MONEY_FORMAT } },
  { header: c.price_sum, key: 'price_sum', width: 15, style: { numFmt: MONEY_FORMAT } },
];

const CLIENT_COLUMNS: Partial<ExcelJS.Column>[] = [
  { header: c.client_title, key: 'client_title', width: 36 },
  { header: c.order_count, key: 'order_count', width: 10 },
  { header: c.product_price_sum, key: 'product_price_sum', width: 16, style: { numFmt: MONEY_FORMAT } },
  { header: c.delivery_price_sum, key: 'delivery_price_sum', width: 16, style: { numFmt: MONEY_FORMAT } },
  { header: c.total_sum, key: 'total_sum', width: 16, style: { numFmt: MONEY_FORMAT } },
];

const moscowParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: REPORT_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** Excel has no time zones: the cell shows the Moscow wall time (a Date whose UTC fields are Moscow's). */
export function moscowWallTime(iso: string): Date {
  const parts = Object.fromEntries(
    moscowParts.formatToParts(new Date(iso)).map((p) => [p.type, Number(p.value)]),
  ) as Record<string, number>;
  return new Date(Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!));
}

const money = (text: string) => Number(text);

const orderCells = (r: ReportRow) => ({
  id: r.id,
  title: r.title,
  order_number: r.order_number,
  client_title: r.client_title,
  stage: ORDER_STAGE_LABELS[r.stage] ?? r.stage,
  created_at: moscowWallTime(r.created_at),
  product_price_sum: money(r.product_price_sum),
  delivery_price_sum: money(r.delivery_price_sum),
  price_sum: money(r.price_sum),
});

const groupCells = (g: ReportGroup) => ({
  order_count: g.order_count,
  product_price_sum: money(g.product_price_sum),
  delivery_price_sum: money(g.delivery_price_sum),
  total_sum: money(g.total_sum),
});

/** The clients the summary does not list by name, as one group: the total less the listed ones. */
function otherClients(summary: ReportSummary): ReportGroup | null {
  if (summary.client_count <= summary.clients.length) return null;
  const rest = (key: 'product_price_sum' | 'delivery_price_sum' | 'total_sum') =>
    decFormat(summary.clients.reduce((left, g) => left - dec(g[key]), dec(summary.total[key])));
  return {
    order_count: summary.clients.reduce((left, g) => left - g.order_count, summary.total.order_count),
    product_price_sum: rest('product_price_sum'),
    delivery_price_sum: rest('delivery_price_sum'),
    total_sum: rest('total_sum'),
  };
}

function sheet(
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  name: string,
  columns: Partial<ExcelJS.Column>[],
) {
  const ws = workbook.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = columns;
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  return ws;
}

/** Writes the workbook to `out`: the rows as `pages` yields them, then the summary. */
export async function writeReportXlsx(
  out: Writable,
  summary: ReportSummary,
  pages: AsyncIterable<ReportRow[]>,
): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Caravan';
  workbook.title = REPORT_TEXTS.title;

  const orders = sheet(workbook, REPORT_TEXTS.ordersSheet, ORDER_COLUMNS);
  for await (const page of pages) for (const row of page) orders.addRow(orderCells(row)).commit();
  const ordersTotal = orders.addRow({
    title: REPORT_TEXTS.total,
    product_price_sum: money(summary.total.product_price_sum),
    delivery_price_sum: money(summary.total.delivery_price_sum),
    price_sum: money(summary.total.total_sum),
  });
  ordersTotal.font = { bold: true };
  ordersTotal.commit();
  orders.commit();

  const clients = sheet(workbook, REPORT_TEXTS.clientsSheet, CLIENT_COLUMNS);
  for (const g of summary.clients)
    clients.addRow({ client_title: g.client_title, ...groupCells(g) }).commit();
  const others = otherClients(summary);
  if (others)
    clients
      .addRow({
        client_title: REPORT_TEXTS.otherClients(summary.client_count - summary.clients.length),
        ...groupCells(others),
      })
      .commit();
  const clientsTotal = clients.addRow({ client_title: REPORT_TEXTS.total, ...groupCells(summary.total) });
  clientsTotal.font = { bold: true };
  clientsTotal.commit();
  clients.commit();

  await workbook.commit();
}
