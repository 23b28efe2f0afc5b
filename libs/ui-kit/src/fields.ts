import {
  isIsoDate,
  isIsoDateTime,
  isPlainNumber,
  isValidPhone,
  PHONE_MESSAGE,
  wordsOf,
  type CurrentUser,
  type WhereCondition,
} from '@caravan/contracts';
import type { ReactNode } from 'react';

export type Values = Record<string, unknown>;

/** How a field is edited; each kind is one input of the spec's shared screen pieces. */
export type FieldKind =
  | 'text'
  | 'textarea'
  | 'integer'
  | 'decimal'
  | 'select'
  | 'checkbox'
  | 'date'
  | 'datetime'
  | 'phone'
  | 'ref'
  | 'refs'
  | 'images'
  | 'image'
  | 'files'
  | 'address'
  | 'table'
  | 'hours'
  | 'custom';

export type Option = { value: string; label: string };

/** A quick-create dialog behind a reference select's 'add' item (the add-city dialog is one). */
export type QuickCreate = { title: string; fields: FieldDef[]; toValues?(values: Values): Values };

export type FieldInputProps = {
  field: FieldDef;
  value: unknown;
  values: Values;
  onChange(value: unknown): void;
  /** Sets several fields at once (a company lookup fills the name, INN, KPP and address). */
  onPatch(patch: Values): void;
  disabled?: boolean;
  id?: string;
};

export type FieldDef = {
  name: string;
  label: string;
  kind?: FieldKind;
  required?: boolean;
  /** select */
  options?: readonly Option[];
  /** ref, refs: the entity pointed at, an optional narrowing, an optional add-new dialog */
  entity?: string;
  where?(values: Values): WhereCondition[];
  create?: QuickCreate;
  /** table: its columns (names may be paths: 'api_data.client_id') and a new row's values */
  columns?: FieldDef[];
  newRow?: Values;
  /** text fields with a lookup that fills other fields */
  lookup?: 'company' | 'bank';
  /** images, files: allowed extensions */
  extensions?: readonly string[];
  /** ref: also set this field to the chosen row's title (a client entry keeps the client's title). */
  titleTo?: string;
  /** A message when the value is not acceptable (shown under the input, blocks the save). */
  validate?(value: unknown, values: Values): string | null;
  readOnly?(values: Values, user: CurrentUser | null): boolean;
  hidden?(values: Values, user: CurrentUser | null): boolean;
  render?(props: FieldInputProps): ReactNode;
  /** spans the whole width of the form */
  wide?: boolean;
  /** custom: other fields this input sets too (the sale price with VAT beside the one without), saved with it */
  alsoWrites?: readonly string[];
  /** a confidential column (contract.confidential): never offered to non-admins to filter or sort by */
  confidential?: boolean;
};

export const isEmpty = (v: unknown) =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** Required fields left empty, in form order. */
export const missingRequired = (fields: readonly FieldDef[], values: Values) =>
  fields.filter((f) => f.required && isEmpty(values[f.name]));

/** What is wrong with a value for its kind of field (raw text a number or date input keeps), or null. */
export function kindError(field: FieldDef, value: unknown, language?: string): string | null {
  if (isEmpty(value)) return null;
  const w = wordsOf(language);
  switch (field.kind) {
    case 'integer':
      return isPlainNumber(value, true) ? null : w.integer;
    case 'decimal':
      return isPlainNumber(value) ? null : w.number;
    case 'date':
      return typeof value === 'string' && isIsoDate(value) ? null : w.date;
    case 'datetime':
      return typeof value === 'string' && isIsoDateTime(value) ? null : w.dateTime;
    case 'phone':
      return typeof value === 'string' && isValidPhone(value) ? null : PHONE_MESSAGE;
    default:
      return null;
  }
}

/** The problem a field shows under its input: its kind's first, then its own validator's. */
export const fieldError = (field: FieldDef, value: unknown, values: Values, language?: string) =>
  isEmpty(value) ? null : (kindError(field, value, language) ?? field.validate?.(value, values) ?? null);

export type CheckOptions = {
  /** the label the user sees (translated) */
  label?(field: FieldDef): string;
  language?: string;
};

/**
 * One message per field the user sees red, naming it by its label ('данные доставки №2: телефон'),
 * table cells and their required columns included: a save with any of them is refused.
 */
