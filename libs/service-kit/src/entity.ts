import {
  describeIssues,
  EVENT_TYPES,
  isAdmin,
  GetByIdParams,
  HistoryParams,
  ListParams,
  MESSAGES,
  NEW_ID,
  parseRawWhere,
  RawWhereError,
  type EntityChanged,
  type EntityContract,
  type HistoryEntry,
  type Identity,
  type ListResult,
  type WhereCondition,
} from '@caravan/contracts';
import type { Knex } from 'knex';
import { z } from 'zod';
import { applyOwnership, ownsValues, type AccessRule, type Ownership } from './access';
import type { Db } from './db';
import { BusinessError } from './errors';
import type { ProcedureContext, ProcedureRegistry } from './registry';

/** How one entity is stored, who may read and write it, and where its changes are published. */
export type EntityDefinition = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  contract: EntityContract<any>;
  table?: string;
  read: AccessRule;
  write: AccessRule;
  /** Row-level scoping for non-admins (defaults to the contract's); without it every row is visible to whoever passes `read`. */
  ownership?: Ownership;
  /** Columns returned and filterable but never written through `_update` (e.g. a balance). */
  readonlyColumns?: readonly string[];
  /** Topic of the entity-changed events; without it changes are not published. */
  topic?: string;
};

const BASE_COLUMNS = ['id', 'deleted', 'created_at', 'updated_at'] as const;
type Row = Record<string, unknown> & { id: number; deleted: boolean };

export const UpdateParams = z.looseObject({ id: z.number().int(), deleted: z.boolean().optional() });

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The generic list / get / update / history of one entity, shared by every service. */
export class EntityStore {
  readonly name: string;
  readonly table: string;
  readonly columns: readonly string[];
  private readonly fieldNames: readonly string[];

  readonly def: EntityDefinition;

  constructor(def: EntityDefinition) {
    this.def = { ...def, ownership: def.ownership ?? def.contract.ownership };
    this.name = def.contract.name;
    this.table = def.table ?? def.contract.name;
    this.fieldNames = Object.keys(def.contract.fields.shape);
    this.columns = [...BASE_COLUMNS, ...this.fieldNames, ...(def.readonlyColumns ?? [])];
  }

  private scoped(db: Db, identity: Identity) {
    const q = db(this.table);
    if (this.def.ownership) applyOwnership(q, identity, this.def.ownership);
    return q;
  }

  private checkColumn(field: string): string {
    if (!this.columns.includes(field))
      throw new BusinessError(`поле '${field}' недоступно для фильтра и сортировки`);
    return field;
  }

