import { LIST_COUNT_CAP, LIST_MESSAGES, type WhereCondition } from '@caravan/contracts';
import type { Knex } from 'knex';
import type { Db } from './db';
import { BusinessError } from './errors';
import { SORT_COLLATION } from './listIndexes';

/** What a column holds, as far as a filter or a sort cares. */
export type ColumnKind =
  'text' | 'number' | 'date' | 'datetime' | 'boolean' | 'numbers' | 'texts' | 'json' | 'unknown';

export type ColumnInfo = { kind: ColumnKind; nullable: boolean };

/** The columns of the service's schema (read once per database) and whether the sort collation exists there. */
export type Catalog = { tables: Map<string, Map<string, ColumnInfo>>; collation: boolean };

const KINDS: Record<string, ColumnKind> = {
  text: 'text',
  'character varying': 'text',
  character: 'text',
  smallint: 'number',
  integer: 'number',
  bigint: 'number',
  numeric: 'number',
  real: 'number',
  'double precision': 'number',
  date: 'date',
  'timestamp with time zone': 'datetime',
  'timestamp without time zone': 'datetime',
  boolean: 'boolean',
  json: 'json',
  jsonb: 'json',
};
const ARRAY_KINDS: Record<string, ColumnKind> = {
  _int2: 'numbers',
  _int4: 'numbers',
  _int8: 'numbers',
  _numeric: 'numbers',
  _text: 'texts',
  _varchar: 'texts',
};

function kindOfType(dataType: string, udt: string): ColumnKind {
  if (dataType === 'ARRAY') return ARRAY_KINDS[udt] ?? 'unknown';
  return KINDS[dataType] ?? 'unknown';
}

type CatalogRow = {
  table_name: string;
  column_name: string;
  data_type: string;
  udt_name: string;
  is_nullable: string;
};

// keyed by the connection settings, which a transaction shares with its knex instance
const catalogs = new WeakMap<object, Promise<Catalog>>();

async function readCatalog(db: Db): Promise<Catalog> {
  const { rows } = (await db.raw(
    `select table_name, column_name, data_type, udt_name, is_nullable
       from information_schema.columns where table_schema = current_schema()`,
  )) as { rows: CatalogRow[] };
  const { rows: found } = (await db.raw(
    `select exists (select 1 from pg_collation where collname = ? and collnamespace = current_schema()::regnamespace) as c`,
    [SORT_COLLATION],
  )) as { rows: { c: boolean }[] };
  const tables = new Map<string, Map<string, ColumnInfo>>();
  for (const r of rows) {
    const table = tables.get(r.table_name) ?? new Map<string, ColumnInfo>();
    table.set(r.column_name, {
      kind: kindOfType(r.data_type, r.udt_name),
      nullable: r.is_nullable === 'YES',
    });
    tables.set(r.table_name, table);
  }
  return { tables, collation: Boolean(found[0]?.c) };
}

/** The schema's columns, read once (migrations run before a service answers). */
export function catalogOf(db: Db): Promise<Catalog> {
  const key = db.client.config as object;
  let catalog = catalogs.get(key);
  if (!catalog) {
    catalog = readCatalog(db);
    catalogs.set(key, catalog);
    catalog.catch(() => catalogs.delete(key));
  }
  return catalog;
}

const NUMBER = /^-?\d+(\.\d+)?$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** A real day (and time), as PostgreSQL reads it: '2026-02-31' and '2026-13-01' are not. */
export function isDateValue(value: unknown, withTime: boolean): boolean {
  if (typeof value !== 'string') return false;
  const m = DATE_TIME.exec(value.trim());
  if (!m || (!withTime && m[4] !== undefined)) return false;
  const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1, 7).map((x) => Number(x ?? 0)) as number[];
  if (y! < 1 || mo! < 1 || mo! > 12 || d! < 1 || h! > 23 || mi! > 59 || s! > 59) return false;
  return d! <= new Date(Date.UTC(y!, mo!, 0)).getUTCDate();
}

/** Does one value fit a column of this kind? */
function fits(kind: ColumnKind, value: unknown): boolean {
  switch (kind) {
    case 'number':
    case 'numbers':
      return (
        (typeof value === 'number' && Number.isFinite(value)) ||
        (typeof value === 'string' && NUMBER.test(value.trim()))
      );
    case 'date':
      return isDateValue(value, false);
    case 'datetime':
      return isDateValue(value, true);
    case 'boolean':
      return typeof value === 'boolean' || value === 'true' || value === 'false';
    case 'text':
    case 'texts':
      return typeof value === 'string' || typeof value === 'number';
    default:
      return true;
  }
}

function valueMessage(kind: ColumnKind, op: string, label: string): string {
  if (kind === 'number' || kind === 'numbers') return LIST_MESSAGES.number(op, label);
  if (kind === 'date' || kind === 'datetime') return LIST_MESSAGES.date(op, label);
  if (kind === 'boolean') return LIST_MESSAGES.boolean(op, label);
  return LIST_MESSAGES.badValue(label);
}

