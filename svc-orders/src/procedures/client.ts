import {
  client,
  CLIENT_MESSAGES,
  CLIENT_SELF_FIELDS,
  ENTITY_TOPICS,
  isAdmin,
  MESSAGES,
} from '@caravan/contracts';
import { BusinessError, registerEntity, type Db, type ServiceKit } from '@caravan/service-kit';
import { reachesClient } from '../domain/reach';

/**
 * The legal entities a client names are their own: owned by this client in svc-payments, as
 * replicated here. Only the newly named ones are checked (an admin's earlier choice stays).
 */
async function assertOwnLegalEntities(trx: Db, clientId: number, before: unknown, after: unknown) {
  const had = new Set((before as number[] | null) ?? []);
  const added = [...new Set(after as number[])].filter((id) => !had.has(id));
  if (!added.length) return;
  const own = await trx('replica')
    .where({ entity: 'legal_entity', deleted: false })
    .whereIn('id', added)
    .whereRaw(`(data->>'client_id')::bigint = ?`, [clientId])
    .pluck('id');
  if (own.length !== added.length) throw new BusinessError(CLIENT_MESSAGES.foreignLegalEntity);
}

/**
 * Clients: a client user sees the clients linked to them and edits their delivery data and legal
 * entities (their own only); an operator sees the clients of their operators' client lists; admins
 * see and write all.
 */
export const registerClient = (kit: ServiceKit) =>
  registerEntity(kit.registry, {
    contract: client,
    read: 'any',
    write: 'any',
    json: ['delivery_data_list'],
    readScope: (q, identity) => reachesClient(q, identity, 'client.id'),
    may: { create: 'admin', delete: 'admin' },
    rules: async ({ trx, identity, prev, given }) => {
      if (isAdmin(identity) || !prev) return;
      const others = Object.keys(given).filter((f) => !(CLIENT_SELF_FIELDS as readonly string[]).includes(f));
      if (others.length) throw new BusinessError(MESSAGES.accessDenied);
      if ('legal_entity_id' in given)
        await assertOwnLegalEntities(trx, prev.id, prev.legal_entity_id, given.legal_entity_id);
    },
    topic: ENTITY_TOPICS.client,
  });
