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
  /** none of the values (an order list without the user's archived orders) */
  'not_in',
  'like',
  /** the value is an element of a list column (provider's warehouses, a route's product types) */
  'contains',
  'is_null',
  'not_null',
] as const;
/** Bounds of one list call: no form sends more, and a call of millions of conditions costs the database dearly. */
export const LIST_MAX_CONDITIONS = 50;
export const LIST_MAX_IN_VALUES = 1000;

export const WhereCondition = z.strictObject({
  field: z.string().min(1),
  op: z.enum(FILTER_OPERATORS),
  value: z
    .union([
      z.string().max(1000),
      z.number(),
      z.boolean(),
      z.null(),
      z.array(z.union([z.string().max(1000), z.number()])).max(LIST_MAX_IN_VALUES),
    ])
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
  where_param: z.array(WhereCondition).max(LIST_MAX_CONDITIONS).optional(),
  /** The admin's raw where box; parsed by `parseRawWhere`, never run as SQL. */
  where_raw: z.string().max(1000).optional(),
  read: z.boolean().optional(),
  /** Where the previous page ended (its `next_cursor`): seek paging, as fast on page 10,000 as on page 1. */
  cursor: z.string().max(2000).optional(),
});
export type ListParams = z.infer<typeof ListParams>;

/** The list parameters by the words of the list page, for refusals ('неверное значение поля «строк на странице»…'). */
export const LIST_PARAM_LABELS: Readonly<Record<keyof ListParams, string>> = {
  page: 'страница',
  per_page: 'строк на странице',
  deleted: 'удалённые',
  order_by: 'сортировка',
  search: 'поиск',
  search_text: 'поиск',
  filters: 'фильтр',
  where_param: 'условие',
  where_raw: 'условие отбора',
  read: 'прочитанные',
  cursor: 'ссылка на следующую страницу',
};
/** The parts of one `where_param` condition. */
export const WHERE_CONDITION_LABELS: Readonly<Record<keyof WhereCondition, string>> = {
  field: 'поле',
  op: 'сравнение',
  value: 'значение',
};

/** Counts stop here: an exact count of a million rows costs a scan, "more than 1000" does not. */
export const LIST_COUNT_CAP = 1000;

/**
 * One page of a list. `total` is exact when `total_exact`; otherwise more than LIST_COUNT_CAP rows
 * match, `total` is LIST_COUNT_CAP + 1 and `total_estimate` (when given) is the planner's estimate.
 * `next_cursor` continues after the last row (null: this was the last page).
 */
export type ListResult<T> = {
  items: T[];
  total: number;
  total_exact: boolean;
  total_estimate?: number;
  page: number;
  per_page: number;
  next_cursor: string | null;
};

/** Labels of the columns every entity row carries, for messages about them. */
export const BASE_COLUMN_LABELS: Record<string, string> = {
  id: 'номер',
  deleted: 'удалена',
  created_at: 'создан',
  updated_at: 'изменён',
};

/** What a list refuses, naming fields by their labels. */
export const LIST_MESSAGES = {
  unavailableField: (label: string) => `поле '${label}' недоступно для фильтра и сортировки`,
  containsOnScalar: (label: string) =>
    `условие 'contains' применимо только к полям-спискам, а '${label}' — не список`,
  onList: (op: string, label: string) =>
    `условие '${op}' не применимо к полю-списку '${label}': используйте 'contains'`,
  onlyPresence: (op: string, label: string) =>
    `по полю '${label}' можно искать только текст ('like') или проверять, заполнено ли оно; условие '${op}' не подходит`,
  oneValue: (op: string, label: string) => `для условия '${op}' по полю '${label}' нужно одно значение`,
  nonEmptyList: (label: string) => `для условия 'in' по полю '${label}' нужен непустой список`,
  number: (op: string, label: string) => `для условия '${op}' по полю '${label}' нужно число`,
  date: (op: string, label: string) =>
    `для условия '${op}' по полю '${label}' нужна дата (ГГГГ-ММ-ДД, можно со временем ЧЧ:мм)`,
  boolean: (op: string, label: string) =>
    `для условия '${op}' по полю '${label}' нужно да или нет (true / false)`,
  badValue: (label: string) => `значение в условии по полю '${label}' не подходит к этому полю`,
  badFilter: 'условие фильтра не подходит к типу поля',
  badCursor: 'ссылка на следующую страницу списка устарела: откройте список заново',
} as const;

export const GetByIdParams = z.strictObject({ id: z.number().int(), read: z.boolean().optional() });
export const HistoryParams = z.strictObject({ id: z.number().int().positive() });
/** A method that takes nothing (`user_current`, `telegram_link_code_create`). */
export const NoParams = z.strictObject({});
/** A method of one stored record (`client_order_buyout_waiting {id}`). */
export const RecordIdParams = z.strictObject({ id: z.number().int().positive() });

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
