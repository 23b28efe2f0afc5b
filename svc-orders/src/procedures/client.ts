import { client, ENTITY_TOPICS } from '@caravan/contracts';
import { registerEntity, type ServiceKit } from '@caravan/service-kit';

/**
 * Clients: a client user sees the clients linked to them; admins see and write all. Operators see
 * the clients of their operators once operator.client_list is replicated here (directories work).
 */
export const registerClient = (kit: ServiceKit) =>
  registerEntity(kit.registry, {
    contract: client,
    read: 'any',
    write: 'admin',
    topic: ENTITY_TOPICS.client,
  });
