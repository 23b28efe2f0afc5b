import {
  ClientOrderTimelineParams,
  isStaff,
  orderTimeline,
  TIMELINE_LIMIT,
  TIMELINE_ORDER_FIELDS,
  TIMELINE_POSITION_FIELDS,
  type TimelineChatMessage,
  type TimelineHistoryRow,
} from '@caravan/contracts';
import type { Db, EntityStore, ServiceKit } from '@caravan/service-kit';
import { carrierStatuses } from '../domain/carrierStatus';

/**
 * The order's history rows the timeline tells, newest first: the order's own and its live positions'.
 * Bounded: a few times the timeline's limit is plenty (a grouped move of many positions is one line).
 */
async function timelineRows(db: Db, orderId: number): Promise<TimelineHistoryRow[]> {
  const rows = (await db
    .select(
      'h.table_name',
      'h.item_id',
      'p.title as position_title',
      'h.user_id',
      'h.user_full_name',
      'h.datetime',
      'h.field',
      'h.old_value',
      'h.new_value',
    )
    .from('history as h')
    .leftJoin('client_order_position as p', function () {
      this.on('p.id', '=', 'h.item_id').andOnVal('h.table_name', '=', 'client_order_position');
    })
    .where((q) =>
      q
        .where((o) =>
          o
            .where({ 'h.table_name': 'client_order', 'h.item_id': orderId })
            .whereIn('h.field', TIMELINE_ORDER_FIELDS),
        )
        .orWhere((o) =>
          o
            .where({
              'h.table_name': 'client_order_position',
              'p.client_order_id': orderId,
              'p.deleted': false,
            })
            .whereIn('h.field', TIMELINE_POSITION_FIELDS),
        ),
    )
    .orderBy('h.id', 'desc')
    .limit(TIMELINE_LIMIT * 10)) as (Omit<TimelineHistoryRow, 'datetime'> & { datetime: Date })[];
  return rows.map((r) => ({ ...r, datetime: new Date(r.datetime).toISOString() }));
}

/** The live messages of the order's chat, newest first, as many as the timeline can show. */
async function chatMessages(db: Db, orderId: number): Promise<TimelineChatMessage[]> {
  const rows = (await db('chat_message as m')
    .join('chat as c', 'c.id', 'm.chat_id')
    .where({ 'c.table_name': 'client_order', 'c.table_id': orderId, 'c.deleted': false, 'm.deleted': false })
    .orderBy('m.id', 'desc')
    .limit(TIMELINE_LIMIT)
    .select('m.author_id', 'm.fullname', 'm.created_at', 'm.title', 'm.files')) as (Omit<
    TimelineChatMessage,
    'created_at' | 'author_id'
  > & { created_at: Date; author_id: string | number | null })[];
  return rows.map((r) => ({
    ...r,
    author_id: r.author_id === null ? null : Number(r.author_id),
    created_at: new Date(r.created_at).toISOString(),
  }));
}

/**
 * client_order_timeline (issue 19; docs/adr/0025-order-timeline.md): the story of one order for whoever
 * may read it — the generic read decides (another client or operator gets 'не найдено'), then the words
 * come from contracts' orderTimeline.
 */
export function registerOrderTimeline(kit: ServiceKit, orders: () => EntityStore) {
  kit.registry.register({
    name: 'client_order_timeline',
    params: ClientOrderTimelineParams,
    labels: { labels: { id: 'заказ' } },
    access: 'any',
    handler: async (ctx, p) => {
      const order = await orders().get(ctx.db, ctx.identity, p.id);
      const [history, statuses, messages] = await Promise.all([
        timelineRows(ctx.db, order.id as number),
        carrierStatuses(ctx.db, order.id as number),
        chatMessages(ctx.db, order.id as number),
      ]);
      return orderTimeline(
        history,
        statuses,
        { user_id: ctx.identity.user_id, staff: isStaff(ctx.identity) },
        messages,
      );
    },
  });
}
