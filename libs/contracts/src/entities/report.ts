import { z } from 'zod';
import { formatNumber } from '../formatting';
import type { OrderStage } from './orderStages';
import { Id, IsoDate } from './common';

/**
 * The client order report (spec product-core §3: a row is id, title, order_number, price_sum with
 * delivery_price_sum and product_price_sum; a per-client summary with product_price_sum,
 * delivery_price_sum, total_sum; issue 19; docs/adr/0024-reports.md). svc-orders answers it from the
 * orders within the caller's reach, aggregated in SQL; money as decimal strings.
 *
 * The spec names no call: ours are `client_order_report_rows` (the rows, a page at a time, newest
 * first), `client_order_report_summary` (per client, per month, per stage and in all) and
 * POST /api/client_order_report_download (the same as an Excel workbook), all with the same filters.
 */

/** Days of the period are Moscow days: an order made at 01:00 Moscow time on the 1st belongs to the 1st. */
export const REPORT_TIME_ZONE = 'Europe/Moscow';
/** Rows a page of the report holds by default, and at most. */
export const REPORT_PAGE_SIZE = 50;
export const REPORT_PAGE_MAX = 500;
/** Orders one Excel download may hold (a bigger period is refused in words: narrow it). */
export const REPORT_XLSX_MAX_ROWS = 100_000;
/** Clients the summary lists by name, the largest totals first (the rest are counted). */
export const REPORT_MAX_CLIENTS = 1000;

export const REPORT_MESSAGES = {
  periodReversed: 'дата «по» раньше даты «с»: исправьте период отчёта',
  badCursor: 'неверная ссылка на следующую страницу отчёта: откройте отчёт заново',
  tooManyRows: (count: number) =>
    `в выгрузке ${formatNumber(count)} заказов, а можно не больше ${formatNumber(REPORT_XLSX_MAX_ROWS)}: сузьте период или выберите клиента`,
  unavailable: 'не удалось сформировать отчёт, повторите попытку',
} as const;

const filterShape = {
  created_from: IsoDate.nullable().optional(),
  created_to: IsoDate.nullable().optional(),
  client_id: Id.nullable().optional(),
  operator_id: Id.nullable().optional(),
};

const periodInOrder = (f: { created_from?: string | null; created_to?: string | null }) =>
  !f.created_from || !f.created_to || f.created_from <= f.created_to;
const PERIOD_REFINEMENT = { message: REPORT_MESSAGES.periodReversed, path: [] as string[] };

/** The report's filters: the period of creation (days, both ends included), the client, the operator. */
export const ReportFilters = z.strictObject(filterShape).refine(periodInOrder, PERIOD_REFINEMENT);
export type ReportFilters = z.infer<typeof ReportFilters>;

/** A page of rows: the filters, the page size and where the page starts (`next_cursor` of the previous one). */
export const ReportRowsParams = z
  .strictObject({
    ...filterShape,
    per_page: z.number().int().min(1).max(REPORT_PAGE_MAX).default(REPORT_PAGE_SIZE),
    cursor: z.string().max(100).nullable().optional(),
  })
  .refine(periodInOrder, PERIOD_REFINEMENT);
export type ReportRowsParams = z.infer<typeof ReportRowsParams>;

export const REPORT_FILTER_LABELS = {
  labels: {
    created_from: 'создан с',
    created_to: 'создан по',
    client_id: 'клиент',
    operator_id: 'оператор',
    per_page: 'строк на странице',
    cursor: 'следующая страница',
  },
} as const;

/** The three sums of a row or a group, rubles, decimal strings with 2 decimals. */
export type ReportSums = {
  /** the goods: buyout_price_rur, 0 when the client buys them out themselves (the total leaves them out) */
  product_price_sum: string;
  /** the rest of the order's price: deliveries, package, tariff (price_sum − product_price_sum) */
  delivery_price_sum: string;
};

/** One order of the report (spec §3), with what the table shows beside it. */
export type ReportRow = ReportSums & {
  id: number;
  title: string;
  order_number: string;
  /** total_price_rur */
  price_sum: string;
  client_id: number;
  client_title: string;
  operator_id: number;
  stage: OrderStage;
  created_at: string;
};

export type ReportRowsResult = { items: ReportRow[]; next_cursor: string | null };

/** A group of orders: how many and their sums (total_sum = product + delivery). */
export type ReportGroup = ReportSums & { order_count: number; total_sum: string };
export type ReportClientSummary = ReportGroup & { client_id: number; client_title: string };

export type ReportSummary = {
  total: ReportGroup;
  /** per client (spec §3), the largest total first, at most REPORT_MAX_CLIENTS */
  clients: ReportClientSummary[];
  /** clients with orders in the report, listed or not */
  client_count: number;
  /** per calendar month of creation ('YYYY-MM', Moscow time), oldest first; months without orders absent */
  by_month: (ReportGroup & { month: string })[];
  /** per stage, in the stages' order; stages without orders absent */
  by_stage: (ReportGroup & { stage: OrderStage })[];
};

/** The words of the report's Excel workbook and page. */
export const REPORT_TEXTS = {
  title: 'отчёт по заказам',
  ordersSheet: 'Заказы',
  clientsSheet: 'Клиенты',
  total: 'итого',
  otherClients: (n: number) => `другие клиенты (${n})`,
  columns: {
    id: '№',
    title: 'заказ',
    order_number: 'номер заказа',
    client_title: 'клиент',
    stage: 'этап',
    created_at: 'создан',
    product_price_sum: 'товары, ₽',
    delivery_price_sum: 'доставка, ₽',
    price_sum: 'сумма, ₽',
    order_count: 'заказов',
    total_sum: 'итого, ₽',
  },
} as const;

/** The download's file name: the period when one is given ('отчёт по заказам 2026-01-01 — 2026-03-31.xlsx'). */
export function reportFileName(f: Pick<ReportFilters, 'created_from' | 'created_to'>): string {
  const period = f.created_from || f.created_to ? ` ${f.created_from ?? '…'} — ${f.created_to ?? '…'}` : '';
  return `${REPORT_TEXTS.title}${period}.xlsx`;
}
