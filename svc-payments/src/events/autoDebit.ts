import { CURRENCY, dec, EntityChanged, EVENT_TYPES, payableNow } from '@caravan/contracts';
import { BusinessError, identityOf, type Db, type EventHandler, type ServiceKit } from '@caravan/service-kit';
import { postMovements } from '../domain/ledger';
import { readPaid, recordOrderPayment, withPaid, type OrderReplica } from '../domain/orderPayments';

/** The client's chosen ways of paying elsewhere: auto-debit leaves those orders alone. */
const PAID_ELSEWHERE = ['self', 'in_cdek', 'in_caravan'];

/** The order looked at, once: true the first time (auto_debit keeps each order and what came of it). */
async function firstLook(trx: Db, orderId: number) {
  const inserted = await trx('auto_debit')
    .insert({ client_order_id: orderId })
    .onConflict('client_order_id')
    .ignore()
    .returning('client_order_id');
  return inserted.length > 0;
}
const remember = (trx: Db, orderId: number, outcome: string) =>
  trx('auto_debit').where({ client_order_id: orderId }).update({ outcome });

/**
 * Auto-debit of the default wallet (ADR 0012): when an order is first seen waiting for payment
 * (buyout_waiting), its goods are paid from the client's default rouble wallet — in full or not at all
 * (a wallet short of the due is left alone, the client pays later), once per order (later changes of the
 * waiting order debit nothing), never when the client chose to pay otherwise (self, in CDEK, later) or
 * already began paying the goods by hand.
 */
export const autoDebitHandler =
  (kit: ServiceKit): EventHandler =>
  async (trx, event) => {
    if (event.type !== EVENT_TYPES.entityChanged) return;
    const order = EntityChanged.parse(event.data).row as unknown as OrderReplica & {
      buyout_type?: string;
      parent_order_id?: number | null;
    };
    if (order.stage !== 'buyout_waiting' || order.deleted || order.state === 'cancelled') return;
    if (!(await firstLook(trx, order.id))) return;
    // a split child's goods were waiting in its parent: what was paid for them follows them (ADR 0013)
    if (order.parent_order_id)
      return void (await remember(trx, order.id, 'split child: its goods were looked at in its parent'));
    if (order.buyout_type === 'self' || PAID_ELSEWHERE.includes(String(order.product_payment_state)))
      return void (await remember(trx, order.id, `paid otherwise: ${String(order.product_payment_state)}`));
    const wallet = (await trx('wallet')
      .where({ client_id: order.client_id, currency_id: CURRENCY.RUB, deleted: false })
      .whereRaw(`coalesce((options->>'is_default')::boolean, false)`)
      .first('id', 'amount')) as { id: number; amount: string } | undefined;
    if (!wallet) return void (await remember(trx, order.id, 'no default rouble wallet'));
    const paid = await readPaid(trx, order);
    if (dec(paid.product_paid_rur) > 0n)
      return void (await remember(trx, order.id, 'goods partly paid by hand'));
    const due = payableNow(withPaid(order, paid), 'product');
    if (dec(due) <= 0n) return void (await remember(trx, order.id, 'nothing due'));
    if (dec(String(wallet.amount)) < dec(due))
      return void (await remember(trx, order.id, `wallet short of ${due}`));
    const identity = identityOf({ user_id: event.actor ?? 1, fullname: 'автосписание', roles: ['admin'] });
    const key = `auto_debit:${order.id}:product`;
    const stores = kit.registry.entities;
    try {
      // a savepoint: a refusal (the balance or the due changed meanwhile) leaves the event handled, nothing moved
      await trx.transaction(async (sp) => {
        const [movement] = await postMovements(
          sp,
          {
            identity,
            outbox: kit.outbox,
            wallets: stores.get('wallet')!,
            operations: stores.get('fin_operation')!,
          },
          [
            {
              wallet_id: wallet.id,
              direction: 'out',
              amount: due,
              cause: 'order_product',
              type: 'wallet',
              comment: `автосписание: товар, ${order.title}`,
            },
          ],
          key,
        );
        await recordOrderPayment(
          sp,
          { identity, outbox: kit.outbox, payments: stores.get('order_payment')! },
          order,
          {
            kind: 'product',
            type: 'wallet',
            amount: due,
            fin_operation_id: movement!.id,
            key,
            comment: 'автосписание',
          },
        );
      });
      await remember(trx, order.id, `paid ${due}`);
    } catch (err) {
      if (!(err instanceof BusinessError)) throw err;
      await remember(trx, order.id, err.message);
      kit.log.info({ order: order.id, reason: err.message }, 'auto-debit skipped');
    }
  };
