import { ENTITY_TOPICS, ORDERS_REPLICATED_ENTITIES, SHIPMENT_TOPIC } from '@caravan/contracts';
import { replicaHandler, type EntityStore, type ServiceKit, type Subscription } from '@caravan/service-kit';
import { carrierShipmentHandler } from './carrierStatus';
import { orderPaymentHandler } from './orderPayments';

/**
 * What svc-orders consumes: reference data from svc-carriers and svc-payments, kept as replicas; the
 * orders' payments recorded by svc-payments, applied to their paid amounts, payment states and paid positions;
 * the carriers' statuses of the orders' shipments and the tracker's news of the positions' waybills.
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
    {
      name: 'carrier-shipments',
      topics: [SHIPMENT_TOPIC],
      handler: carrierShipmentHandler(orders, positions, kit.outbox),
    },
  ];
