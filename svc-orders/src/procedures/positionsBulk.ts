import {
  BULK_MESSAGES,
  BULK_STAGE_ACTIONS,
  BULK_STEP_MESSAGES,
  positionAction,
  positionActionsFor,
  PositionBulkStepParams,
  type PositionFacts,
  bulkEditFields,
  bulkStageProblems,
  clientOrderPosition,
  joinOrderNumber,
  MESSAGES,
  ORDER_MESSAGES,
  ORDER_NUMBER_STATES,
  POSITION_BULK_PARAM_LABELS,
  POSITION_STAGE_LABELS,
  PositionBulkActionParams,
  PositionBulkUpdateParams,
  PositionImportParams,
  PositionMoveParams,
  type OrderState,
  type PositionStage,
} from '@caravan/contracts';
import { BusinessError, type Db, type EntityStore, type ServiceKit } from '@caravan/service-kit';
import {
  assertExchangeable,
  assertPositionsEditable,
  assertSameOwners,
  lockOrders,
  lockSelectedPositions,
  settleOrders,
  bulkContext,
} from '../domain/bulk';
import { goodsOf, goodsTotals, moneyFollowsGoods } from '../domain/moneyFollowsGoods';
import { patchOrder, routeTypeIds, warehouseFields } from '../domain/stages';

const labels = clientOrderPosition.labels as Record<string, string>;

/** Product types given must exist (replicated from svc-carriers). */
async function assertTypesExist(trx: Db, typeIds: readonly (number | null | undefined)[]) {
  const ids = [...new Set(typeIds.filter((id): id is number => typeof id === 'number'))];
  if (!ids.length) return;
  const found = await trx('replica')
    .where({ entity: 'logistic_product_type', deleted: false })
    .whereIn('id', ids);
  if (found.length !== ids.length)
    throw new BusinessError(MESSAGES.invalidField(labels.type_id!, MESSAGES.notFound));
}

/** A provider given must be one of the order's client (a supplier never crosses clients). */
async function assertProviderOfClient(trx: Db, providerId: number | undefined, clientIds: Set<number>) {
  if (providerId === undefined) return;
  const provider = await trx('provider').where({ id: providerId, deleted: false }).first('client_id');
  if (!provider || clientIds.size !== 1 || !clientIds.has(Number(provider.client_id)))
    throw new BusinessError(MESSAGES.invalidField(labels.provider_id!, MESSAGES.notFound));
}

/**
 * Bulk tools of the position table (spec §2, §4, §5): each call is one transaction holding the locks of
 * every order it touches (in id order) and of the selected positions; a refusal changes nothing.
 */
