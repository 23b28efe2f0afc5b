import { CARRIERS_REPLICATED_ENTITIES, EntityChanged, ENTITY_TOPICS, EVENT_TYPES } from '@caravan/contracts';
import { replicaHandler, type EventHandler, type Subscription } from '@caravan/service-kit';
import { followOrderEvent } from './shipments';

/**
 * The replica first, then what follows from it, in the one transaction of the event: an order's shipment
 * is derived from the replica row as it stands after the event (a stale event changes neither).
 */
const replicaThenShipments: EventHandler = async (trx, event) => {
  await replicaHandler(trx, event);
  if (event.type !== EVENT_TYPES.entityChanged) return;
  const change = EntityChanged.parse(event.data);
  if (change.entity === 'client_order') await followOrderEvent(trx, change.id);
};

/** What svc-carriers consumes, kept as replicas: svc-payments' legal entities and bank accounts, svc-orders' orders. */
export const subscriptions: Subscription[] = [
  {
    name: 'reference-replica',
    topics: CARRIERS_REPLICATED_ENTITIES.map((e) => ENTITY_TOPICS[e]),
    handler: replicaThenShipments,
    types: [EVENT_TYPES.entityChanged],
  },
];