export function invalidFields(
  fields: readonly FieldDef[],
  values: Values,
  options: CheckOptions = {},
  prefix?: string,
): string[] {
  const w = wordsOf(options.language);
  const labelOf = (f: FieldDef) => {
    const own = options.label?.(f) ?? f.label;
    return prefix ? `${prefix}: ${own}` : own;
  };
  const messages = fields.flatMap((f) => {
    const value = getPath(values, f.name);
    const problem = fieldError(f, value, values, options.language);
    const own = problem ? [w.invalid(labelOf(f), problem)] : [];
    const rows = f.kind === 'table' && Array.isArray(value) ? (value as Values[]) : [];
    const inRows = rows.flatMap((row, i) => {
      const rowLabel = w.item(labelOf(f), i + 1);
      const columns = f.columns ?? [];
      const missing = columns
        .filter((c) => c.required && isEmpty(getPath(row, c.name)))
        .map((c) => w.required(`${rowLabel}: ${options.label?.(c) ?? c.label}`));
      return [...missing, ...invalidFields(columns, row, options, rowLabel)];
    });
    return [...own, ...inRows];
  });
  return [...new Set(messages)];
}

type ContractLike = {
  labels: Record<string, string>;
  required: readonly string[];
  refs?: Partial<Record<string, string>>;
  confidential?: readonly string[];
};

/**
 * Form fields of a contract's entity, in the given order: labels, required and references come
 * from the contract (one rule, one place); the spec adds the kind and anything else.
 */
export function fieldsOf(contract: ContractLike, spec: Record<string, Partial<FieldDef>>): FieldDef[] {
  return Object.entries(spec).map(([name, extra]) => {
    const entity = contract.refs?.[name];
    return {
      name,
      label: contract.labels[name] ?? name,
      required: contract.required.includes(name),
      ...(entity ? { kind: 'ref' as const, entity } : {}),
      ...(contract.confidential?.includes(name) ? { confidential: true } : {}),
      ...extra,
    };
  });
}

/** Options from a contracts label map: `enumOptions(ROUTE_TYPE_LABELS)`. */
export const enumOptions = (labels: Record<string, string>): Option[] =>
  Object.entries(labels).map(([value, label]) => ({ value, label }));

/** a.b.c of an object, for table columns such as api_data.client_id */
export const getPath = (row: Values, path: string): unknown =>
  path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Values)[k] : undefined), row);

export function setPath(row: Values, path: string, value: unknown): Values {
  const [head, ...rest] = path.split('.');
  if (!rest.length) return { ...row, [head!]: value };
  return { ...row, [head!]: setPath((row[head!] as Values) ?? {}, rest.join('.'), value) };
}

/** What a reference shows: its title, or the best name it has. */
export const titleOfRow = (row: Values | undefined) =>
  row ? String(row.title || row.name_str || row.email || row.contact_name || `#${row.id}`) : '';

/** The fields a save sends: all of a new record's; only the changed ones of a stored record. */
export function changedValues(
  values: Values,
  stored: Values | undefined,
  fields: readonly FieldDef[],
): Values {
  const out: Values = {};
  for (const name of fields.flatMap((f) => [f.name, ...(f.alsoWrites ?? [])])) {
    const value = values[name];
    if (value === undefined) continue;
    if (stored && JSON.stringify(stored[name] ?? null) === JSON.stringify(value ?? null)) continue;
    out[name] = value;
  }
  return out;
}

/** Whether the form differs from what it started from (empty values, whatever their form, are equal). */
export function hasUnsavedChanges(values: Values, base: Values, fields: readonly FieldDef[]): boolean {
  const plain = (v: unknown) => JSON.stringify(isEmpty(v) ? null : v);
  return fields.some(({ name }) => values[name] !== undefined && plain(values[name]) !== plain(base[name]));
}

const NUMERIC_KINDS = new Set<FieldKind | undefined>(['integer', 'decimal']);
const TEXT_KINDS = new Set<FieldKind | undefined>([undefined, 'text', 'textarea']);

/** An example of a hand-written condition made of the list's own fields (its first number and text). */
export function rawWhereExample(fields: readonly FieldDef[]): string {
  const number = fields.find((f) => NUMERIC_KINDS.has(f.kind));
  const text = fields.find((f) => TEXT_KINDS.has(f.kind));
  const parts = [number && `${number.name} > 10`, text && `${text.name} like 'склад'`].filter(Boolean);
  return parts.length ? parts.join(' and ') : 'id > 100';
}

/**
 * The form's values over a newer copy of the row: fields the user changed since `before` (the copy
 * the form was loaded from) keep their typed values, the rest take the newer ones.
 */
export function rebaseEdits(values: Values, before: Values, newer: Values): Values {
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const edited = Object.keys(values).filter((k) => !same(values[k], before[k]));
  return { ...newer, ...Object.fromEntries(edited.map((k) => [k, values[k]])) };
}
