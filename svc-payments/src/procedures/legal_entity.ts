import {
  bankAccount,
  ENTITY_TOPICS,
  FINANCE_MESSAGES,
  legalEntity,
  LEGAL_ENTITY_LIST_PARAMS,
  type Identity,
} from '@caravan/contracts';
import {
  applyOwnership,
  BusinessError,
  linkedIds,
  registerEntity,
  titleOf,
  type ServiceKit,
} from '@caravan/service-kit';
import type { Knex } from 'knex';

/** Bank accounts belong to whoever owns their legal entity. */
const ofOwnLegalEntities = (q: Knex.QueryBuilder, identity: Identity) =>
  q.whereIn('bank_account.legal_entity_id', (sub) => {
    sub.select('id').from('legal_entity');
    applyOwnership(sub, identity, legalEntity.ownership!);
  });

/**
 * Legal entities and their bank accounts: an operator manages those of their operator, a client those
 * of their client, an admin all (and our own, owned by nobody). Replicated to svc-orders and
 * svc-carriers, where a client or an operator names only their own (client / operator legal_entity_id).
 */
export function registerLegalEntity(kit: ServiceKit) {
  registerEntity(kit.registry, {
    contract: legalEntity,
    read: 'any',
    write: 'any',
    computed: { bank_account_id: linkedIds('legal_entity', 'bank_account', 'legal_entity_id', 'id') },
    rules: ({ next }) => {
      if (next.operator_id && next.client_id) throw new BusinessError(FINANCE_MESSAGES.ownerBoth);
    },
    // spec §7: legal_entity_list {type: operator | client} lists the entities of operators or of clients
    listExtras: {
      params: LEGAL_ENTITY_LIST_PARAMS,
      apply: (q, p) => {
        if (p.type) q.whereNotNull(`legal_entity.${p.type}_id`);
      },
    },
    topic: ENTITY_TOPICS.legal_entity,
  });

  registerEntity(kit.registry, {
    contract: bankAccount,
    read: 'any',
    write: 'any',
    readScope: ofOwnLegalEntities,
    writeScope: ofOwnLegalEntities,
    computed: { legal_entity_title: titleOf('bank_account', 'legal_entity_id', 'legal_entity') },
    topic: ENTITY_TOPICS.bank_account,
  });
}
