import { client, CLIENT_SELF_FIELDS, ENTITY_TOPICS, isAdmin, MESSAGES } from '@caravan/contracts';
import { BusinessError, registerEntity, type ServiceKit } from '@caravan/service-kit';
import { reachesClient } from '../domain/reach';

/**
 * Clients: a client user sees the clients linked to them and edits their delivery data and legal
 * entities; an operator sees the clients of their operators' client lists; admins see and write all.
 */
export const registerClient = (kit: ServiceKit) =>
  registerEntity(kit.registry, {
    contract: client,
    read: 'any',
    write: 'any',
    json: ['delivery_data_list'],
    readScope: (q, identity) => reachesClient(q, identity, 'client.id'),
    rules: ({ identity, prev, given, deleted }) => {
      if (isAdmin(identity)) return;
      if (!prev || deleted !== undefined) throw new BusinessError(MESSAGES.adminOnly);
      const others = Object.keys(given).filter((f) => !(CLIENT_SELF_FIELDS as readonly string[]).includes(f));
      if (others.length) throw new BusinessError(MESSAGES.accessDenied);
    },
    topic: ENTITY_TOPICS.client,
  });
