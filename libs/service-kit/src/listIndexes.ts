import { createHash } from 'node:crypto';
import type { EntityContract } from '@caravan/contracts';
import type { Knex } from 'knex';
import type { z } from 'zod';
import type { Migration } from './db';

/**
 * The collation lists sort text by, created in each service's schema: ICU Russian (case-insensitive
 * in effect: 'zz' next to 'ZZ', Cyrillic before Latin), else the server's Russian locale, else "C".
 * The sort indexes and the list's ORDER BY use the same one, so the indexes serve the sort.
 */
export const SORT_COLLATION = 'caravan_sort';

/** A denormalised sort key: the title of the row `column` points to, kept by triggers (ADR 0005). */
export type TitleKey = { column: string; target: string; title?: string };

/** What of one entity is indexed for its list. */
export type ListIndexSpec = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  contract: EntityContract<any>;
  table?: string;
  /** Sortable columns (default: every scalar field of the contract, the creation time and the title keys). */
  sort?: readonly string[];
  /** Title keys by column name (default: `<x>_title` for every reference `<x>_id` the contract labels). */
  titles?: Record<string, TitleKey>;
};

type ColumnInfo = { data_type: string };

const TEXT_TYPES = new Set(['text', 'character varying', 'character']);
const UNSORTABLE_TYPES = new Set(['ARRAY', 'jsonb', 'json', 'bytea']);

/** PostgreSQL identifiers stop at 63 bytes: longer names get a hash instead of a silent, colliding cut. */
export function pgName(...parts: string[]): string {
  const name = parts.join('_');
  if (name.length <= 63) return name;
  return `${name.slice(0, 54)}_${createHash('sha1').update(name).digest('hex').slice(0, 8)}`;
}

const q = (id: string) => `"${id.replace(/"/g, '""')}"`;

/** Is this field a scalar (not a list, an object or a json table) under its defaults and nullability? */
function isScalar(schema: z.ZodType): boolean {
  type Def = { type: string; innerType?: unknown; in?: unknown; options?: unknown[] };
  let s = schema as unknown as { _zod: { def: Def } };
  for (;;) {
    const def = s._zod.def;
    if (['array', 'object', 'record', 'tuple'].includes(def.type)) return false;
    if (def.type === 'union') return (def.options as (typeof s)[]).every((o) => isScalar(o as never));
    const inner = def.innerType ?? def.in;
    if (!inner) return true;
    s = inner as typeof s;
  }
}

/** The title keys an entity gets by default: `country_title` for `country_id → country` when the contract labels it. */
export function defaultTitleKeys(spec: ListIndexSpec): Record<string, TitleKey> {
  const { refs = {}, labels, fields } = spec.contract;
  const keys: Record<string, TitleKey> = {};
  for (const [column, target] of Object.entries(refs as Record<string, string>)) {
    const shape = fields.shape[column] as z.ZodType | undefined;
    if (!column.endsWith('_id') || !shape || !isScalar(shape)) continue;
    const name = `${column.slice(0, -3)}_title`;
    if (name in labels) keys[name] = { column, target };
  }
  return { ...keys, ...spec.titles };
}

async function columnsOf(db: Knex, schema: string, table: string): Promise<Map<string, ColumnInfo>> {
  const { rows } = (await db.raw(
    'select column_name, data_type from information_schema.columns where table_schema = ? and table_name = ?',
    [schema, table],
  )) as { rows: { column_name: string; data_type: string }[] };
  return new Map(rows.map((r) => [r.column_name, { data_type: r.data_type }]));
}

async function tableExists(db: Knex, schema: string, table: string) {
  const { rows } = (await db.raw('select to_regclass(?) as t', [`${q(schema)}.${q(table)}`])) as {
    rows: { t: string | null }[];
  };
  return rows[0]?.t !== null;
}

/** The sort collation of a schema, from the best source the server has. */
export async function ensureSortCollation(db: Knex, schema: string) {
  const { rows } = (await db.raw(
    `select exists (select 1 from pg_collation where collprovider = 'i') as icu,
            (select collname from pg_collation where collname in ('ru_RU.utf8', 'ru_RU.UTF-8') limit 1) as libc`,
  )) as { rows: { icu: boolean; libc: string | null }[] };
  const { icu, libc } = rows[0]!;
  const source = icu ? `(provider = icu, locale = 'ru')` : libc ? `from ${q(libc)}` : 'from "C"';
  await db.raw(`create collation if not exists ${q(schema)}.${SORT_COLLATION} ${source}`);
}