/**
 * Refuses, in words naming the field by its label, a condition the column cannot answer: 'contains'
 * on a scalar, a comparison on a list, a word compared with a number, a day that does not exist.
 */
export function checkCondition(c: WhereCondition, kind: ColumnKind, label: string): void {
  const list = kind === 'numbers' || kind === 'texts';
  const value = c.value;
  const one = () => {
    if (value === undefined || value === null || Array.isArray(value))
      throw new BusinessError(LIST_MESSAGES.oneValue(c.op, label));
  };
  switch (c.op) {
    case 'is_null':
    case 'not_null':
      return;
    case 'like':
      return one();
    case 'contains':
      if (!list && kind !== 'unknown') throw new BusinessError(LIST_MESSAGES.containsOnScalar(label));
      one();
      if (!fits(kind, value)) throw new BusinessError(valueMessage(kind, c.op, label));
      return;
    case 'in':
    case 'not_in':
      if (!Array.isArray(value) || !value.length) throw new BusinessError(LIST_MESSAGES.nonEmptyList(label));
      if (list) throw new BusinessError(LIST_MESSAGES.onList(c.op, label));
      if (kind === 'json') throw new BusinessError(LIST_MESSAGES.onlyPresence(c.op, label));
      if (!value.every((v) => fits(kind, v))) throw new BusinessError(valueMessage(kind, c.op, label));
      return;
    default:
      if (list) throw new BusinessError(LIST_MESSAGES.onList(c.op, label));
      if (kind === 'json') throw new BusinessError(LIST_MESSAGES.onlyPresence(c.op, label));
      one();
      if (!fits(kind, value)) throw new BusinessError(valueMessage(kind, c.op, label));
  }
}

/** A sort: the SQL of its key (in the sort collation for text), the direction, and whether the key can be null. */
export type OrderKey = {
  /** `order_by` as given, normalised ("title asc"): a cursor belongs to one sort. */
  name: string;
  sql: string;
  bindings: readonly Knex.Value[];
  dir: 'asc' | 'desc';
  nullable: boolean;
  text: boolean;
};

/** The count a list reports; a cursor carries the first page's, so later pages do not count again. */
export type Count = { total: number; total_exact: boolean; total_estimate?: number };

/**
 * Where a page ended: the sort it belongs to, the last row's key (null: among the rows without one)
 * and id, and the count of the first page.
 */
type Cursor = { o: string; k: string | null; i: number; n: Count };

export const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');

export function decodeCursor(text: string, order: OrderKey): Cursor {
  let c: Partial<Cursor>;
  try {
    c = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Cursor>;
  } catch {
    throw new BusinessError(LIST_MESSAGES.badCursor);
  }
  const valid =
    c !== null &&
    typeof c === 'object' &&
    c.o === order.name &&
    (typeof c.k === 'string' || (c.k === null && order.nullable)) &&
    Number.isSafeInteger(c.i) &&
    Number.isSafeInteger(c.n?.total) &&
    typeof c.n?.total_exact === 'boolean';
  if (!valid) throw new BusinessError(LIST_MESSAGES.badCursor);
  return c as Cursor;
}

export type PageOptions = {
  table: string;
  order: OrderKey;
  selection: (string | Knex.Raw)[];
  perPage: number;
  /** Rows to skip (the old `page` parameter): only without a cursor. */
  skip: number;
  cursor?: Cursor;
  collation: boolean;
};

/**
 * One page by seek: the ids and sort keys of the page's rows first (an index walk from the cursor,
 * rows with a key before the rows without one), then the selection — computed columns included — for
 * those rows only. One row more is looked at to know whether a next page exists.
 */
export async function pageOf(
  db: Db,
  base: Knex.QueryBuilder,
  o: PageOptions,
): Promise<{ rows: Record<string, unknown>[]; next: Pick<Cursor, 'k' | 'i'> | null }> {
  return pageQuery(db, base, o);
}

/** Matches of a search sorted by themselves, at most (above it the sort index is walked, ADR 0005). */
export const SEARCH_SORT_CAP = 10_000;

/**
 * A search's page and count in one statement (ADR 0005, addendum): the rows of `filtered` up to `cap` + 1 are
 * gathered once (the trigram index's bitmap), counted, and the page is sorted from them — never an index walk
 * testing every row. `matches` is null when more than `cap` rows match: the page is then not the true one and the
 * caller pages by the index instead. A page past the end (the old `page` parameter) leaves the count unknown
 * (`undefined`).
 */
