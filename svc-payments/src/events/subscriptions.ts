import {
  ENTITY_TOPICS,
  EVENT_TYPES,
  GOODS_MOVED_EVENT,
  PAYMENTS_REPLICATED_ENTITIES,
} from '@caravan/contracts';
import { replicaHandler, type ServiceKit, type Subscription } from '@caravan/service-kit';
import { autoDebitHandler } from './autoDebit';
import { goodsMovedHandler } from './goodsMoved';

/**
 * What svc-payments consumes: the operators, clients, orders and positions it needs, kept as replicas;
 * orders starting to wait for payment, for the auto-debit of the client's default wallet; goods leaving
 * an order, whose paid amount follows them (ADR 0013).
 */
export const subscriptions = (kit: ServiceKit): Subscription[] => [
  {
    name: 'reference-replica',
    topics: PAYMENTS_REPLICATED_ENTITIES.map((e) => ENTITY_TOPICS[e]),
    handler: replicaHandler,
    types: [EVENT_TYPES.entityChanged],
  },
  {
    name: 'auto-debit',
    topics: [ENTITY_TOPICS.client_order],
    handler: autoDebitHandler(kit),
    types: [EVENT_TYPES.entityChanged],
  },
  // the orders' topic carries every order change: this one hears only goods leaving an order
  {
    name: 'paid-transfer',
    topics: [ENTITY_TOPICS.client_order],
    handler: goodsMovedHandler(kit),
    types: [GOODS_MOVED_EVENT],
  },
];