export function registerPositionBulk(kit: ServiceKit, positions: EntityStore, orders: () => EntityStore) {
  const context = (ctx: Parameters<typeof bulkContext>[0]) => bulkContext(ctx, orders(), positions);

  kit.registry
    .register({
      name: 'client_order_position_import',
      params: PositionImportParams,
      labels: POSITION_BULK_PARAM_LABELS,
      access: 'any',
      handler: (ctx, p) =>
        ctx.db.transaction(async (trx) => {
          const c = context(ctx);
          const order = (await lockOrders(trx, c, [p.client_order_id])).get(p.client_order_id)!;
          if (order.stage !== 'draft')
            throw new BusinessError(
              p.source === 'excel' ? BULK_MESSAGES.importDraftOnly : ORDER_MESSAGES.noNewPositions,
            );
          await assertTypesExist(
            trx,
            p.positions.map((r) => r.type_id),
          );
          // the rows were validated as NewPosition (the contract's own field rules); the rest takes the contract's defaults
          const defaults = clientOrderPosition.fields.parse({
            client_order_id: p.client_order_id,
            title: '-',
          });
          const rows = p.positions.map((r) => ({ ...defaults, ...r, client_order_id: p.client_order_id }));
          await positions.insertMany(trx, c.identity, c.outbox, rows);
          const number = p.order_number
            ? joinOrderNumber(String(order.order_number ?? ''), p.order_number)
            : null;
          if (number !== null && number !== order.order_number) {
            if (!ORDER_NUMBER_STATES.includes(order.state as OrderState))
              throw new BusinessError(ORDER_MESSAGES.orderNumberState);
            await patchOrder(trx, c, order, { order_number: number });
          }
          await settleOrders(trx, c, [order.id]);
          return {
            count: rows.length,
            message: p.source === 'excel' ? BULK_MESSAGES.imported : BULK_MESSAGES.pasted(rows.length),
          };
        }),
    })
    .register({
      name: 'client_order_position_bulk_update',
      params: PositionBulkUpdateParams,
      labels: POSITION_BULK_PARAM_LABELS,
      access: 'any',
      handler: (ctx, p) =>
        ctx.db.transaction(async (trx) => {
          const fields = bulkEditFields(p.fields);
          if (!Object.keys(fields).length) throw new BusinessError(BULK_MESSAGES.bulkNothingToChange);
          const c = context(ctx);
          const { orders: locked, rows } = await lockSelectedPositions(trx, c, p.ids);
          for (const order of locked.values()) assertPositionsEditable(c.identity, order);
          await assertTypesExist(trx, [fields.type_id as number | undefined]);
          await assertProviderOfClient(
            trx,
            fields.provider_id as number | undefined,
            new Set([...locked.values()].map((o) => Number(o.client_id))),
          );
          await positions.changeMany(trx, c.identity, c.outbox, rows, () => fields);
          await settleOrders(trx, c, locked.keys());
          return { count: rows.length, message: BULK_MESSAGES.bulkEdited(rows.length) };
        }),
    })
    .register({
      name: 'client_order_position_bulk_action',
      params: PositionBulkActionParams,
      labels: POSITION_BULK_PARAM_LABELS,
      access: 'staff',
      handler: (ctx, p) =>
        ctx.db.transaction(async (trx) => {
          const c = context(ctx);
          const { rows } = await lockSelectedPositions(trx, c, p.ids);
          const source = BULK_STAGE_ACTIONS[p.action];
          const { affected, problem } = bulkStageProblems(rows as never, p.action, p);
          if (!affected.length)
            throw new BusinessError(
              BULK_MESSAGES.noneInSourceStage(POSITION_STAGE_LABELS[source as PositionStage]),
            );
          if (problem) throw new BusinessError(problem);
          const moving = affected.map((i) => rows[i]!);
          await positions.changeMany(trx, c.identity, c.outbox, moving, (row) => ({
            stage: p.action,
            ...warehouseFields(row, p.action, p),
          }));
          await settleOrders(
            trx,
            c,
            moving.map((r) => Number(r.client_order_id)),
          );
          return { count: moving.length, message: BULK_MESSAGES.stageChanged(moving.length) };
        }),
    })
    .register({
      name: 'client_order_position_bulk_step',
      params: PositionBulkStepParams,
      labels: POSITION_BULK_PARAM_LABELS,
      access: 'staff',
      handler: (ctx, p) =>
        ctx.db.transaction(async (trx) => {
          const c = context(ctx);
          const { orders: locked, rows } = await lockSelectedPositions(trx, c, p.ids);
          const taking = rows.filter((r) => positionActionsFor(r as never).includes(p.action));
          if (!taking.length) throw new BusinessError(BULK_STEP_MESSAGES.noneCanTake(p.action));
          const routeTypes = new Map<number, number[]>();
          for (const [id, order] of locked)
            routeTypes.set(id, await routeTypeIds(trx, (order.logistic_route_id as number | null) ?? null));
          // every position by the one-at-a-time rule; one refusal refuses them all (nothing half done)
          const moves = new Map<number, Record<string, unknown>>();
          for (const row of taking) {
            const result = positionAction(
              row as unknown as PositionFacts,
              p.action,
              routeTypes.get(Number(row.client_order_id))!,
            );
            if (!result.ok)
              throw new BusinessError(BULK_STEP_MESSAGES.refusedAt(String(row.title), result.message));
            moves.set(Number(row.id), result.move);
          }
          await positions.changeMany(trx, c.identity, c.outbox, taking, (row) => moves.get(Number(row.id))!);
          await settleOrders(
            trx,
            c,
            taking.map((r) => Number(r.client_order_id)),
          );
          return { count: taking.length, message: BULK_MESSAGES.stageChanged(taking.length) };
        }),
    })
    .register({
      name: 'client_order_position_move',
      params: PositionMoveParams,
      labels: POSITION_BULK_PARAM_LABELS,
      access: 'any',
      handler: (ctx, p) =>
        ctx.db
          .transaction(async (trx) => {
            const c = context(ctx);
            const owners = (await trx('client_order_position')
              .whereIn('id', p.ids)
              .pluck('client_order_id')) as number[];
            // the target joins the lock set up front: every order in id order, then the positions
            const all = await lockOrders(trx, c, [...owners.map(Number), p.client_order_id]);
            const target = all.get(p.client_order_id)!;
            const { orders: locked, rows } = await lockSelectedPositions(trx, c, p.ids);
            if (rows.every((r) => Number(r.client_order_id) === target.id))
              throw new BusinessError(BULK_MESSAGES.moveSameOrder);
            assertExchangeable(c.identity, target, 'to');
            for (const from of locked.values()) {
              assertExchangeable(c.identity, from, 'from');
              assertSameOwners(from, target);
            }
            const totals = await goodsTotals(trx, locked.keys());
            await positions.changeMany(trx, c.identity, c.outbox, rows, (row) =>
              Number(row.client_order_id) === target.id ? null : { client_order_id: target.id },
            );
            await settleOrders(trx, c, [...locked.keys(), target.id]);
            const moves = rows.map((r) => ({
              from: Number(r.client_order_id),
              to: target.id,
              goods: goodsOf(r),
            }));
            await moneyFollowsGoods(trx, c, all, moves, totals);
            return { count: rows.length, message: BULK_MESSAGES.moved(rows.length) };
          })
          .catch((err: unknown) => {
            // spec §8: a refused move names itself, then its reason
            if (err instanceof BusinessError)
              throw new BusinessError(`${BULK_MESSAGES.moveFailed}: ${err.message}`);
            throw err;
          }),
    });
}
