import {
  BULK_MESSAGES,
  CONSOLIDATION_STAGES,
  clientOrder,
  dec,
  decFormat,
  isStaff,
  ORDER_MESSAGES,
  OrderConsolidateParams,
  OrderSplitParams,
  POSITION_BULK_PARAM_LABELS,
  POSITION_ESTIMATES,
  splitProblems,
  type OrderStage,
} from '@caravan/contracts';
import { BusinessError, type EntityStore, type ServiceKit } from '@caravan/service-kit';
import {
  assertExchangeable,
  assertSameOwners,
  lockOrders,
  settleOrders,
  bulkContext,
  type Row,
} from '../domain/bulk';
import { goodsOf, goodsTotals, moneyFollowsGoods } from '../domain/moneyFollowsGoods';
import { livePositions } from '../domain/stages';

/** What a child order takes of its parent: where the goods go and how, never its money or numbers. */
const INHERITED = [
  'client_id',
  'operator_id',
  'stage',
  'state',
  'consolidation_warehouse_id',
  'to_warehouse_id',
  'logistic_route_id',
  'buyout_type',
  'package_id',
  'delivery_type',
  'delivery_data',
  'transport_company_rus',
  'rate_id',
  'cdek_commission',
  'to_ru_delivery_currency_id',
] as const;

/** A position's columns its copy does not take: its identity, its order and reach (triggers), its estimates. */
const NOT_COPIED = new Set([
  'id',
  'created_at',
  'updated_at',
  'client_order_id',
  'client_id',
  'operator_id',
  ...POSITION_ESTIMATES,
]);

/**
 * Consolidation and split (spec §2, §5, §7; docs/adr/0010-positions-in-bulk.md): positions change
 * orders inside one transaction holding every order's lock; the orders are repriced before it commits.
 */
export function registerOrderBulk(kit: ServiceKit, positions: EntityStore, orders: () => EntityStore) {
  const context = (ctx: Parameters<typeof bulkContext>[0]) => bulkContext(ctx, orders(), positions);

  kit.registry
    .register({
      name: 'client_order_consolidate',
      params: OrderConsolidateParams,
      labels: POSITION_BULK_PARAM_LABELS,
      access: 'any',
      handler: (ctx, p) =>
        ctx.db.transaction(async (trx) => {
          const c = context(ctx);
          const orderIds = Object.keys(p.order_map).map(Number);
          if (orderIds.length < 2) throw new BusinessError(BULK_MESSAGES.tooFewOrders(orderIds.length));
          const locked = await lockOrders(trx, c, orderIds);
          const first = locked.get(orderIds[0]!)!;
          for (const order of locked.values()) {
            assertExchangeable(c.identity, order, 'to');
            assertSameOwners(first, order);
          }
          const live = (await trx('client_order_position')
            .whereIn('client_order_id', orderIds)
            .where({ deleted: false })
            .orderBy('id')
            .forUpdate()
            .select(positions.stored as string[])) as Row[];
          const targetOf = new Map<number, number>();
          for (const [orderId, ids] of Object.entries(p.order_map))
            for (const id of ids) {
              if (targetOf.has(id)) throw new BusinessError(BULK_MESSAGES.consolidationMap);
              targetOf.set(id, Number(orderId));
            }
          if (targetOf.size !== live.length || live.some((r) => !targetOf.has(r.id)))
            throw new BusinessError(BULK_MESSAGES.consolidationMap);
          const moving = live.filter((r) => targetOf.get(r.id) !== Number(r.client_order_id));
          if (!moving.length) throw new BusinessError(BULK_MESSAGES.selectForConsolidation);
          const totals = await goodsTotals(trx, orderIds);
          await positions.changeMany(trx, c.identity, c.outbox, moving, (row) => ({
            client_order_id: targetOf.get(row.id)!,
          }));
          await settleOrders(trx, c, orderIds);
          const moves = moving.map((r) => ({
            from: Number(r.client_order_id),
            to: targetOf.get(r.id)!,
            goods: goodsOf(r),
          }));
          await moneyFollowsGoods(trx, c, locked, moves, totals);
          return { count: moving.length, message: BULK_MESSAGES.consolidated };
        }),
    })
    .register({
      name: 'client_order_split',
      params: OrderSplitParams,
      labels: POSITION_BULK_PARAM_LABELS,
      access: 'any',
      handler: (ctx, p) =>
        ctx.db.transaction(async (trx) => {
          const c = context(ctx);
          const master = (await lockOrders(trx, c, [p.master_order_id])).get(p.master_order_id)!;
          if (master.parent_order_id) throw new BusinessError(BULK_MESSAGES.splitHasParent);
          if (!isStaff(c.identity) && master.stage !== 'draft')
            throw new BusinessError(ORDER_MESSAGES.positionsLocked);
          if (!CONSOLIDATION_STAGES.includes(master.stage as OrderStage))
            throw new BusinessError(BULK_MESSAGES.splitStage);
          const live = (await livePositions(trx, master.id)) as unknown as Row[];
          const available = live.map((r) => ({ id: r.id, amount: r.amount as string | null }));
          const problem = splitProblems(available, p.position_list);
          if (problem) throw new BusinessError(problem);
          const wanted = new Map(p.position_list.map((x) => [x.id, dec(x.amount)]));
          const whole = (r: Row) => wanted.get(r.id)! >= dec(String(r.amount ?? '1'));
          if (live.every((r) => wanted.has(r.id) && whole(r)))
            throw new BusinessError(BULK_MESSAGES.splitAll);

          const inherited = Object.fromEntries(INHERITED.map((f) => [f, master[f]]));
          const childValues = clientOrder.fields.parse({
            ...inherited,
            product_payment_state: master.product_payment_state === 'self' ? 'self' : 'not_paid',
            parent_order_id: master.id,
          });
          const [child] = await c.orders.insertMany(trx, c.identity, c.outbox, [childValues]);

          const chosen = live.filter((r) => wanted.has(r.id));
          const totals = await goodsTotals(trx, [master.id]);
          await positions.changeMany(trx, c.identity, c.outbox, chosen, (row) =>
            whole(row)
              ? { client_order_id: child!.id }
              : { amount: decFormat(dec(String(row.amount)) - wanted.get(row.id)!, 2) },
          );
          const copies = chosen
            .filter((r) => !whole(r))
            .map((r) => ({
              ...Object.fromEntries(Object.entries(r).filter(([k]) => !NOT_COPIED.has(k))),
              client_order_id: child!.id,
              amount: decFormat(wanted.get(r.id)!, 2),
            }));
          await positions.insertMany(trx, c.identity, c.outbox, copies);
          await settleOrders(trx, c, [master.id, child!.id]);
          const moves = chosen.map((r) => ({
            from: master.id,
            to: child!.id,
            goods: whole(r) ? goodsOf(r) : goodsOf(r, wanted.get(r.id)!),
          }));
          const pair = new Map([
            [master.id, master],
            [child!.id, child as Row],
          ]);
          await moneyFollowsGoods(trx, c, pair, moves, totals);
          return { id: child!.id, message: BULK_MESSAGES.splitCreated };
        }),
    });
}
