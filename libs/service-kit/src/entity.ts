import {
  dec,
  describeIssues,
  entityListParams,
  EVENT_TYPES,
  isAdmin,
  BASE_COLUMN_LABELS,
  GetByIdParams,
  LIST_MESSAGES,
  LIST_PARAM_LABELS,
  HistoryParams,
  ListParams,
  MESSAGES,
  NEW_ID,
  parseRawWhere,
  RawWhereError,
  WHERE_CONDITION_LABELS,
  type EntityChanged,
  type EntityContract,
  type FieldLabels,
  type HistoryEntry,
  type Identity,
  type ListResult,
  type WhereCondition,
} from '@caravan/contracts';
import type { Knex } from 'knex';
import { z } from 'zod';
import {
  allows,
  applyScope,
  assertAccess,
  ownsValues,
  type AccessRule,
  type Ownership,
  type Scope,
} from './access';
import type { Db } from './db';
import { BusinessError } from './errors';
import type { TitleKey } from './listIndexes';
import {
  catalogOf,
  checkCondition,
  countOf,
  decodeCursor,
  encodeCursor,
  isFilterValueError,
  pageOf,
  searchPageOf,
  SEARCH_SORT_CAP,
  type Catalog,
  type ColumnKind,
  type Count,
  type OrderKey,
  type PageOptions,
} from './listQuery';
import { SORT_COLLATION } from './listIndexes';
import type { NewEvent, Outbox } from './bus/outbox';
import type { ProcedureContext, ProcedureRegistry } from './registry';

type Row = Record<string, unknown> & { id: number; deleted: boolean };

/** What an entity's own rules see of a write: the stored row before it, the row as it will be, and what changes. */
export type RuleContext = {
  trx: Db;
  identity: Identity;
  /** The stored row (null when creating). */
  prev: Row | null;
  /** The row as it will be: the stored one with the changes applied. */
  next: Record<string, unknown>;
  /** The validated fields this call writes. */
  given: Record<string, unknown>;
  /** The validated fields as the call gave them, those equal to the stored ones included (a patch only). */
  asked?: Record<string, unknown>;
  /** Set when the call deletes (true) or restores (false). */
  deleted?: boolean;
};

/** What follows a stored write inside its transaction: the rows derived from it (an order's prices from its positions). */
export type AfterWriteContext = {
  trx: Db;
  identity: Identity;
  outbox: Outbox;
  /** The stored row before the write (null when created). */
  prev: Row | null;
  /** The stored row after the write. */
  row: Row;
};

/** Extra list parameters of one entity (spec §7: `legal_entity_list {type}`) and how they narrow the rows. */
export type ListExtras = {
  params: z.ZodRawShape;
  apply(q: Knex.QueryBuilder, params: Record<string, unknown>, identity: Identity): void;
};

/** How one entity is stored, who may read and write it, and where its changes are published. */
export type EntityDefinition = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  contract: EntityContract<any>;
  table?: string;
  read: AccessRule;
  write: AccessRule;
  /** Link columns deciding who owns a row (defaults to the contract's): the read and write scope unless those are given. */
  ownership?: Ownership;
  /** Rows a non-admin may read: 'all', or a scope (default: the ownership, or every row without one). */
  readScope?: Scope | 'all';
  /** Rows a non-admin may change, before and after the change (default: the ownership). */
  writeScope?: Scope;
  /** Rows a non-admin may create (default: the write scope); 'all' leaves it to the entity's rules. */
  createScope?: Scope | 'all';
  /** Columns returned and filterable but never written through `_update` (e.g. a balance). */
  readonlyColumns?: readonly string[];
  /** Read-only columns computed by SQL over the row (titles of references, lists of links). Never user input. */
  computed?: Record<string, string | Computed>;
  /** Fields stored as jsonb (objects and lists of objects). */
  json?: readonly string[];
  /** Columns a given user may see, when not all (e.g. no API keys for clients); null: all. */
  visibleColumns?(identity: Identity): readonly string[] | null;
  /** Who may create, change or delete a row where stricter than `write` (cities: anyone adds, admins change). */
  may?: { create?: AccessRule; change?: AccessRule; delete?: AccessRule };
  /** Why this stored row may not be deleted by anyone (a wallet holding money), or null: `_rights` and the delete agree. */
  undeletable?(row: Record<string, unknown>): string | null;
  /**
   * Why this user may not change or delete this stored row although it is within their write scope (a task:
   * only its author or an admin), or null: `_rights` and the write agree.
   */
  rowChangeRefusal?(identity: Identity, row: Record<string, unknown>): string | null;
  /** Values a create takes from the writer when the call does not give them (the owner of a new warehouse). */
  createDefaults?(identity: Identity): Record<string, unknown>;
  /** The entity's own rules, checked inside the write's transaction; throw a BusinessError to refuse. */
  rules?(ctx: RuleContext): Promise<void> | void;
  /**
   * The entities of other services this service replicates: a reference field pointing to one of them
   * must name a live row of the replica ('валюта: нет такой записи (999)'), never an id nobody has.
   */
  replicatedRefs?: readonly string[];
  listExtras?: ListExtras;
  /**
   * A search that looks like a whole value of this column (a waybill) first finds the rows holding exactly that
   * value, by an index on `lower(btrim(column))`; only when none does, it searches every search field.
   */
  exactSearch?: { column: string; looksLike: RegExp };
  /** Topic of the entity-changed events; without it changes are not published. */
  topic?: string;
  /** Locks taken before the row's own, so every path locks in one order (a position's order before the position). */
  beforeLock?(trx: Db, id: number): Promise<void>;
  /** Derived changes made after a write, in its transaction (they publish their own events). */
  afterWrite?(ctx: AfterWriteContext): Promise<void>;
  /** What of a row goes into its event (default: the stored row); may read more in the write's transaction. */
  toEvent?(row: Row, trx: Db): Row | Promise<Row>;
};

