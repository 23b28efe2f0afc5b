import { CARRIER_EVENTS, CarrierStatusChanged, WaybillTracked, type OrderStage } from '@caravan/contracts';
import type { Db, EntityStore, EventHandler, Outbox } from '@caravan/service-kit';
import { applyCarrierStatus, applyWaybillTracked } from '../domain/carrierStatus';
import { carrierNotices } from '../domain/notices';
import type { NotifyContext } from '../domain/notifications';

/**
 * svc-carriers' shipment events (carriers.shipment.v1), in the inbox's transaction: a carrier's status
 * of an order's shipment, and the Chinese tracker's news of a position's waybill. Other types pass.
 * A new status is told here, where it is known whether it moved the order: one notice of both
 * (docs/adr/0021).
 */
export const carrierShipmentHandler =
  (
    orders: () => EntityStore,
    positions: () => EntityStore,
    outbox: Outbox,
    notices?: () => NotifyContext,
  ): EventHandler =>
  async (trx, event) => {
    const ctx = {
      orders: orders(),
      positions: positions(),
      outbox,
      told: notices
        ? (trx: Db, status: CarrierStatusChanged, movedTo: OrderStage | null) =>
            carrierNotices(trx, notices(), status, movedTo)
        : undefined,
    };
    if (event.type === CARRIER_EVENTS.statusChanged)
      return applyCarrierStatus(trx, ctx, CarrierStatusChanged.parse(event.data));
    if (event.type === CARRIER_EVENTS.waybillTracked)
      return applyWaybillTracked(trx, ctx, WaybillTracked.parse(event.data));
  };