export async function searchPageOf(
  db: Db,
  filtered: Knex.QueryBuilder,
  o: PageOptions & { cap: number },
): Promise<{
  rows: Record<string, unknown>[];
  next: Pick<Cursor, 'k' | 'i'> | null;
  matches: number | null | undefined;
}> {
  const gathered = filtered
    .clone()
    .select(`${o.table}.*`)
    .limit(o.cap + 1);
  // the gathered rows under the table's own name, fenced (knex drops .offset(0), so it is written out)
  const base = db.from(db.raw('(select * from __m offset 0) as ??', [o.table]));
  const { rows, next } = await pageQuery(db, base, o, gathered);
  const found = rows[0]?.__matches as number | undefined;
  const matches = found === undefined ? (o.skip ? undefined : 0) : found > o.cap ? null : found;
  return { rows: rows.map(({ __matches, ...row }) => row), next, matches };
}

async function pageQuery(db: Db, base: Knex.QueryBuilder, o: PageOptions, gathered?: Knex.QueryBuilder) {
  const { order, cursor } = o;
  const id = `${o.table}.id`;
  const dir = order.dir;
  const cmp = dir === 'asc' ? '>' : '<';
  const take = o.skip + o.perPage + 1;
  const branches: Knex.QueryBuilder[] = [];
  if (!cursor || cursor.k !== null) {
    const b = base
      .clone()
      .select(
        db.raw('?? as __id', [id]),
        db.raw(`${order.sql} as __k`, order.bindings),
        db.raw('1 as __seg'),
      );
    if (order.nullable) b.whereRaw(`${order.sql} is not null`, order.bindings);
    if (cursor) b.whereRaw(`(${order.sql}, ??) ${cmp} (?, ?)`, [...order.bindings, id, cursor.k, cursor.i]);
    branches.push(b.orderByRaw(`${order.sql} ${dir}, ?? ${dir}`, [...order.bindings, id]).limit(take));
  }
  if (order.nullable) {
    const b = base
      .clone()
      .select(db.raw('?? as __id', [id]), db.raw('null as __k'), db.raw('2 as __seg'))
      .whereRaw(`${order.sql} is null`, order.bindings);
    if (cursor?.k === null) b.where(id, cmp, cursor.i);
    branches.push(b.orderBy(id, dir).limit(take));
  }
  const collate = order.text && o.collation ? ` collate ${SORT_COLLATION}` : '';
  const ordered = (t: string) => `${t}.__seg, ${t}.__k${collate} ${dir}, ${t}.__id ${dir}`;
  const ids = db.raw(
    `select u.__id, u.__k, u.__seg from (${branches.map(() => '?').join(' union all ')}) u
      order by ${ordered('u')} limit ? offset ?`,
    [...branches, o.perPage + 1, o.skip],
  );
  const query = gathered ? db.withMaterialized('__m', gathered) : db.queryBuilder();
  if (gathered) query.select(db.raw('(select count(*) from __m)::int as __matches'));
  const rows = (await query
    .withMaterialized('p', ids)
    .select(o.selection)
    .select(db.raw('q.__k::text as __key, q.__seg as __seg, (select count(*) from p)::int as __found'))
    .from(db.raw(`(select * from p order by ${ordered('p')} limit ?) as q`, [o.perPage]))
    .join(o.table, id, 'q.__id')
    .orderByRaw(ordered('q'))) as (Record<string, unknown> & {
    __key: string | null;
    __seg: number;
    __found: number;
  })[];
  const last = rows.at(-1);
  const next =
    last && last.__found > o.perPage ? { k: last.__seg === 1 ? last.__key : null, i: Number(last.id) } : null;
  return { rows: rows.map(({ __key, __seg, __found, ...row }) => row), next };
}

/** The count: exact up to LIST_COUNT_CAP; beyond it a lower bound and the planner's estimate. */
export async function countOf(db: Db, base: Knex.QueryBuilder): Promise<Count> {
  const capped = base
    .clone()
    .select(db.raw('1'))
    .limit(LIST_COUNT_CAP + 1);
  const { rows } = (await db.raw('select count(*)::int as n from ? c', [capped])) as {
    rows: { n: number }[];
  };
  const n = rows[0]!.n;
  if (n <= LIST_COUNT_CAP) return { total: n, total_exact: true };
  const plain = base.clone().select(db.raw('1')).toSQL();
  const { rows: plan } = (await db.raw(`explain (format json) ${plain.sql}`, plain.bindings)) as {
    rows: { 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }[];
  };
  const estimate = Math.round(plan[0]?.['QUERY PLAN'][0].Plan['Plan Rows'] ?? 0);
  return {
    total: n,
    total_exact: false,
    ...(estimate > LIST_COUNT_CAP ? { total_estimate: estimate } : {}),
  };
}

/** Database errors a filter value can still cause (a computed column of an unexpected type): words, not a 500. */
export function isFilterValueError(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  return ['22P02', '22007', '22008', '22003', '42883', '42804', '42809', '2202E'].includes(code ?? '');
}
