import {
  clientOrderPosition,
  ENTITY_TOPICS,
  isAdmin,
  isStaff,
  MESSAGES,
  ORDER_MESSAGES,
  POSITION_ESTIMATES,
  POSITION_ACTION_PARAM_LABELS,
  PositionActionParams,
  positionDataEditable,
  POSITION_STAFF_FIELDS,
  positionAction,
  type PositionFacts,
  PHOTO_REVIEW_MESSAGES,
  WHOLE_WAYBILL_SEARCH,
} from '@caravan/contracts';
import {
  BusinessError,
  registerEntity,
  titleOf,
  type EntityStore,
  type RuleContext,
  type ServiceKit,
} from '@caravan/service-kit';
import type { Knex } from 'knex';
import { repriceOrder } from '../domain/pricing';
import { followPositions, routeTypeIds, warehouseFields } from '../domain/stages';

/**
 * Positions are reached through their order: its client's users, its operator's users, admins. The
 * order's client and operator are kept on the position (migration 007), so the scope is an index walk.
 */
const viaOrder = { client: 'client_order_position.client_id', operator: 'client_order_position.operator_id' };

type Options = { photo_review?: unknown } | null | undefined;

/**
 * The client's answer to the warehouse photos is written by its own call (photoReview.ts): a save of the
 * position's options keeps it as it is, and no save may set another.
 */
function keepPhotoReview(prev: Record<string, unknown>, given: Record<string, unknown>) {
  const before = (prev.options as Options)?.photo_review ?? null;
  const asked = (given.options as Options)?.photo_review;
  if (asked === undefined) {
    if (before !== null) given.options = { ...(given.options as object), photo_review: before };
    return;
  }
  if (JSON.stringify(asked ?? null) !== JSON.stringify(before))
    throw new BusinessError(PHOTO_REVIEW_MESSAGES.byItsButtons);
}

/** Spec §5 position editability: data in draft or by staff; consolidation delivery by staff, its date only in warehouse_waiting. */
async function positionRules({ trx, identity, prev, next, given }: RuleContext) {
  if (prev && 'options' in given) keepPhotoReview(prev, given);
  if (!prev && (next.stage !== 'draft' || next.buyout_state !== 'not_done'))
    throw new BusinessError(ORDER_MESSAGES.positionStageByActions);
  if (prev && ('stage' in given || 'buyout_state' in given))
    throw new BusinessError(ORDER_MESSAGES.positionStageByActions);
  // the order of a position changes only by the move, consolidation and split, which check both orders
  if (prev && 'client_order_id' in given) throw new BusinessError(ORDER_MESSAGES.positionOrderByMove);
  if ('buyout_price_rur' in given && (prev || given.buyout_price_rur !== null))
    throw new BusinessError(ORDER_MESSAGES.computedPrice(clientOrderPosition.labels.buyout_price_rur));
  if (isAdmin(identity)) return;
  const order = await trx('client_order').where({ id: next.client_order_id }).first('stage');
  if (!order) throw new BusinessError(MESSAGES.notFound);
  if (!prev && order.stage !== 'draft') throw new BusinessError(ORDER_MESSAGES.noNewPositions);
  if (!isStaff(identity)) {
    if (prev && !positionDataEditable(order.stage, identity))
      throw new BusinessError(ORDER_MESSAGES.positionsLocked);
    if (POSITION_STAFF_FIELDS.some((f) => f in given && (prev || given[f] !== null)))
      throw new BusinessError(MESSAGES.staffOnly);
    return;
  }
  const consolidationDate = given.to_consolidation_warehouse_delivery_date;
  if (
    consolidationDate !== undefined &&
    (prev || consolidationDate !== null) &&
    prev?.stage !== 'warehouse_waiting'
  )
    throw new BusinessError(ORDER_MESSAGES.consolidationDateStage);
}

