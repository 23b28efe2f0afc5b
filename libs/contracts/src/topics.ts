import { SHIPMENT_TOPIC } from './carriers';
import type { ServiceName } from './routing';

/**
 * Kafka topics, named `<service>.<entity>.v<N>` and keyed by the aggregate id. Every entity whose
 * changes other parts need publishes its entity-changed events on its own topic.
 * deploy/local creates them explicitly; `KAFKA_TOPIC_PREFIX` isolates test runs on a shared broker.
 */
const PUBLISHED_ENTITIES = {
  carriers: [
    'country',
    'city',
    'currency',
    'logistic_product_type',
    'package_description',
    'warehouse_point',
    'operator',
    'operator_warehouse_point_link',
    'logistic_route',
    'logistic_route_logistic_product_type_link',
    'logistic_route_warehouse_point_link',
    'extra_service',
  ],
  payments: [
    'wallet',
    'fin_operation',
    'exchange_rate',
    'legal_entity',
    'bank_account',
    'acquiring_payment',
    'order_payment',
  ],
  orders: ['client', 'client_order', 'client_order_position', 'notification', 'task', 'chat', 'chat_message'],
} as const satisfies Record<ServiceName, readonly string[]>;

type Published = { [S in ServiceName]: (typeof PUBLISHED_ENTITIES)[S][number] }[ServiceName];
type TopicOf<S extends ServiceName> = `${S}.${(typeof PUBLISHED_ENTITIES)[S][number]}.v1`;
export type TopicName = { [S in ServiceName]: TopicOf<S> }[ServiceName];

/** Which topic carries the entity-changed events of an entity. */
export const ENTITY_TOPICS = Object.fromEntries(
  (Object.entries(PUBLISHED_ENTITIES) as [ServiceName, readonly string[]][]).flatMap(([service, entities]) =>
    entities.map((entity) => [entity, `${service}.${entity}.v1`]),
  ),
) as Record<Published, TopicName>;

/**
 * Identity changes every gateway instance consumes to drop its cached identities (ARCHITECTURE §5):
 * entity-changed events of user and the user↔client / user↔operator links, and session revocations.
 */
export const IDENTITY_TOPIC = 'gateway.identity.v1';

export const TOPIC_PARTITIONS = 3;

/** Every topic: the entities', the identity topic and svc-carriers' shipment events (contracts carriers.ts). */
export const ALL_TOPICS: readonly string[] = [
  ...Object.values(ENTITY_TOPICS),
  IDENTITY_TOPIC,
  SHIPMENT_TOPIC,
];

/**
 * The reference data svc-orders keeps as replicas (ARCHITECTURE §6): everything svc-carriers publishes
 * (routes, operators, warehouses, extra services, product types, packages, …) and the exchange rates.
 */
export const ORDERS_REPLICATED_ENTITIES: readonly Published[] = [
  ...PUBLISHED_ENTITIES.carriers,
  'exchange_rate',
  'legal_entity',
];

/**
 * svc-payments keeps the operators (their client lists: which operator serves which client's wallet),
 * the orders it takes payments for (what is due), their positions and clients (invoices).
 */
export const PAYMENTS_REPLICATED_ENTITIES: readonly Published[] = [
  'operator',
  'client',
  'client_order',
  'client_order_position',
  'currency',
];

/**
 * svc-carriers keeps the legal entities and bank accounts (an operator names only their own) and the orders
 * (whose carrier, waybill number and stage say which shipments to follow; who may ask about them).
 */
export const CARRIERS_REPLICATED_ENTITIES: readonly Published[] = [
  'legal_entity',
  'bank_account',
  'client_order',
];

export const prefixedTopic = (prefix: string | undefined, topic: string) => `${prefix ?? ''}${topic}`;
