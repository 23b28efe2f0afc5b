import type { Identity } from '@caravan/contracts';
import type { Knex } from 'knex';

/**
 * The clients an operator serves: those in the client_list of the operator's operators, as replicated
 * from svc-carriers (ARCHITECTURE §5, §6).
 */
const OPERATOR_CLIENTS = `select (e->>'id')::bigint from replica r, jsonb_array_elements(r.data->'client_list') e
  where r.entity = 'operator' and not r.deleted and r.id = any(?)`;

/** Rows whose client column points at a client the identity reaches: their own, or their operators' clients. */
export function reachesClient(q: Knex.QueryBuilder, identity: Identity, column: string) {
  q.whereRaw('false');
  if (identity.roles.includes('client')) q.orWhereIn(column, identity.client_ids);
  if (identity.roles.includes('operator'))
    q.orWhereRaw(`?? in (${OPERATOR_CLIENTS})`, [column, identity.operator_ids]);
}