/** The order a position belongs to, locked before the position: every path locks an order, then its positions. */
async function lockOrderOf(trx: Knex.Transaction | Knex, positionId: number) {
  const row = await trx('client_order_position').where({ id: positionId }).first('client_order_id');
  if (row) await trx('client_order').where({ id: row.client_order_id }).forUpdate().first('id');
}

export function registerClientOrderPosition(kit: ServiceKit, orders: () => EntityStore) {
  const store: EntityStore = registerEntity(kit.registry, {
    contract: clientOrderPosition,
    read: 'any',
    write: 'any',
    json: [
      'product_images',
      'warehouse_images',
      'files',
      'consolidation_receive_table',
      'warehouse_cnt_data',
      'options',
    ],
    readonlyColumns: [...POSITION_ESTIMATES, 'client_id', 'operator_id'],
    // the index client_order_position_waybill_normalized (migration 060)
    exactSearch: { column: 'waybill', looksLike: WHOLE_WAYBILL_SEARCH },
    readScope: viaOrder,
    writeScope: viaOrder,
    computed: {
      client_order_title: titleOf('client_order_position', 'client_order_id', 'client_order'),
      client_title: {
        sql: `select c.title from client_order o join client c on c.id = o.client_id where o.id = client_order_position.client_order_id`,
        kind: 'text',
      },
      type_title: {
        sql: `select r.data->>'title' from replica r where r.entity = 'logistic_product_type' and r.id = client_order_position.type_id`,
        kind: 'text',
      },
      provider_title: titleOf('client_order_position', 'provider_id', 'provider'),
    },
    rules: positionRules,
    beforeLock: lockOrderOf,
    afterWrite: async ({ trx, identity, outbox, prev, row }) => {
      const ctx = { identity, outbox, orders: orders(), positions: store };
      await repriceOrder(trx, ctx, Number(row.client_order_id));
      if (prev && prev.client_order_id !== row.client_order_id)
        await repriceOrder(trx, ctx, Number(prev.client_order_id));
    },
    topic: ENTITY_TOPICS.client_order_position,
  });
  return store;
}

/**
 * client_order_position_action (spec §4): staff move one position by the machine of contracts'
 * orderStages, in one transaction holding the order's and the position's locks; the order follows
 * its positions. The reply is the message the UI shows.
 */
export function registerPositionAction(kit: ServiceKit, positions: EntityStore, orders: EntityStore) {
  kit.registry.register({
    name: 'client_order_position_action',
    params: PositionActionParams,
    labels: POSITION_ACTION_PARAM_LABELS,
    access: 'staff',
    handler: (ctx, p) =>
      ctx.db.transaction(async (trx) => {
        const { identity } = ctx;
        const seen = await positions.get(trx, identity, p.id);
        if (!(await positions.rights(trx, identity, p.id)).write)
          throw new BusinessError(MESSAGES.accessDenied);
        // the order first, then the position: the order's own moves lock in the same order
        const order = await trx('client_order').where({ id: seen.client_order_id }).forUpdate().first();
        const row = await trx('client_order_position').where({ id: p.id }).forUpdate().first();
        if (row.client_order_id !== order.id || row.deleted) throw new BusinessError(MESSAGES.notFound);
        const routeTypes = await routeTypeIds(trx, order.logistic_route_id);
        const result = positionAction(row as PositionFacts, p.action, routeTypes, {
          receive_date: p.receive_date ?? null,
          receive_record: p.receive_record ?? null,
        });
        if (!result.ok) throw new BusinessError(result.message);
        const patch: Record<string, unknown> = {
          ...result.move,
          ...(p.action === 'warehouse_waiting' || p.action === 'warehouse_received'
            ? warehouseFields(row, p.action, p)
            : {}),
        };
        await positions.changeMany(trx, identity, ctx.outbox, [row], () => patch);
        await followPositions(trx, { identity, outbox: ctx.outbox, orders }, order);
        return ORDER_MESSAGES.done;
      }),
  });
}