const BASE_COLUMNS = ['id', 'deleted', 'created_at', 'updated_at'] as const;

/** What the reader may do with one row, as `_update` decides it: the item page enables save and delete by it. */
export type Rights = { write: boolean; delete: boolean };

export const UpdateParams = z.looseObject({ id: z.number().int(), deleted: z.boolean().optional() });

/** Rows per statement of a bulk write (parameters stay far below PostgreSQL's 65,535). */
const BULK_CHUNK = 1_000;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** JSON with sorted keys: jsonb reorders keys, so a stored object and the same one sent back compare equal. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value ?? null);
}
const DECIMAL = /^-?\d+(\.\d+)?$/;
/** Equal for the history: '12.50' (numeric from the database) is the same as '12.5' sent by a form. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string' && DECIMAL.test(a) && DECIMAL.test(b))
    return dec(a) === dec(b);
  return stableJson(a) === stableJson(b);
}

/** The values before a change, by field: what an entity-changed event carries as `prev`. */
export const beforeOf = (changes: readonly [string, unknown, unknown][]): Record<string, unknown> =>
  Object.fromEntries(changes.map(([field, before]) => [field, before]));

/** Is this schema (under its defaults and nullability) a list? */
function isListSchema(schema: z.ZodType): boolean {
  let s = schema as unknown as { _zod: { def: { type: string; innerType?: unknown; in?: unknown } } };
  for (;;) {
    const def = s._zod.def;
    if (def.type === 'array') return true;
    const inner = def.innerType ?? def.in;
    if (!inner) return false;
    s = inner as typeof s;
  }
}

type Fragment = { sql: string; bindings: readonly Knex.Value[] };

/** A computed column: its SQL, what it holds, and for a reference's title the key the migrations keep (ADR 0005). */
export type Computed = { sql: string; kind: ColumnKind; title?: TitleKey };
const sqlOf = (c: string | Computed) => (typeof c === 'string' ? c : c.sql);

/** A history row as written: its values as JSON text (a JSON null is stored as such, not as SQL NULL). */
type HistoryRow = {
  table_name: string;
  item_id: number;
  user_id: number | null;
  user_full_name: string;
  field: string;
  old_value: string;
  new_value: string;
};

/** History rows in one statement per chunk, spread from one JSON parameter (not 7,000 bound values). */
async function insertHistory(trx: Db, rows: readonly HistoryRow[]) {
  for (let i = 0; i < rows.length; i += BULK_CHUNK)
    await trx.raw(
      `insert into history (table_name, item_id, user_id, user_full_name, field, old_value, new_value)
       select table_name, item_id, user_id, user_full_name, field, old_value::jsonb, new_value::jsonb
       from jsonb_to_recordset(?::jsonb) as x(table_name text, item_id bigint, user_id bigint,
         user_full_name text, field text, old_value text, new_value text)`,
      [JSON.stringify(rows.slice(i, i + BULK_CHUNK))],
    );
}

/** What a creation's history keeps of the new row: its filled fields (not the empty ones, not id and times). */
function createdValues(row: unknown): unknown {
  if (!row || typeof row !== 'object') return row;
  const empty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && !v.length);
  return Object.fromEntries(
    Object.entries(row).filter(([k, v]) => !empty(v) && !(BASE_COLUMNS as readonly string[]).includes(k)),
  );
}

/**
 * The history rows and events of several bulk writes (`insertMany`, `changeMany` given the batch), written
 * by `flush` in one history insert and one outbox statement: fewer round trips while the writer holds
 * its rows' locks.
 */
export class WriteBatch {
  readonly history: HistoryRow[] = [];
  readonly events: NewEvent[] = [];

  async flush(trx: Db, outbox: Outbox) {
    await insertHistory(trx, this.history);
    if (this.events.length) await outbox.writeMany(trx, this.events);
    this.history.length = 0;
    this.events.length = 0;
  }
}

/** The generic list / get / update / history of one entity, shared by every service. */
export class EntityStore {
  readonly name: string;
  readonly table: string;
  /** Stored columns: the base ones, the contract's fields and the read-only ones. */
  readonly stored: readonly string[];
  readonly columns: readonly string[];
  readonly def: EntityDefinition;
  private readonly fieldNames: readonly string[];
  private readonly ownership: Ownership | undefined;
  /** Columns only the row's owners and admins see (contract.confidential). */
  private readonly confidential: readonly string[];

  constructor(def: EntityDefinition) {
    this.ownership = def.ownership ?? def.contract.ownership;
    this.confidential = def.contract.confidential ?? [];
    this.def = def;
    this.name = def.contract.name;
    this.table = def.table ?? def.contract.name;
    this.fieldNames = Object.keys(def.contract.fields.shape);
    this.stored = [...BASE_COLUMNS, ...this.fieldNames, ...(def.readonlyColumns ?? [])];
    this.columns = [...this.stored, ...Object.keys(def.computed ?? {})];
  }

  private readScope(): Scope | undefined {
    const scope = this.def.readScope ?? this.ownership;
    return scope === 'all' ? undefined : scope;
  }

