import { ENTITY_TOPICS, PAYMENTS_REPLICATED_ENTITIES } from '@caravan/contracts';
import { replicaHandler, type Subscription } from '@caravan/service-kit';

/** What svc-payments consumes: the operators (their client lists), kept as replicas. */
export const subscriptions: Subscription[] = [
  {
    name: 'reference-replica',
    topics: PAYMENTS_REPLICATED_ENTITIES.map((e) => ENTITY_TOPICS[e]),
    handler: replicaHandler,
  },
];
