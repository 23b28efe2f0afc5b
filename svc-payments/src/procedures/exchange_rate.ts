import { ENTITY_TOPICS, exchangeRate } from '@caravan/contracts';
import { registerEntity, type ServiceKit } from '@caravan/service-kit';

/**
 * Exchange rates: everyone reads them (orders price with them); an operator writes their own, an
 * admin all, including the general ones (no operator). Replicated to svc-orders.
 */
export const registerExchangeRate = (kit: ServiceKit) =>
  registerEntity(kit.registry, {
    contract: exchangeRate,
    read: 'any',
    write: 'staff',
    readScope: 'all',
    topic: ENTITY_TOPICS.exchange_rate,
  });
