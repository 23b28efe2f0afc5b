import {
  EntityChanged,
  ENTITY_TOPICS,
  EVENT_TYPES,
  NOTIFICATION_EVENTS,
  NotificationCreated,
} from '@caravan/contracts';
import type { EventHandler } from '@caravan/service-kit';
import {
  orderNotices,
  paymentFailedNotices,
  paymentNotices,
  positionNotices,
  topUpNotices,
} from '../domain/notices';
import { enqueueDeliveries } from '../domain/notificationDelivery';
import type { NotifyContext } from '../domain/notifications';
import { chatMessageNotices, photoNotices, taskNotices } from '../domain/workNotices';

/**
 * What the notifications hear: the orders' own changes, their tasks and chat messages, the payments', the
 * wallets' top-ups. (A carrier's status is told where it is applied: events/carrierStatus.ts.)
 */
export const NOTIFICATION_SOURCES: readonly string[] = [
  ENTITY_TOPICS.client_order,
  ENTITY_TOPICS.client_order_position,
  ENTITY_TOPICS.task,
  ENTITY_TOPICS.chat_message,
  ENTITY_TOPICS.order_payment,
  ENTITY_TOPICS.acquiring_payment,
  ENTITY_TOPICS.fin_operation,
];

/**
 * Makes the notifications of a domain event, in the inbox's transaction of the 'notifications'
 * subscription: an event handled twice (a redelivery, a replay) is marked already and makes none.
 */
export const notificationHandler =
  (ctx: () => NotifyContext): EventHandler =>
  async (trx, event) => {
    if (event.type !== EVENT_TYPES.entityChanged) return;
    const change = EntityChanged.parse(event.data);
    if (change.entity === 'client_order') return orderNotices(trx, ctx(), event, change);
    if (change.entity === 'client_order_position') {
      await positionNotices(trx, ctx(), event, change);
      return photoNotices(trx, ctx(), event, change);
    }
    if (change.entity === 'task') return taskNotices(trx, ctx(), event, change);
    if (change.entity === 'chat_message') return chatMessageNotices(trx, ctx(), event, change);
    if (change.entity === 'order_payment') return paymentNotices(trx, ctx(), change);
    if (change.entity === 'acquiring_payment') return paymentFailedNotices(trx, ctx(), change);
    if (change.entity === 'fin_operation') return topUpNotices(trx, ctx(), change);
  };

/**
 * Queues each new notification (`notification.created`) for the channels its recipient chose beyond the
 * app, in the inbox's transaction; the delivery worker sends the rows outside it (docs/adr/0028).
 */
export const notificationDeliveryHandler =
  (emailBatchSeconds: number): EventHandler =>
  async (trx, event) => {
    if (event.type !== NOTIFICATION_EVENTS.created) return;
    await enqueueDeliveries(trx, NotificationCreated.parse(event.data), emailBatchSeconds);
  };