  private scoped(db: Db, identity: Identity, scope: Scope | undefined) {
    const q = db(this.table);
    if (scope) applyScope(q, identity, scope);
    return q;
  }

  /** Is the row within the identity's read or write scope? */
  private async reaches(trx: Db, identity: Identity, id: number, kind: 'read' | 'write' | 'create') {
    const write = this.def.writeScope ?? this.ownership;
    const scope =
      kind === 'read' ? this.readScope() : kind === 'create' ? (this.def.createScope ?? write) : write;
    if (!scope || scope === 'all' || isAdmin(identity)) return true;
    return Boolean(await this.scoped(trx, identity, scope).where(`${this.table}.id`, id).first('id'));
  }

  private visible(identity: Identity): readonly string[] {
    const only = this.def.visibleColumns?.(identity);
    return only ? this.columns.filter((c) => only.includes(c)) : this.columns;
  }

  /** A field's label for messages: the contract's, else the base column's, else its name. */
  labelOf(field: string): string {
    // own keys only: a field named 'constructor' or '__proto__' is just an unknown name
    const labels = this.def.contract.labels as Record<string, string>;
    if (Object.hasOwn(labels, field)) return labels[field]!;
    return Object.hasOwn(BASE_COLUMN_LABELS, field) ? BASE_COLUMN_LABELS[field]! : field;
  }

  /** A computed reference title the migrations keep as a column of the row (a title key), if this table has it. */
  private storedTitle(field: string, catalog: Catalog | undefined): boolean {
    const c = this.def.computed?.[field];
    return typeof c === 'object' && Boolean(c.title) && Boolean(catalog?.tables.get(this.table)?.has(field));
  }

  private kindOf(field: string, catalog: Catalog): ColumnKind {
    const c = this.def.computed?.[field];
    if (c !== undefined && !this.storedTitle(field, catalog))
      return typeof c === 'string' ? 'unknown' : c.kind;
    return catalog.tables.get(this.table)?.get(field)?.kind ?? 'unknown';
  }

  private ref(field: string, identity: Identity, catalog?: Catalog): Fragment {
    // confidential columns neither: a filter on another owner's value would reveal it
    if (!this.visible(identity).includes(field) || (this.confidential.includes(field) && !isAdmin(identity)))
      throw new BusinessError(LIST_MESSAGES.unavailableField(this.labelOf(field)));
    const expr = this.def.computed?.[field];
    return expr && !this.storedTitle(field, catalog)
      ? { sql: `(${sqlOf(expr)})`, bindings: [] }
      : { sql: '??', bindings: [`${this.table}.${field}`] };
  }

  private selection(db: Db, identity: Identity, catalog?: Catalog) {
    return this.visible(identity).map((c) => {
      const expr = this.def.computed?.[c];
      return expr && !this.storedTitle(c, catalog)
        ? db.raw(`(${sqlOf(expr)}) as ??`, [c])
        : `${this.table}.${c}`;
    });
  }

  private applyCondition(q: Knex.QueryBuilder, c: WhereCondition, identity: Identity, catalog: Catalog) {
    const { sql, bindings } = this.ref(c.field, identity, catalog);
    const kind = this.kindOf(c.field, catalog);
    checkCondition(c, kind, this.labelOf(c.field));
    const value = c.value as Knex.Value;
    switch (c.op) {
      case 'in':
      case 'not_in': {
        const list = c.value as (string | number)[];
        const op = c.op === 'in' ? 'in' : 'not in';
        return q.whereRaw(`${sql} ${op} (${list.map(() => '?').join(',')})`, [...bindings, ...list]);
      }
      case 'like': {
        // no cast on text: the trigram index answers ILIKE on the column itself
        const target = kind === 'text' ? sql : `${sql}::text`;
        return q.whereRaw(`${target} ilike ?`, [...bindings, `%${escapeLike(String(value))}%`]);
      }
      case 'contains':
        return q.whereRaw(`exists (select 1 from unnest(${sql}) as element where element = ?)`, [
          ...bindings,
          value,
        ]);
      case 'is_null':
        return q.whereRaw(`${sql} is null`, bindings);
      case 'not_null':
        return q.whereRaw(`${sql} is not null`, bindings);
      case '!=':
        return q.whereRaw(`${sql} is distinct from ?`, [...bindings, value]);
      default:
        return q.whereRaw(`${sql} ${c.op} ?`, [...bindings, value]);
    }
  }

  /** The admin-only raw where box, into structured conditions over this entity's columns. */
  private parseRaw(identity: Identity, text: string): WhereCondition[] {
    if (!isAdmin(identity)) throw new BusinessError(MESSAGES.adminOnly);
    try {
      return parseRawWhere(text, this.columns);
    } catch (err) {
      if (err instanceof RawWhereError) throw new BusinessError(`ошибка в условии фильтра: ${err.message}`);
      throw err;
    }
  }

  /** Equality (or, for a list field, membership) conditions from `filters` and the reference parameters. */
  private equalities(params: Record<string, unknown>): WhereCondition[] {
    const given = Object.entries(params.filters ?? {});
    for (const f of Object.keys(this.def.contract.refs ?? {}))
      if (params[f] !== undefined) given.push([f, params[f]]);
    return given.map(([field, value]) => {
      if (value === null) return { field, op: 'is_null' };
      const fields = this.def.contract.fields.shape as Record<string, z.ZodType>;
      const shape = Object.hasOwn(fields, field) ? fields[field] : undefined;
      return { field, op: shape && isListSchema(shape) ? 'contains' : '=', value } as WhereCondition;
    });
  }

