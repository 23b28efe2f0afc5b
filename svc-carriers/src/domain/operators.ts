import { OPERATOR_MESSAGES, type OperatorClient } from '@caravan/contracts';
import { BusinessError, type Db } from '@caravan/service-kit';
import type { Knex } from 'knex';

const clientIds = (list: unknown) => new Set(((list as OperatorClient[] | null) ?? []).map((c) => c.id));

/**
 * Only an admin takes a client off an operator's list, or puts on it a client the operator has no order of
 * (docs/access.md): the list decides which clients' data an operator reads. An operator may add a client
 * whose order they already handle (the CDEK waybill draft asks for the client's identifier, spec §4), and
 * edits the entries of their clients (identifier, debts allowed, discounts).
 */
export async function assertClientListChange(trx: Db, operatorId: number, prev: unknown, next: unknown) {
  const before = clientIds(prev);
  const after = clientIds(next);
  if ([...before].some((id) => !after.has(id)))
    throw new BusinessError(OPERATOR_MESSAGES.clientListAdminOnly);
  const added = [...after].filter((id) => !before.has(id));
  if (!added.length) return;
  const withOrders = await trx('replica')
    .where({ entity: 'client_order', deleted: false })
    .whereRaw(`(data->>'operator_id')::bigint = ?`, [operatorId])
    .whereRaw(`(data->>'client_id')::bigint = any(?)`, [added])
    .distinct(trx.raw(`(data->>'client_id')::bigint as client_id`));
  if (withOrders.length !== added.length) throw new BusinessError(OPERATOR_MESSAGES.clientListAdminOnly);
}

/**
 * The legal entities and the bank account an operator names are their own: owned by this operator in
 * svc-payments, as replicated here. Only the newly named ones are checked.
 */
export async function assertOwnLegalEntities(
  trx: Db,
  operatorId: number,
  prev: Record<string, unknown>,
  given: Record<string, unknown>,
) {
  const ownEntities = (q: Knex.QueryBuilder) =>
    q
      .where({ entity: 'legal_entity', deleted: false })
      .whereRaw(`(data->>'operator_id')::bigint = ?`, [operatorId]);
  if ('legal_entity_id' in given) {
    const had = new Set((prev.legal_entity_id as number[] | null) ?? []);
    const added = (given.legal_entity_id as number[]).filter((id) => !had.has(id));
    if (added.length) {
      const own = await ownEntities(trx('replica')).whereIn('id', added).pluck('id');
      if (own.length !== new Set(added).size) throw new BusinessError(OPERATOR_MESSAGES.foreignLegalEntity);
    }
  }
  const accountId = given.bank_account_id as number | null | undefined;
  if (accountId) {
    const account = await trx('replica')
      .where({ entity: 'bank_account', id: accountId, deleted: false })
      .first(trx.raw(`(data->>'legal_entity_id')::bigint as legal_entity_id`));
    const entity =
      account && (await ownEntities(trx('replica')).where('id', account.legal_entity_id).first('id'));
    if (!entity) throw new BusinessError(OPERATOR_MESSAGES.foreignLegalEntity);
  }
}
