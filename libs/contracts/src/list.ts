import { z } from 'zod';

/** Operators allowed in a structured filter. Never SQL text: the field is checked against a whitelist. */
export const FILTER_OPERATORS = [
  '=',
  '!=',
  '>',
  '<',
  '>=',
  '<=',
  'in',
  'like',
  /** the value is an element of a list column (provider's warehouses, a route's product types) */
  'contains',
  'is_null',
  'not_null',
] as const;
export const WhereCondition = z.strictObject({
  field: z.string().min(1),
  op: z.enum(FILTER_OPERATORS),
  value: z
    .union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.union([z.string(), z.number()]))])
    .optional(),
});
export type WhereCondition = z.infer<typeof WhereCondition>;

export const LIST_DEFAULT_ORDER = 'created_at desc';
export const LIST_PAGE_SIZE = 10;
export const REFERENCE_PAGE_SIZE = 20;

/** Common list parameters (spec §7): page, per_page, deleted, order_by, search, filters, where_param. */
export const ListParams = z.strictObject({
  page: z.number().int().min(1).default(1),
  per_page: z.number().int().min(1).max(500).default(LIST_PAGE_SIZE),
  deleted: z.boolean().default(false),
  order_by: z
    .string()
    .regex(/^[a-z_]+( (asc|desc))?$/i, 'ожидается "поле asc|desc"')
    .default(LIST_DEFAULT_ORDER),
  search: z.string().max(200).optional(),
  search_text: z.string().max(200).optional(),
  filters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  where_param: z.array(WhereCondition).optional(),
  /** The admin's raw where box; parsed by `parseRawWhere`, never run as SQL. */
  where_raw: z.string().max(1000).optional(),
  read: z.boolean().optional(),
});
export type ListParams = z.infer<typeof ListParams>;

export type ListResult<T> = { items: T[]; total: number; page: number; per_page: number };

export const GetByIdParams = z.strictObject({ id: z.number().int(), read: z.boolean().optional() });
export const HistoryParams = z.strictObject({ id: z.number().int().positive() });

/** A history row: who changed which field of which record, when, from what to what. */
export type HistoryEntry = {
  id: number;
  datetime: string;
  user_id: number | null;
  user_full_name: string;
  type: string;
  type_ru: string;
  old_value: unknown;
  new_value: unknown;
};

/** The id a new document carries until its first save (spec §2). */
export const NEW_ID = -1;