  /** Search over the contract's search fields: ILIKE on text (trigram-indexed), equality on numbers. */
  private applySearch(q: Knex.QueryBuilder, search: string, catalog: Catalog) {
    const fields = this.def.contract.searchFields as string[];
    if (!fields.length) return;
    const like = `%${escapeLike(search)}%`;
    q.where((b) => {
      b.whereRaw('false');
      for (const f of fields) {
        const kind = this.kindOf(f, catalog);
        const column = `${this.table}.${f}`;
        if (kind === 'text') b.orWhereRaw('?? ilike ?', [column, like]);
        else if (kind === 'number') {
          if (/^-?\d+(\.\d+)?$/.test(search)) b.orWhereRaw('?? = ?', [column, search]);
        } else b.orWhereRaw('??::text ilike ?', [column, like]);
      }
    });
  }

  /** The sort of `order_by`: text in the sort collation (case-insensitive, the indexes' one), ties by id. */
  private orderKey(orderBy: string, identity: Identity, catalog: Catalog): OrderKey {
    const [field, direction] = orderBy.split(' ') as [string, string | undefined];
    const dir = direction?.toLowerCase() === 'asc' ? 'asc' : 'desc';
    const { sql, bindings } = this.ref(field, identity, catalog);
    const text = this.kindOf(field, catalog) === 'text';
    const computed = this.def.computed?.[field] !== undefined && !this.storedTitle(field, catalog);
    const column = catalog.tables.get(this.table)?.get(field);
    return {
      name: `${field} ${dir}`,
      sql: text && catalog.collation ? `${sql} collate ${SORT_COLLATION}` : sql,
      bindings,
      dir,
      nullable: computed || (column?.nullable ?? true),
      text,
    };
  }

  /** The rows a list call reaches: scope, deleted, search, filters and the entity's extras; no order, no columns. */
  private filtered(
    db: Db,
    identity: Identity,
    params: ListParams & Record<string, unknown>,
    catalog: Catalog,
  ) {
    const q = this.scoped(db, identity, this.readScope()).where(`${this.table}.deleted`, params.deleted);
    const search = (params.search ?? params.search_text)?.trim();
    if (search) this.applySearch(q, search, catalog);
    const conditions = [...this.equalities(params), ...(params.where_param ?? [])];
    if (params.where_raw !== undefined) conditions.push(...this.parseRaw(identity, params.where_raw));
    for (const c of conditions) this.applyCondition(q, c, identity, catalog);
    this.def.listExtras?.apply(q, params, identity);
    return q;
  }

  /**
   * A page of the list by seek paging (ADR 0005): `cursor` continues where the previous page ended;
   * `page` (without a cursor) still skips rows for old callers. The count is exact up to a cap.
   */
  async list(
    db: Db,
    identity: Identity,
    params: ListParams & Record<string, unknown>,
  ): Promise<ListResult<Row>> {
    const catalog = await catalogOf(db);
    const filtered = this.filtered(db, identity, params, catalog);
    const order = this.orderKey(params.order_by, identity, catalog);
    const cursor = params.cursor ? decodeCursor(params.cursor, order) : undefined;
    const options = {
      table: this.table,
      order,
      selection: this.selection(db, identity, catalog),
      perPage: params.per_page,
      skip: cursor ? 0 : (params.page - 1) * params.per_page,
      cursor,
      collation: catalog.collation,
    };
    const reply = (page: Awaited<ReturnType<typeof pageOf>>, count: Count): ListResult<Row> => ({
      items: page.rows as Row[],
      ...count,
      page: params.page,
      per_page: params.per_page,
      next_cursor: page.next && encodeCursor({ o: order.name, ...page.next, n: count }),
    });
    try {
      const search = (params.search ?? params.search_text)?.trim();
      if (search && !cursor) {
        const exact = this.exactMatches(db, identity, params, catalog, search);
        const found = exact && (await this.searchFirstPage(db, exact, options));
        if (found && found.count.total > 0) return reply(found.page, found.count);
        const first = await this.searchFirstPage(db, filtered, options);
        if (first) return reply(first.page, first.count);
        // more matches than a sort of them is worth: the sort index is walked (ADR 0005)
        const [page, count] = await Promise.all([pageOf(db, filtered, options), countOf(db, filtered)]);
        return reply(page, count);
      }
      // A later page of a search reports the first page's count (its cursor carries it): when that count was
      // exact, the page is sorted from the matches again, fenced by OFFSET 0 (ADR 0005); else the index is walked.
      const base =
        search && cursor?.n.total_exact
          ? db.from(db.raw('(? offset 0) as ??', [filtered.clone().select(`${this.table}.*`), this.table]))
          : filtered;
      // later pages report the count of the first (their cursor carries it): a scroll counts once
      const [page, count] = await Promise.all([pageOf(db, base, options), cursor?.n ?? countOf(db, base)]);
      return reply(page, count);
    } catch (error) {
      if (isFilterValueError(error)) throw new BusinessError(LIST_MESSAGES.badFilter);
      throw error;
    }
  }

  /**
   * A search's first page and its count in one statement, sorted from the matches (ADR 0005, addendum); null
   * when more than SEARCH_SORT_CAP rows match.
   */
  private async searchFirstPage(
    db: Db,
    filtered: Knex.QueryBuilder,
    options: PageOptions,
  ): Promise<{ page: Awaited<ReturnType<typeof pageOf>>; count: Count } | null> {
    const { rows, next, matches } = await searchPageOf(db, filtered, { ...options, cap: SEARCH_SORT_CAP });
    if (matches === null) return null;
    const count = matches === undefined ? await countOf(db, filtered) : { total: matches, total_exact: true };
    return { page: { rows, next }, count };
  }