/** pg_trgm for indexed ILIKE search, once per database (its operator classes live in public). */
export async function ensureTrigram(db: Knex) {
  // two services migrating at once would race on the extension's catalog row
  await db.raw(`select pg_advisory_xact_lock(hashtext('caravan-pg-trgm'))`);
  await db.raw('create extension if not exists pg_trgm with schema public');
}

/** The statements keeping one title key: the column, its backfill and the triggers on both tables. */
export function titleKeyStatements(schema: string, table: string, name: string, key: TitleKey): string[] {
  const title = key.title ?? 'title';
  const [s, t, target] = [q(schema), q(table), q(key.target)];
  const fill = q(pgName(table, name, 'fill'));
  const cascade = q(pgName(table, name, 'cascade'));
  return [
    `alter table ${s}.${t} add column if not exists ${q(name)} text`,
    `update ${s}.${t} x set ${q(name)} = y.${q(title)} from ${s}.${target} y where y.id = x.${q(key.column)}`,
    `create or replace function ${s}.${fill}() returns trigger language plpgsql as $$
begin
  -- most rows point nowhere (a position without a supplier): no lookup for them
  if new.${q(key.column)} is null then
    new.${q(name)} := null;
  else
    new.${q(name)} := (select y.${q(title)} from ${s}.${target} y where y.id = new.${q(key.column)});
  end if;
  return new;
end $$`,
    `drop trigger if exists ${fill} on ${s}.${t}`,
    `create trigger ${fill} before insert or update of ${q(key.column)} on ${s}.${t}
  for each row execute function ${s}.${fill}()`,
    `create or replace function ${s}.${cascade}() returns trigger language plpgsql as $$
begin
  update ${s}.${t} set ${q(name)} = new.${q(title)} where ${q(key.column)} = new.id;
  return null;
end $$`,
    `drop trigger if exists ${cascade} on ${s}.${target}`,
    `create trigger ${cascade} after update of ${q(title)} on ${s}.${target}
  for each row when (old.${q(title)} is distinct from new.${q(title)}) execute function ${s}.${cascade}()`,
  ];
}

/** One sort index: (column in the sort collation for text, id) serves both directions and the seek. */
export function sortIndexStatement(schema: string, table: string, column: string, text: boolean): string {
  const expr = text ? `${q(column)} collate ${q(schema)}.${SORT_COLLATION}` : q(column);
  return `create index if not exists ${q(pgName(table, column, 'sort'))} on ${q(schema)}.${q(table)} (${expr}, id)`;
}

/** One trigram index for ILIKE '%…%' search. */
export function searchIndexStatement(schema: string, table: string, column: string): string {
  return `create index if not exists ${q(pgName(table, column, 'trgm'))} on ${q(schema)}.${q(table)} using gin (${q(column)} public.gin_trgm_ops)`;
}

/**
 * Creates what the generic list of these entities needs to stay fast at millions of rows: the title
 * keys, an index per sortable column and a trigram index per text search field. Idempotent.
 */
export async function createListIndexes(db: Knex, schema: string, specs: readonly ListIndexSpec[]) {
  await ensureSortCollation(db, schema);
  if (specs.some((s) => s.contract.searchFields.length)) await ensureTrigram(db);
  for (const spec of specs) {
    const table = spec.table ?? spec.contract.name;
    const titles = Object.entries(defaultTitleKeys(spec));
    const present: string[] = [];
    for (const [name, key] of titles) {
      // a reference into another service's data has no table here: the list computes that title
      if (!(await tableExists(db, schema, key.target))) continue;
      for (const sql of titleKeyStatements(schema, table, name, key)) await db.raw(sql);
      present.push(name);
    }
    const columns = await columnsOf(db, schema, table);
    const fields = Object.keys(spec.contract.fields.shape);
    const sort = spec.sort ?? ['created_at', ...fields, ...present];
    for (const column of new Set(sort)) {
      const info = columns.get(column);
      if (!info || UNSORTABLE_TYPES.has(info.data_type)) continue;
      await db.raw(sortIndexStatement(schema, table, column, TEXT_TYPES.has(info.data_type)));
    }
    for (const column of spec.contract.searchFields as string[]) {
      if (TEXT_TYPES.has(columns.get(column)?.data_type ?? '')) {
        await db.raw(searchIndexStatement(schema, table, column));
      }
    }
  }
}

/** A migration creating the list indexes of these entities (call it from each service's migrations). */
export const listIndexMigration = (name: string, specs: readonly ListIndexSpec[]): Migration => ({
  name,
  up: (db, schema) => createListIndexes(db, schema, specs),
});
