import { ENTITY_TOPICS, ORDERS_REPLICATED_ENTITIES } from '@caravan/contracts';
import { replicaHandler, type Subscription } from '@caravan/service-kit';

/** What svc-orders consumes: reference data from svc-carriers, kept as replicas. */
export const subscriptions: Subscription[] = [
  {
    name: 'reference-replica',
    topics: ORDERS_REPLICATED_ENTITIES.map((e) => ENTITY_TOPICS[e]),
    handler: replicaHandler,
  },
];