  /**
   * The rows whose exact value of the entity's `exactSearch` column is the search (a whole waybill: its own
   * index, not the trigram one), or null when the search does not look like such a value.
   */
  private exactMatches(
    db: Db,
    identity: Identity,
    params: ListParams & Record<string, unknown>,
    catalog: Catalog,
    search: string,
  ): Knex.QueryBuilder | null {
    const exact = this.def.exactSearch;
    if (!exact || !exact.looksLike.test(search)) return null;
    return this.filtered(
      db,
      identity,
      { ...params, search: undefined, search_text: undefined },
      catalog,
    ).whereRaw('lower(btrim(??)) = lower(?)', [`${this.table}.${exact.column}`, search]);
  }

  async get(db: Db, identity: Identity, id: number): Promise<Row> {
    const row = await this.scoped(db, identity, this.readScope())
      .select(this.selection(db, identity))
      .where(`${this.table}.id`, id)
      .first();
    if (!row) throw new BusinessError(MESSAGES.notFound);
    return this.conceal(identity, row);
  }

  /**
   * Several rows by id in one query, as `get` reads each (the read scope, the visible columns); a row
   * missing or out of reach is refused as `get` refuses it. Returned in the order of `ids`.
   */
  async getMany(db: Db, identity: Identity, ids: readonly number[]): Promise<Row[]> {
    const rows = (await this.scoped(db, identity, this.readScope())
      .select(this.selection(db, identity))
      .whereIn(`${this.table}.id`, [...new Set(ids)])) as Row[];
    const byId = new Map(rows.map((row) => [Number(row.id), row]));
    return ids.map((id) => {
      const row = byId.get(id);
      if (!row) throw new BusinessError(MESSAGES.notFound);
      return this.conceal(identity, row);
    });
  }

  /** Confidential columns (contract.confidential) the identity may not see in this row: all but the owner's and admin's. */
  private concealedIn(identity: Identity, row: Record<string, unknown>): readonly string[] {
    if (!this.confidential.length || isAdmin(identity)) return [];
    return this.ownership && ownsValues(identity, this.ownership, row) ? [] : this.confidential;
  }

  /** The row with another owner's confidential columns emptied (null), as the client's hidden columns are. */
  conceal<T extends Record<string, unknown>>(identity: Identity, row: T): T {
    const hidden = this.concealedIn(identity, row);
    if (!hidden.length) return row;
    return { ...row, ...Object.fromEntries(hidden.filter((c) => c in row).map((c) => [c, null])) };
  }

  /** What the identity may do with one row: the same scope and rules `_update` applies. */
  async rights(db: Db, identity: Identity, id: number): Promise<Rights> {
    const { write, may = {}, undeletable, rowChangeRefusal } = this.def;
    const row = undeletable || rowChangeRefusal ? await db(this.table).where({ id }).first() : null;
    const reaches =
      allows(identity, write) &&
      (await this.reaches(db, identity, id, 'write')) &&
      !(row && rowChangeRefusal?.(identity, row));
    return {
      write: reaches && allows(identity, may.change ?? write),
      delete: reaches && allows(identity, may.delete ?? may.change ?? write) && !(row && undeletable?.(row)),
    };
  }

  /** `may` of the definition: a create, a change and a delete (or restore) each have their rule. */
  private assertMay(identity: Identity, kind: 'create' | 'change' | 'delete') {
    const may = this.def.may ?? {};
    const rule = kind === 'delete' ? (may.delete ?? may.change) : may[kind];
    if (rule) assertAccess(identity, rule);
  }

  /** `id: -1` creates; another id patches the given fields; `deleted` soft-deletes or restores. */
  async update(ctx: ProcedureContext, params: z.infer<typeof UpdateParams>): Promise<Row> {
    const { id, deleted, ...fields } = params;
    return id === NEW_ID ? this.create(ctx, fields) : this.patch(ctx, id, fields, deleted);
  }

  private validate(schema: z.ZodType, fields: Record<string, unknown>): Record<string, unknown> {
    const parsed = schema.safeParse(fields);
    if (!parsed.success)
      throw new BusinessError(describeIssues(parsed.error.issues, fields, this.def.contract));
    return parsed.data as Record<string, unknown>;
  }

  /** Every reference to another service's row among `values` names a live row of the replica. */
  private async checkReplicatedRefs(trx: Db, values: Record<string, unknown>) {
    const replicated = this.def.replicatedRefs ?? [];
    const refs = Object.entries((this.def.contract.refs ?? {}) as Record<string, string>).filter(
      ([field, target]) => replicated.includes(target) && typeof values[field] === 'number',
    );
    const missing: string[] = [];
    for (const [field, target] of refs) {
      const found = await trx('replica')
        .where({ entity: target, id: values[field] as number, deleted: false })
        .first('id');
      if (!found)
        missing.push(MESSAGES.refMissing(this.def.contract.labels[field] ?? field, Number(values[field])));
    }
    if (missing.length) throw new BusinessError(missing.join('; '));
  }

  /** A create must fill every required field; a patch must not empty one it touches. */
  private checkRequired(values: Record<string, unknown>, onlyGiven = false) {
    const { required, labels } = this.def.contract;
    const empty = (v: unknown) => v === undefined || v === null || v === '';
    const missing = (required as string[]).filter((f) => (!onlyGiven || f in values) && empty(values[f]));
    if (missing.length)
      throw new BusinessError(missing.map((f) => MESSAGES.fieldRequired(labels[f] ?? f)).join('; '));
  }

