import { CARRIERS_REPLICATED_ENTITIES, ENTITY_TOPICS } from '@caravan/contracts';
import { replicaHandler, type Subscription } from '@caravan/service-kit';

/** What svc-carriers consumes, kept as replicas: svc-payments' legal entities and bank accounts, svc-orders' orders. */
export const subscriptions: Subscription[] = [
  {
    name: 'reference-replica',
    topics: CARRIERS_REPLICATED_ENTITIES.map((e) => ENTITY_TOPICS[e]),
    handler: replicaHandler,
  },
];