  private applyCondition(q: Knex.QueryBuilder, c: WhereCondition) {
    const field = this.checkColumn(c.field);
    const value = c.value;
    const scalar = () => {
      if (value === undefined || value === null || Array.isArray(value))
        throw new BusinessError(`для условия '${c.op}' по полю '${field}' нужно одно значение`);
      return value;
    };
    switch (c.op) {
      case 'in':
        if (!Array.isArray(value))
          throw new BusinessError(`для условия 'in' по полю '${field}' нужен список`);
        return q.whereIn(field, value);
      case 'like':
        return q.whereRaw('??::text ilike ?', [field, `%${escapeLike(String(scalar()))}%`]);
      case 'is_null':
        return q.whereNull(field);
      case 'not_null':
        return q.whereNotNull(field);
      case '!=':
        return q.whereNot(field, scalar());
      default:
        return q.where(field, c.op, scalar());
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

  async list(db: Db, identity: Identity, params: ListParams): Promise<ListResult<Row>> {
    const q = this.scoped(db, identity).where(`${this.table}.deleted`, params.deleted);
    const search = (params.search ?? params.search_text)?.trim();
    const searchFields = this.def.contract.searchFields as string[];
    if (search && searchFields.length)
      q.where((b) => {
        for (const f of searchFields) b.orWhereRaw('??::text ilike ?', [f, `%${escapeLike(search)}%`]);
      });
    for (const [field, value] of Object.entries(params.filters ?? {}))
      if (value === null) q.whereNull(this.checkColumn(field));
      else q.where(this.checkColumn(field), value);
    for (const c of params.where_param ?? []) this.applyCondition(q, c);
    if (params.where_raw !== undefined)
      for (const c of this.parseRaw(identity, params.where_raw)) this.applyCondition(q, c);

    const [field, direction] = params.order_by.split(' ') as [string, string | undefined];
    const [{ total }] = (await q.clone().count({ total: '*' })) as [{ total: string | number }];
    const items: Row[] = await q
      .select(this.columns.map((c) => `${this.table}.${c}`))
      .orderBy(this.checkColumn(field), direction?.toLowerCase() === 'asc' ? 'asc' : 'desc')
      .orderBy('id', 'desc')
      .limit(params.per_page)
      .offset((params.page - 1) * params.per_page);
    return { items, total: Number(total), page: params.page, per_page: params.per_page };
  }

  async get(db: Db, identity: Identity, id: number): Promise<Row> {
    const row = await this.scoped(db, identity).select(this.columns).where({ id }).first();
    if (!row) throw new BusinessError(MESSAGES.notFound);
    return row;
  }

  /** `id: -1` creates; another id patches the given fields; `deleted` soft-deletes or restores. */
  async update(ctx: ProcedureContext, params: z.infer<typeof UpdateParams>): Promise<Row> {
    const { id, deleted, ...fields } = params;
    return id === NEW_ID ? this.create(ctx, fields) : this.patch(ctx, id, fields, deleted);
  }

  private validate(schema: z.ZodType, fields: Record<string, unknown>): Record<string, unknown> {
    const parsed = schema.safeParse(fields);
    if (!parsed.success) throw new BusinessError(describeIssues(parsed.error.issues, fields));
    return parsed.data as Record<string, unknown>;
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
    if (unknown.length) throw new BusinessError(unknown.map((k) => MESSAGES.unknownField(k)).join(', '));
  }

  private async create(ctx: ProcedureContext, fields: Record<string, unknown>): Promise<Row> {
    this.rejectUnknown(fields);
    this.checkRequired(fields);
    const values = this.validate(this.def.contract.fields, fields);
    if (this.def.ownership && !ownsValues(ctx.identity, this.def.ownership, values))
      throw new BusinessError(MESSAGES.accessDenied);
    return ctx.db.transaction(async (trx) => {
      const [row] = (await trx(this.table)
        .insert(values)
        .returning(this.columns as string[])) as Row[];
      await this.writeHistory(trx, ctx.identity, row!.id, [['created', null, row]]);
      await this.publish(ctx, trx, row!, 'created');
      return row!;
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
    return ctx.db.transaction(async (trx) => {
      const row = (await this.scoped(trx, ctx.identity)
        .select(this.columns)
        .where({ id })
        .forUpdate()
        .first()) as Row | undefined;
      if (!row) throw new BusinessError(MESSAGES.notFound);
      if (this.def.ownership && !ownsValues(ctx.identity, this.def.ownership, { ...row, ...given }))
        throw new BusinessError(MESSAGES.accessDenied);
      const changes: [string, unknown, unknown][] = Object.entries(given)
        .filter(([k, v]) => !same(row[k], v))
        .map(([k, v]) => [k, row[k], v]);
      if (deleted !== undefined && deleted !== row.deleted) changes.push(['deleted', row.deleted, deleted]);
      if (!changes.length) return row;
      const patchValues = Object.fromEntries(changes.map(([k, , v]) => [k, v]));
      const [updated] = (await trx(this.table)
        .where({ id })
        .update({ ...patchValues, updated_at: trx.fn.now() })
        .returning(this.columns as string[])) as Row[];
      await this.writeHistory(trx, ctx.identity, id, changes);
      const op =
        deleted === undefined || deleted === row.deleted ? 'updated' : deleted ? 'deleted' : 'restored';
      await this.publish(ctx, trx, updated!, op);
      return updated!;
    });
  }

  private async writeHistory(
    trx: Db,
    identity: Identity,
    itemId: number,
    changes: [string, unknown, unknown][],
  ) {
    await trx('history').insert(
      changes.map(([field, oldValue, newValue]) => ({
        table_name: this.table,
        item_id: itemId,
        user_id: identity.user_id,
        user_full_name: identity.fullname,
        field,
        old_value: JSON.stringify(oldValue ?? null),
        new_value: JSON.stringify(newValue ?? null),
      })),
    );
  }

  private async publish(ctx: ProcedureContext, trx: Db, row: Row, op: EntityChanged['op']) {
    if (!this.def.topic) return;
    const data: EntityChanged = { entity: this.name, id: row.id, op, row };
    await ctx.outbox.write(trx, {
      topic: this.def.topic,
      key: row.id,
      type: EVENT_TYPES.entityChanged,
      actor: ctx.identity.user_id,
      data: JSON.parse(JSON.stringify(data)),
    });
  }

  async history(db: Db, identity: Identity, id: number): Promise<HistoryEntry[]> {
    await this.get(db, identity, id);
    const rows = await db('history').where({ table_name: this.table, item_id: id }).orderBy('id', 'desc');
    const labels = this.def.contract.labels as Record<string, string>;
    const extra: Record<string, string> = { created: 'создание', deleted: 'удаление' };
    return rows.map((r) => ({
      id: r.id,
      datetime: new Date(r.datetime).toISOString(),
      user_id: r.user_id,
      user_full_name: r.user_full_name,
      type: r.field,
      type_ru: labels[r.field] ?? extra[r.field] ?? r.field,
      old_value: r.old_value,
      new_value: r.new_value,
    }));
  }
}

/** Registers `<entity>_list`, `_get_by_id`, `_update` and `_history` for one entity. */
export function registerEntity(registry: ProcedureRegistry, def: EntityDefinition): EntityStore {
  const store = new EntityStore(def);
  registry
    .register({
      name: `${store.name}_list`,
      params: ListParams,
      access: def.read,
      handler: (ctx, p) => store.list(ctx.db, ctx.identity, p),
    })
    .register({
      name: `${store.name}_get_by_id`,
      params: GetByIdParams,
      access: def.read,
      handler: (ctx, p) => store.get(ctx.db, ctx.identity, p.id),
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