  private rejectUnknown(fields: Record<string, unknown>) {
    const unknown = Object.keys(fields).filter((k) => !this.fieldNames.includes(k));
    if (unknown.length) throw new BusinessError(unknown.map((k) => this.notWritable(k)).join(', '));
  }

  /** A column the row has but `_update` never writes (a balance, a task's result) is named by its label as such. */
  private notWritable(field: string): string {
    const label = this.labelOf(field);
    return this.columns.includes(field) && label !== field
      ? MESSAGES.readOnlyField(label)
      : MESSAGES.unknownField(field);
  }

  /** Values as the driver stores them: jsonb fields as JSON text (node-pg would send a JS list as a SQL array). */
  private toDb(values: Record<string, unknown>) {
    const json = this.def.json ?? [];
    return Object.fromEntries(
      Object.entries(values).map(([k, v]) => [k, json.includes(k) && v !== null ? JSON.stringify(v) : v]),
    );
  }

  private async create(ctx: ProcedureContext, given: Record<string, unknown>): Promise<Row> {
    this.assertMay(ctx.identity, 'create');
    const fields = { ...this.def.createDefaults?.(ctx.identity), ...given };
    this.rejectUnknown(fields);
    this.checkRequired(fields);
    const values = this.validate(this.def.contract.fields, fields);
    return ctx.db.transaction(async (trx) => {
      await this.checkReplicatedRefs(trx, values);
      await this.def.rules?.({ trx, identity: ctx.identity, prev: null, next: values, given: values });
      const [row] = (await trx(this.table)
        .insert(this.toDb(values))
        .returning(this.stored as string[])) as Row[];
      if (!(await this.reaches(trx, ctx.identity, row!.id, 'create')))
        throw new BusinessError(MESSAGES.accessDenied);
      await this.writeHistory(trx, ctx.identity, row!.id, [['created', null, row]]);
      await this.publish(ctx.outbox, trx, row!, 'created', ctx.identity.user_id);
      await this.def.afterWrite?.({ trx, identity: ctx.identity, outbox: ctx.outbox, prev: null, row: row! });
      return this.get(trx, ctx.identity, row!.id);
    });
  }

  private async patch(
    ctx: ProcedureContext,
    id: number,
    fields: Record<string, unknown>,
    deleted: boolean | undefined,
  ): Promise<Row> {
    this.rejectUnknown(fields);
    const partial = this.def.contract.fields.partial();
    const parsed = this.validate(partial, fields);
    // zod applies defaults to absent optional keys: a patch keeps only the fields it was given
    const given = Object.fromEntries(Object.entries(parsed).filter(([k]) => k in fields));
    this.checkRequired(given, true);
    const { identity } = ctx;
    return ctx.db.transaction(async (trx) => {
      await this.def.beforeLock?.(trx, id);
      const row = (await trx(this.table).select(this.stored).where({ id }).forUpdate().first()) as
        Row | undefined;
      if (!row || !(await this.reaches(trx, identity, id, 'read')))
        throw new BusinessError(MESSAGES.notFound);
      if (!(await this.reaches(trx, identity, id, 'write'))) throw new BusinessError(MESSAGES.accessDenied);
      const changes: [string, unknown, unknown][] = Object.entries(given)
        .filter(([k, v]) => !same(row[k], v))
        .map(([k, v]) => [k, row[k], v]);
      const toggles = deleted !== undefined && deleted !== row.deleted;
      if (toggles) changes.push(['deleted', row.deleted, deleted]);
      if (!changes.length) return this.get(trx, identity, id);
      const refusal = this.def.rowChangeRefusal?.(identity, row);
      if (refusal) throw new BusinessError(refusal);
      if (toggles) this.assertMay(identity, 'delete');
      const kept = toggles && deleted ? this.def.undeletable?.(row) : null;
      if (kept) throw new BusinessError(kept);
      if (changes.length > (toggles ? 1 : 0)) this.assertMay(identity, 'change');
      const patch = Object.fromEntries(changes.map(([k, , v]) => [k, v]));
      await this.checkReplicatedRefs(trx, patch);
      await this.def.rules?.({
        trx,
        identity,
        prev: row,
        next: { ...row, ...patch },
        given: patch,
        asked: given,
        ...(toggles ? { deleted } : {}),
      });
      const [updated] = (await trx(this.table)
        .where({ id })
        .update({ ...this.toDb(patch), updated_at: trx.fn.now() })
        .returning(this.stored as string[])) as Row[];
      // nobody moves a row out of their own reach (a client handing a wallet to another client)
      if (!(await this.reaches(trx, identity, id, 'write'))) throw new BusinessError(MESSAGES.accessDenied);
      await this.writeHistory(trx, identity, id, changes);
      const op = !toggles ? 'updated' : deleted ? 'deleted' : 'restored';
      await this.publish(ctx.outbox, trx, updated!, op, identity.user_id, beforeOf(changes));
      await this.def.afterWrite?.({ trx, identity, outbox: ctx.outbox, prev: row, row: updated! });
      return this.get(trx, identity, id);
    });
  }

  /** Records changes of one row in the history (procedures beyond `_update` write theirs the same way). */
  async writeHistory(trx: Db, identity: Identity, itemId: number, changes: [string, unknown, unknown][]) {
    await this.writeHistoryMany(trx, identity, [[itemId, changes]]);
  }

