import { isAdmin, MESSAGES, provider } from '@caravan/contracts';
import { BusinessError, registerEntity, titleOf, type ServiceKit } from '@caravan/service-kit';
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
    // a provider stays with its client: an operator serving two clients does not hand one's supplier to the other
    rules: ({ identity, prev, given }) => {
      if (prev && 'client_id' in given && !isAdmin(identity)) throw new BusinessError(MESSAGES.accessDenied);
    },
  });
