import {
  dec,
  decCmp,
  ORDER_STAGES,
  REPORT_MAX_CLIENTS,
  REPORT_MESSAGES,
  REPORT_TIME_ZONE,
  type Identity,
  type OrderStage,
  type ReportClientSummary,
  type ReportFilters,
  type ReportGroup,
  type ReportRow,
  type ReportRowsResult,
  type ReportSummary,
} from '@caravan/contracts';
import { applyOwnership, BusinessError, type Db } from '@caravan/service-kit';
import type { Knex } from 'knex';

/**
 * The client order report in SQL (docs/adr/0024-reports.md). Every query starts from `reportOrders`:
 * the live orders the identity reaches (admin all; a client their clients' orders; an operator their
 * operators' orders — the scope of client_order_list) narrowed by the filters. Each narrowing is an
 * equality or a range on the columns the reach indexes lead with (client_id or operator_id, deleted,
 * created_at, id), so a client's or an operator's report is an index range, not a walk over every order.
 */

/** The goods of an order: its buyout price, none when the client buys them out (the total leaves them out). */
const PRODUCT_SQL = `case when o.buyout_type = 'self' then 0 else coalesce(o.buyout_price_rur, 0) end`;
const PRICE_SQL = `coalesce(o.total_price_rur, 0)`;

/** The live orders within the identity's reach that match the filters. */
export function reportOrders(db: Db, identity: Identity, f: ReportFilters): Knex.QueryBuilder {
  const q = db('client_order as o').where('o.deleted', false);
  applyOwnership(q, identity, { client: 'o.client_id', operator: 'o.operator_id' });
  if (f.client_id) q.where('o.client_id', f.client_id);
  if (f.operator_id) q.where('o.operator_id', f.operator_id);
  // a day's bounds in Moscow time, as instants: the index on created_at serves the range
  if (f.created_from)
    q.whereRaw('o.created_at >= (?::date)::timestamp at time zone ?', [f.created_from, REPORT_TIME_ZONE]);
  if (f.created_to)
    q.whereRaw('o.created_at < (?::date + 1)::timestamp at time zone ?', [f.created_to, REPORT_TIME_ZONE]);
  return q;
}

// ─── rows ─────────────────────────────────────────────────────────────────────────────────────────

type Cursor = { at: string; id: number };

/** Where the next page starts: the last row's creation time (to the microsecond, as stored) and id. */
const encodeCursor = (c: Cursor) => Buffer.from(`${c.at}|${c.id}`).toString('base64url');

function decodeCursor(text: string): Cursor {
  const [at, id] = Buffer.from(text, 'base64url').toString().split('|');
  if (!at || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(at) || !/^\d{1,15}$/.test(id ?? ''))
    throw new BusinessError(REPORT_MESSAGES.badCursor);
  return { at, id: Number(id) };
}

const ROW_COLUMNS = (db: Db) => [
  'o.id',
  'o.title',
  'o.order_number',
  'o.client_id',
  'o.operator_id',
  'o.stage',
  'o.created_at',
  db.raw(`coalesce(o.client_title, '') as client_title`),
  db.raw(`round(${PRODUCT_SQL}, 2)::text as product_price_sum`),
  db.raw(`round(${PRICE_SQL} - ${PRODUCT_SQL}, 2)::text as delivery_price_sum`),
  db.raw(`round(${PRICE_SQL}, 2)::text as price_sum`),
  db.raw(`to_char(o.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at`),
];

type RowWithCursor = Omit<ReportRow, 'created_at'> & { created_at: Date; cursor_at: string };

/**
 * A page of rows, newest first, by seek paging on (created_at, id): the next page continues after the
 * last row whatever was created meanwhile, and a page far down costs what the first does.
 */
export async function reportRows(
  db: Db,
  identity: Identity,
  f: ReportFilters,
  page: { per_page: number; cursor?: string | null },
): Promise<ReportRowsResult> {
  const q = reportOrders(db, identity, f).select(ROW_COLUMNS(db));
  if (page.cursor) {
    const c = decodeCursor(page.cursor);
    q.whereRaw('(o.created_at, o.id) < (?::timestamptz, ?)', [c.at, c.id]);
  }
  const rows = (await q
    .orderBy([
      { column: 'o.created_at', order: 'desc' },
      { column: 'o.id', order: 'desc' },
    ])
    .limit(page.per_page + 1)) as RowWithCursor[];
  const more = rows.length > page.per_page;
  const items = rows.slice(0, page.per_page);
  const last = items[items.length - 1];
  return {
    items: items.map(({ cursor_at: _cursor, created_at, ...row }) => ({
      ...row,
      created_at: created_at.toISOString(),
    })),
    next_cursor: more && last ? encodeCursor({ at: last.cursor_at, id: last.id }) : null,
  };
}

