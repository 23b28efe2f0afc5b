import { isAdmin, isStaff, MESSAGES, type Identity } from '@caravan/contracts';
import type { Knex } from 'knex';
import { BusinessError } from './errors';

/**
 * Who may call a procedure: any working user, staff (admin or operator), admin only, or 'self': any
 * signed-in user whatever their state (only for asking who one is).
 */
export type AccessRule = 'any' | 'staff' | 'admin' | 'self';

export function assertAccess(identity: Identity, rule: AccessRule): void {
  if (rule === 'self') return;
  if (identity.state !== 'working') throw new BusinessError(MESSAGES.accessDenied);
  if (rule === 'admin' && !isAdmin(identity)) throw new BusinessError(MESSAGES.adminOnly);
  if (rule === 'staff' && !isStaff(identity)) throw new BusinessError(MESSAGES.staffOnly);
}

/** Would `assertAccess` let this identity through? */
export function allows(identity: Identity, rule: AccessRule): boolean {
  if (rule === 'self') return true;
  if (identity.state !== 'working') return false;
  if (rule === 'admin') return isAdmin(identity);
  return rule === 'staff' ? isStaff(identity) : true;
}

/**
 * Row ownership of spec ARCHITECTURE §5: admin sees everything; an operator the rows of the operators
 * linked to them; a client the rows of the clients linked to them. `columns` names the row's link
 * columns; a row reachable through either of them is visible.
 */
export type Ownership = { client?: string; operator?: string };

/** Which rows a non-admin reaches: by the row's link columns, or a condition of the entity's own. */
export type Scope = Ownership | ((qb: Knex.QueryBuilder, identity: Identity) => void);

export function applyOwnership(qb: Knex.QueryBuilder, identity: Identity, ownership: Ownership): void {
  if (isAdmin(identity)) return;
  qb.where((b) => {
    b.whereRaw('false');
    if (ownership.operator && identity.roles.includes('operator'))
      b.orWhereIn(ownership.operator, identity.operator_ids);
    if (ownership.client && identity.roles.includes('client'))
      b.orWhereIn(ownership.client, identity.client_ids);
  });
}

/** Narrows a query to the rows the identity reaches (admins reach every row). */
export function applyScope(qb: Knex.QueryBuilder, identity: Identity, scope: Scope): void {
  if (isAdmin(identity)) return;
  if (typeof scope === 'function') qb.where((b) => scope(b, identity));
  else applyOwnership(qb, identity, scope);
}

/** May this identity put a row with these link values? (a client cannot assign a row to another client) */
export function ownsValues(identity: Identity, ownership: Ownership, row: Record<string, unknown>): boolean {
  if (isAdmin(identity)) return true;
  const clientId = ownership.client ? row[ownership.client] : undefined;
  const operatorId = ownership.operator ? row[ownership.operator] : undefined;
  if (
    identity.roles.includes('operator') &&
    typeof operatorId === 'number' &&
    identity.operator_ids.includes(operatorId)
  )
    return true;
  if (
    identity.roles.includes('client') &&
    typeof clientId === 'number' &&
    identity.client_ids.includes(clientId)
  )
    return true;
  return false;
}
