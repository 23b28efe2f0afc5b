import { currency, ENTITY_TOPICS } from '@caravan/contracts';
import { registerEntity, type ServiceKit } from '@caravan/service-kit';

export const registerCurrency = (kit: ServiceKit) =>
  registerEntity(kit.registry, {
    contract: currency,
    read: 'any',
    write: 'admin',
    topic: ENTITY_TOPICS.currency,
  });