// ─── summary ──────────────────────────────────────────────────────────────────────────────────────

type GroupRow = {
  by_client: number;
  by_month: number;
  by_stage: number;
  client_id: number | null;
  month: string | null;
  stage: OrderStage | null;
  order_count: number;
  product_price_sum: string;
  delivery_price_sum: string;
  total_sum: string;
};

const group = (r: GroupRow): ReportGroup => ({
  order_count: Number(r.order_count),
  product_price_sum: r.product_price_sum,
  delivery_price_sum: r.delivery_price_sum,
  total_sum: r.total_sum,
});

const EMPTY_GROUP: ReportGroup = {
  order_count: 0,
  product_price_sum: '0.00',
  delivery_price_sum: '0.00',
  total_sum: '0.00',
};

/** Memory for the groups of one summary: an admin's year (1,000 clients × 12 months × 10 stages) in one hash. */
const SUMMARY_WORK_MEM = '32MB';

/**
 * The sums per client, per month, per stage and in all: the orders are added up once per (client,
 * stage, month) — one pass, hashed, parallel where the server may — and those few groups are rolled
 * up by GROUPING SETS. (One GROUPING SETS over the orders themselves lets the planner walk the
 * client_id index to have them sorted: a random read of every order, 4–9 s at 1,000,000.)
 */
export async function reportSummary(db: Db, identity: Identity, f: ReportFilters): Promise<ReportSummary> {
  return db.transaction(async (trx) => {
    await trx.raw(`set local work_mem = '${SUMMARY_WORK_MEM}'`);
    return summaryIn(trx, identity, f);
  });
}

async function summaryIn(db: Db, identity: Identity, f: ReportFilters): Promise<ReportSummary> {
  const groups = reportOrders(db, identity, f)
    .select(
      'o.client_id',
      'o.stage',
      db.raw(`date_trunc('month', o.created_at at time zone ?) as month`, [REPORT_TIME_ZONE]),
      db.raw('count(*) as n'),
      db.raw(`sum(${PRODUCT_SQL}) as product`),
      db.raw(`sum(${PRICE_SQL}) as price`),
    )
    .groupByRaw('1, 2, 3');
  const rows = (await db
    .from(groups.as('x'))
    .select(
      db.raw(`grouping(client_id) as by_client, grouping(month) as by_month, grouping(stage) as by_stage`),
      'client_id',
      db.raw(`to_char(month, 'YYYY-MM') as month`),
      'stage',
      // coalesce: the grand total's set () answers one row even when no order matches, with null sums
      db.raw('coalesce(sum(n), 0)::int as order_count'),
      db.raw('round(coalesce(sum(product), 0), 2)::text as product_price_sum'),
      db.raw('round(coalesce(sum(price - product), 0), 2)::text as delivery_price_sum'),
      db.raw('round(coalesce(sum(price), 0), 2)::text as total_sum'),
    )
    .groupByRaw('grouping sets ((client_id), (x.month), (stage), ())')) as GroupRow[];

  // a grouping set of one column has the others rolled up (grouping() = 1 for each of them)
  const total = rows.find((r) => r.by_client && r.by_month && r.by_stage);
  const perClient = rows.filter((r) => !r.by_client);
  const perMonth = rows.filter((r) => !r.by_month);
  const perStage = rows.filter((r) => !r.by_stage);

  const largest = perClient
    .sort((a, b) => decCmp(dec(b.total_sum), dec(a.total_sum)) || Number(a.client_id) - Number(b.client_id))
    .slice(0, REPORT_MAX_CLIENTS);
  const titles = await clientTitles(
    db,
    largest.map((r) => Number(r.client_id)),
  );
  const clients: ReportClientSummary[] = largest.map((r) => ({
    client_id: Number(r.client_id),
    client_title: titles.get(Number(r.client_id)) ?? '',
    ...group(r),
  }));
  return {
    total: total ? group(total) : EMPTY_GROUP,
    clients,
    client_count: perClient.length,
    by_month: perMonth
      .map((r) => ({ month: r.month!, ...group(r) }))
      .sort((a, b) => a.month.localeCompare(b.month)),
    by_stage: perStage
      .map((r) => ({ stage: r.stage!, ...group(r) }))
      .sort((a, b) => ORDER_STAGES.indexOf(a.stage) - ORDER_STAGES.indexOf(b.stage)),
  };
}

async function clientTitles(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = (await db('client').whereIn('id', ids).select('id', 'title')) as {
    id: number;
    title: string;
  }[];
  return new Map(rows.map((r) => [r.id, r.title]));
}
