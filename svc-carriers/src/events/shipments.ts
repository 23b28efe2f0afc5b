import type { Db } from '@caravan/service-kit';
import { followOrder } from '../domain/shipments';

/** A client order's replica changed: start, update or stop following its shipment (ADR 0020). */
export const followOrderEvent = (trx: Db, clientOrderId: number) => followOrder(trx, clientOrderId);
