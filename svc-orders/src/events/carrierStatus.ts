import { CARRIER_EVENTS, CarrierStatusChanged, WaybillTracked } from '@caravan/contracts';
import type { EntityStore, EventHandler, Outbox } from '@caravan/service-kit';
import { applyCarrierStatus, applyWaybillTracked } from '../domain/carrierStatus';

/**
 * svc-carriers' shipment events (carriers.shipment.v1), in the inbox's transaction: a carrier's status
 * of an order's shipment, and the Chinese tracker's news of a position's waybill. Other types pass.
 */
export const carrierShipmentHandler =
  (orders: () => EntityStore, positions: () => EntityStore, outbox: Outbox): EventHandler =>
  async (trx, event) => {
    const ctx = { orders: orders(), positions: positions(), outbox };
    if (event.type === CARRIER_EVENTS.statusChanged)
      return applyCarrierStatus(trx, ctx, CarrierStatusChanged.parse(event.data));
    if (event.type === CARRIER_EVENTS.waybillTracked)
      return applyWaybillTracked(trx, ctx, WaybillTracked.parse(event.data));
  };
