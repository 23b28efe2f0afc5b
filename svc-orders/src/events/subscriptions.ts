import {
  CARRIER_EVENTS,
  ENTITY_TOPICS,
  EVENT_TYPES,
  IDENTITY_TOPIC,
  NOTIFICATION_EVENTS,
  ORDERS_REPLICATED_ENTITIES,
  SHIPMENT_TOPIC,
} from '@caravan/contracts';
import { replicaHandler, type EntityStore, type ServiceKit, type Subscription } from '@caravan/service-kit';
import { carrierShipmentHandler } from './carrierStatus';
import { NOTIFICATION_SOURCES, notificationDeliveryHandler, notificationHandler } from './notifications';
import { orderPaymentHandler } from './orderPayments';

/**
 * What svc-orders consumes: reference data from svc-carriers and svc-payments, kept as replicas; the
 * orders' payments recorded by svc-payments, applied to their paid amounts, payment states and paid positions;
 * the carriers' statuses of the orders' shipments and the tracker's news of the positions' waybills;
 * the gateway's users and their links to clients and operators (who is on each side of an order: the
 * telegram dialog's recipients, docs/adr/0022; who hears a notification), and every event a
 * notification tells of (docs/adr/0021), and the new notifications to queue for email and Telegram
 * (docs/adr/0028).
 */
export const subscriptions =
  (
    orders: () => EntityStore,
    positions: () => EntityStore,
    notifications: () => EntityStore,
    emailBatchSeconds = 60,
  ) =>
  (kit: ServiceKit): Subscription[] => [
    {
      name: 'reference-replica',
      topics: ORDERS_REPLICATED_ENTITIES.map((e) => ENTITY_TOPICS[e]),
      handler: replicaHandler,
      types: [EVENT_TYPES.entityChanged],
    },
    {
      name: 'identity-replica',
      topics: [IDENTITY_TOPIC],
      handler: replicaHandler,
      types: [EVENT_TYPES.entityChanged],
    },
    {
      name: 'order-payments',
      topics: [ENTITY_TOPICS.order_payment],
      handler: orderPaymentHandler(orders, positions, kit.outbox),
      types: [EVENT_TYPES.entityChanged],
    },
    {
      name: 'carrier-shipments',
      topics: [SHIPMENT_TOPIC],
      handler: carrierShipmentHandler(orders, positions, kit.outbox, () => ({
        store: notifications(),
        outbox: kit.outbox,
      })),
      types: [CARRIER_EVENTS.statusChanged, CARRIER_EVENTS.waybillTracked],
    },
    {
      name: 'notifications',
      topics: NOTIFICATION_SOURCES,
      handler: notificationHandler(() => ({ store: notifications(), outbox: kit.outbox })),
      types: [EVENT_TYPES.entityChanged],
      // an event's notices are their own rows (gathering rows are locked, the unique index decides a race):
      // three partitions at once carry three times the notices (bench streams, docs/adr/0021)
      partitionsAtOnce: 3,
    },
    {
      name: 'notification-delivery',
      topics: [ENTITY_TOPICS.notification],
      handler: notificationDeliveryHandler(emailBatchSeconds),
      // the notifications' topic carries every row change (1,000 a second at the bench); only new ones are queued
      types: [NOTIFICATION_EVENTS.created],
    },
  ];
