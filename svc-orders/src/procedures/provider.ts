import { provider } from '@caravan/contracts';
import { registerEntity, titleOf, type ServiceKit } from '@caravan/service-kit';
import { reachesClient } from '../domain/reach';

/** Providers belong to a client: the client and the operators serving that client manage them. */
export const registerProvider = (kit: ServiceKit) =>
  registerEntity(kit.registry, {
    contract: provider,
    read: 'any',
    write: 'any',
    computed: { client_title: titleOf('provider', 'client_id', 'client') },
    readScope: (q, identity) => reachesClient(q, identity, 'provider.client_id'),
    writeScope: (q, identity) => reachesClient(q, identity, 'provider.client_id'),
  });
