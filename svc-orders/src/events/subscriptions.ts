import { ENTITY_TOPICS, ORDERS_REPLICATED_ENTITIES } from '@caravan/contracts';
import { replicaHandler, type EntityStore, type ServiceKit, type Subscription } from '@caravan/service-kit';
import { orderPaymentHandler } from './orderPayments';

/**
 * What svc-orders consumes: reference data from svc-carriers and svc-payments, kept as replicas; the
 * orders' payments recorded by svc-payments, applied to their paid amounts, payment states and paid positions.
 */
export const subscriptions =
  (orders: () => EntityStore, positions: () => EntityStore) =>
  (kit: ServiceKit): Subscription[] => [
    {
      name: 'reference-replica',
      topics: ORDERS_REPLICATED_ENTITIES.map((e) => ENTITY_TOPICS[e]),
      handler: replicaHandler,
    },
    {
      name: 'order-payments',
      topics: [ENTITY_TOPICS.order_payment],
      handler: orderPaymentHandler(orders, positions, kit.outbox),
    },
  ];
