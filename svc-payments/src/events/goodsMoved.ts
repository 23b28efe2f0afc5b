import { GOODS_MOVED_EVENT, GoodsMoved } from '@caravan/contracts';
import { identityOf, type EventHandler, type ServiceKit } from '@caravan/service-kit';
import { transferPaid } from '../domain/paidTransfer';

/** Goods left an order (split, move, consolidation; ADR 0013): what was paid for them follows them. */
export const goodsMovedHandler =
  (kit: ServiceKit): EventHandler =>
  async (trx, event) => {
    if (event.type !== GOODS_MOVED_EVENT) return;
    const moved = GoodsMoved.parse(event.data);
    const identity = identityOf({ user_id: event.actor ?? 1, fullname: 'перенос оплаты', roles: ['admin'] });
    await transferPaid(
      trx,
      { identity, outbox: kit.outbox, payments: kit.registry.entities.get('order_payment')! },
      moved,
    );
  };
