import { country, ENTITY_TOPICS } from '@caravan/contracts';
import { registerEntity, type ServiceKit } from '@caravan/service-kit';

/** Countries: everyone reads, admins write; changes replicate to the services that need them. */
export const registerCountry = (kit: ServiceKit) =>
  registerEntity(kit.registry, {
    contract: country,
    read: 'any',
    write: 'admin',
    topic: ENTITY_TOPICS.country,
  });
