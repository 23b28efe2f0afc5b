import { ENTITY_TOPICS, PAYMENTS_REPLICATED_ENTITIES } from '@caravan/contracts';
import { replicaHandler, type ServiceKit, type Subscription } from '@caravan/service-kit';
import { autoDebitHandler } from './autoDebit';

/**
 * What svc-payments consumes: the operators, clients, orders and positions it needs, kept as replicas;
 * orders starting to wait for payment, for the auto-debit of the client's default wallet.
 */
export const subscriptions = (kit: ServiceKit): Subscription[] => [
  {
    name: 'reference-replica',
    topics: PAYMENTS_REPLICATED_ENTITIES.map((e) => ENTITY_TOPICS[e]),
    handler: replicaHandler,
  },
  { name: 'auto-debit', topics: [ENTITY_TOPICS.client_order], handler: autoDebitHandler(kit) },
];
