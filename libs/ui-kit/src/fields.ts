import type { CurrentUser, WhereCondition } from '@caravan/contracts';
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
};

export const isEmpty = (v: unknown) =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** Required fields left empty, in form order. */
export const missingRequired = (fields: readonly FieldDef[], values: Values) =>
  fields.filter((f) => f.required && isEmpty(values[f.name]));

/** The messages of the fields whose validators refuse their values, table cells included. */
export function invalidFields(fields: readonly FieldDef[], values: Values): string[] {
  const messages = fields.flatMap((f) => {
    const value = getPath(values, f.name);
    const own = isEmpty(value) ? null : (f.validate?.(value, values) ?? null);
    const rows = f.kind === 'table' && Array.isArray(value) ? (value as Values[]) : [];
    return [...(own ? [own] : []), ...rows.flatMap((row) => invalidFields(f.columns ?? [], row))];
  });
  return [...new Set(messages)];
}

type ContractLike = {
  labels: Record<string, string>;
  required: readonly string[];
  refs?: Partial<Record<string, string>>;
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
  for (const { name } of fields) {
    const value = values[name];
    if (value === undefined) continue;
    if (stored && JSON.stringify(stored[name] ?? null) === JSON.stringify(value ?? null)) continue;
    out[name] = value;
  }
  return out;
}