  /**
   * The entity-changed event of a row (what `toEvent` gives of it), ready for the outbox. `prev` holds
   * the changed fields' values before the change; only those the event shows of the row travel.
   */
  private async eventOf(
    trx: Db,
    row: Row,
    op: EntityChanged['op'],
    actor: number | null,
    prev?: Record<string, unknown>,
  ) {
    const shown = (await this.def.toEvent?.(row, trx)) ?? row;
    const data: EntityChanged = { entity: this.name, id: row.id, op, row: shown };
    const before = prev && Object.entries(prev).filter(([k]) => k !== 'updated_at' && k in shown);
    if (before?.length) data.prev = Object.fromEntries(before);
    return { topic: this.def.topic!, key: row.id, type: EVENT_TYPES.entityChanged, actor, data };
  }

  /** Writes the row's entity-changed event into the outbox of the write's transaction (`prev`: see eventOf). */
  async publish(
    outbox: Outbox,
    trx: Db,
    row: Row,
    op: EntityChanged['op'],
    actor: number | null,
    prev?: Record<string, unknown>,
  ) {
    if (!this.def.topic) return;
    const event = await this.eventOf(trx, row, op, actor, prev);
    await outbox.write(trx, { ...event, data: JSON.parse(JSON.stringify(event.data)) });
  }

  /**
   * The entity-changed events of many rows in one outbox statement per chunk (serialised once per
   * chunk); `prevs` by row id: the changed fields' values before the change.
   */
  async publishMany(
    outbox: Outbox,
    trx: Db,
    rows: readonly Row[],
    op: EntityChanged['op'],
    actor: number | null,
    batch?: WriteBatch,
    prevs?: ReadonlyMap<number, Record<string, unknown>>,
  ) {
    if (!this.def.topic || !rows.length) return;
    const events = [];
    for (const row of rows) events.push(await this.eventOf(trx, row, op, actor, prevs?.get(Number(row.id))));
    if (batch) batch.events.push(...events);
    else await outbox.writeMany(trx, events);
  }

  /** History of many rows' changes, in chunks of one insert each (or added to `batch`, written by its flush). */
  async writeHistoryMany(
    trx: Db,
    identity: Identity,
    entries: readonly [number, [string, unknown, unknown][]][],
    batch?: WriteBatch,
  ) {
    const rows = this.historyRows(identity, entries);
    if (batch) return void batch.history.push(...rows);
    await insertHistory(trx, rows);
  }

  private historyRows(
    identity: Identity,
    entries: readonly [number, [string, unknown, unknown][]][],
  ): HistoryRow[] {
    return entries.flatMap(([itemId, changes]) =>
      changes.map(([field, oldValue, newValue]) => ({
        table_name: this.table,
        item_id: itemId,
        user_id: identity.user_id,
        user_full_name: identity.fullname ?? '',
        field,
        old_value: JSON.stringify(oldValue ?? null),
        new_value: JSON.stringify((field === 'created' ? createdValues(newValue) : newValue) ?? null),
      })),
    );
  }

  /**
   * Creates many rows at once, as `_update` with id -1 would each (history, events), without the
   * entity's rules: the calling procedure has checked them for the whole set.
   */
  async insertMany(
    trx: Db,
    identity: Identity,
    outbox: Outbox,
    rows: readonly Record<string, unknown>[],
    batch?: WriteBatch,
  ): Promise<Row[]> {
    const created: Row[] = [];
    const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    // one JSON parameter per chunk, spread by the table's own row type (not 30,000 bound values)
    for (let i = 0; i < rows.length; i += BULK_CHUNK) {
      const chunk = rows.slice(i, i + BULK_CHUNK);
      const { rows: inserted } = (await trx.raw(
        `insert into ?? (${columns.map(() => '??').join(', ')})
         select ${columns.map(() => 'r.??').join(', ')} from jsonb_populate_recordset(null::??, ?::jsonb) r
         returning ${this.stored.map(() => '??').join(', ')}`,
        [this.table, ...columns, ...columns, this.table, JSON.stringify(chunk), ...this.stored],
      )) as { rows: Row[] };
      created.push(...inserted);
    }
    await this.writeHistoryMany(
      trx,
      identity,
      created.map((row) => [row.id, [['created', null, row]]]),
      batch,
    );
    await this.publishMany(outbox, trx, created, 'created', identity.user_id, batch);
    return created;
  }

  /**
   * Changes many stored rows (locked by the caller), each by its own patch, in one statement per
   * chunk, with their history and events, as `_update` would; unchanged rows are left alone. Every
   * patch of one call names the same columns.
   */
  async changeMany(
    trx: Db,
    identity: Identity,
    outbox: Outbox,
    rows: readonly Row[],
    change: (row: Row) => Record<string, unknown> | null,
    batch?: WriteBatch,
  ): Promise<Row[]> {
    const patches = rows.flatMap((row) => {
      const patch = change(row);
      if (!patch) return [];
      const changes = Object.entries(patch)
        .filter(([k, v]) => !same(row[k], v))
        .map(([k, v]): [string, unknown, unknown] => [k, row[k], v]);
      return changes.length ? [{ row, patch, changes }] : [];
    });
    if (!patches.length) return [];
    const groups = new Map<string, typeof patches>();
    for (const p of patches) {
      const key = Object.keys(p.patch).sort().join(',');
      groups.set(key, [...(groups.get(key) ?? []), p]);
    }
    const updated: Row[] = [];
    for (const [key, group] of groups) {
      const columns = key.split(',');
      for (let i = 0; i < group.length; i += BULK_CHUNK) {
        const chunk = group.slice(i, i + BULK_CHUNK).map(({ row, patch }) => ({ id: row.id, patch }));
        const { rows: changed } = (await trx.raw(
          `update ?? t set ${columns.map(() => '?? = r.??').join(', ')}, updated_at = now()
           from jsonb_to_recordset(?::jsonb) as v(id bigint, patch jsonb)
           cross join lateral jsonb_populate_record(null::??, v.patch) r
           where t.id = v.id returning ${this.stored.map(() => 't.??').join(', ')}`,
          [this.table, ...columns.flatMap((c) => [c, c]), JSON.stringify(chunk), this.table, ...this.stored],
        )) as { rows: Row[] };
        updated.push(...changed);
      }
    }
    await this.writeHistoryMany(
      trx,
      identity,
      patches.map((p) => [p.row.id, p.changes]),
      batch,
    );
    const prevs = new Map(patches.map((p) => [Number(p.row.id), beforeOf(p.changes)]));
    await this.publishMany(outbox, trx, updated, 'updated', identity.user_id, batch, prevs);
    return updated;
  }

