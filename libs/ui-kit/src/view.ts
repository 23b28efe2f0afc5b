import type { CurrentUser, Role } from '@caravan/contracts';
import type { ReactNode } from 'react';
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
  itemTitle?(values: Values): string;
  sections?(ctx: SectionContext): ReactNode;
};

export type MenuPlacement = {
  label?: string;
  folder?: 'client' | 'operators' | 'directories' | 'admin';
  roles: Role[];
  icon?: string;
};
