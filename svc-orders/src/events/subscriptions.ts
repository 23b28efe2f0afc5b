import { TOPICS } from '@caravan/contracts';
import { replicaHandler, type Subscription } from '@caravan/service-kit';

/** What svc-orders consumes: reference data from svc-carriers, kept as replicas. */
export const subscriptions: Subscription[] = [
  {
    name: 'reference-replica',
    topics: [TOPICS.carriersCountry, TOPICS.carriersCurrency],
    handler: replicaHandler,
  },
];
