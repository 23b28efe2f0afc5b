import type { CurrentUser, Role, WhereCondition } from '@caravan/contracts';
import type { ComponentType, ReactNode } from 'react';
import type { TFunction } from 'i18next';
import type { EntityRow } from './entityApi';
import type { FieldDef, Values } from './fields';

export type ColumnDef = {
  key: string;
  label: string;
  render?(row: EntityRow, t: TFunction): ReactNode;
};

/** What an item page adds below its fields (links of a route, an operator's warehouses). */
export type SectionContext = { id: number; values: Values; editable: boolean };

/**
 * One directory on the generic document machinery: its list (columns, sort, filters) and its item
 * page (fields, extra sections), who may create and edit. A remote describes each of its entities
 * with one of these; `entityRoutes` turns it into the list and item routes.
 */
export type EntityView = {
  entity: string;
  /** i18n key of the page title (`pages.<entity>`) */
  title: string;
  columns: ColumnDef[];
  fields: FieldDef[];
  /** Fields offered in the filter menu (default: the filterable fields of the form, and the creation date). */
  filters?: FieldDef[];
  /** Columns offered in the sort menu (default: every column; confidential fields only to admins). */
  sort?: string[];
  /** The list has a search box (default: true; false when the contract has no searchFields). */
  searchable?: boolean;
  initial?(user: CurrentUser | null): Values;
  canCreate?(user: CurrentUser | null): boolean;
  canEdit?(user: CurrentUser | null, values: Values): boolean;
  /** Who may delete and restore (default: whoever may edit). */
  canDelete?(user: CurrentUser | null): boolean;
  /** Rows open their item page (default: true). */
  itemPage?: boolean;
  /** Rows open this dialog instead of their item page (spec §2 notification panel: list plus a detail dialog). */
  rowDialog?: ComponentType<{ row: EntityRow; onClose(): void }>;
  itemTitle?(values: Values): string;
  sections?(ctx: SectionContext): ReactNode;
  /** Named lists of the same entity the user switches between (orders: all, favourites, archive); the first is the default. */
  scopes?: ListScope[];
  /** What an item page shows above its fields (an order's stage, totals and stage buttons). */
  header?(ctx: SectionContext): ReactNode;
  /** Per-field read-only rule of the stored row (an order's fields by stage and role), besides each field's own. */
  fieldLocked?(name: string, values: Values, user: CurrentUser | null): boolean;
};

export type ListScope = {
  key: string;
  /** i18n key */
  label: string;
  where(user: CurrentUser | null): WhereCondition[];
};

export const ID_COLUMN: ColumnDef = { key: 'id', label: 'id' };
/** A column showing a value through a label map of the contracts (types, states, stages). */
export const labelledColumn = (key: string, label: string, labels: Record<string, string>): ColumnDef => ({
  key,
  label,
  render: (row, t) =>
    row[key] ? t(`enums.${key}.${String(row[key])}`, { defaultValue: labels[String(row[key])] }) : '',
});

export type MenuPlacement = {
  label?: string;
  folder?: 'client' | 'operators' | 'directories' | 'admin';
  roles: Role[];
  icon?: string;
};