  /** Publishes every stored row as created: for rows written outside `_update` (demo data), so replicas get them. */
  async publishAll(trx: Db, outbox: Outbox): Promise<number> {
    if (!this.def.topic) return 0;
    const rows = (await trx(this.table).select(this.stored).orderBy('id')) as Row[];
    for (const row of rows) await this.publish(outbox, trx, row, 'created', null);
    return rows.length;
  }

  async history(db: Db, identity: Identity, id: number): Promise<HistoryEntry[]> {
    const current = await this.get(db, identity, id);
    const rows = await db('history').where({ table_name: this.table, item_id: id }).orderBy('id', 'desc');
    const labels = this.def.contract.labels as Record<string, string>;
    const concealed = this.concealedIn(identity, current);
    const hidden = new Set([
      ...this.columns.filter((c) => !this.visible(identity).includes(c)),
      ...concealed,
    ]);
    const extra: Record<string, string> = { created: 'создание', deleted: 'удаление' };
    return rows
      .filter((r) => !hidden.has(r.field))
      .map((r) => ({
        id: r.id,
        datetime: new Date(r.datetime).toISOString(),
        user_id: r.user_id,
        user_full_name: r.user_full_name,
        type: r.field,
        type_ru: Object.hasOwn(labels, r.field) ? labels[r.field] : (extra[r.field] ?? r.field),
        // a creation records the whole row: only what this user may see of it
        old_value: r.old_value,
        new_value: r.field === 'created' ? this.visibleOf(identity, r.new_value, concealed) : r.new_value,
      }));
  }

  private visibleOf(identity: Identity, value: unknown, concealed: readonly string[]) {
    if (!value || typeof value !== 'object') return value;
    const visible = this.visible(identity);
    return Object.fromEntries(
      Object.entries(value).filter(([k]) => visible.includes(k) && !concealed.includes(k)),
    );
  }
}

/**
 * A read-only column: the title of the row a reference column points to. The list migrations keep it
 * as a column of the row (a title key, ADR 0005) so a sort by it walks an index.
 */
export const titleOf = (table: string, column: string, target: string, title = 'title'): Computed => ({
  sql: `select t.${title} from ${target} t where t.id = ${table}.${column}`,
  kind: 'text',
  title: { column, target, title },
});

/** A read-only column: the ids of the live link rows pointing at this row. */
export const linkedIds = (
  table: string,
  link: string,
  parentColumn: string,
  targetColumn: string,
): Computed => ({
  sql: `select coalesce(array_agg(l.${targetColumn} order by l.id), '{}') from ${link} l where l.${parentColumn} = ${table}.id and not l.deleted`,
  kind: 'numbers',
});

/** The labels of a list call's refusals: its parameters, a condition's parts, the fields a filter names. */
const listLabels = (fields: Readonly<Record<string, string>>): FieldLabels => ({
  labels: { ...fields, ...LIST_PARAM_LABELS },
  itemLabels: { where_param: WHERE_CONDITION_LABELS, filters: fields },
});

/** Registers `<entity>_list`, `_get_by_id`, `_update` and `_history` for one entity. */
export function registerEntity(registry: ProcedureRegistry, def: EntityDefinition): EntityStore {
  const store = new EntityStore(def);
  registry.entities.set(store.name, store);
  const listParams = entityListParams(def.contract, def.listExtras?.params);
  registry
    .register({
      name: `${store.name}_list`,
      params: listParams,
      labels: listLabels(def.contract.labels),
      access: def.read,
      handler: async (ctx, p) => {
        const page = await store.list(ctx.db, ctx.identity, p as ListParams & Record<string, unknown>);
        return { ...page, items: page.items.map((row) => store.conceal(ctx.identity, row)) };
      },
    })
    .register({
      name: `${store.name}_get_by_id`,
      params: GetByIdParams,
      access: def.read,
      handler: async (ctx, p) => ({
        ...(await store.get(ctx.db, ctx.identity, p.id)),
        _rights: await store.rights(ctx.db, ctx.identity, p.id),
      }),
    })
    .register({
      name: `${store.name}_update`,
      params: UpdateParams,
      access: def.write,
      handler: (ctx, p) => store.update(ctx, p),
    })
    .register({
      name: `${store.name}_history`,
      params: HistoryParams,
      access: def.read,
      handler: (ctx, p) => store.history(ctx.db, ctx.identity, p.id),
    });
  return store;
}
