import {
  livePhotos,
  NOTIFICATION_TEXTS,
  taskTypeTitle,
  type Attachment,
  type EntityChanged,
  type EventEnvelope,
  type PhotoReview,
} from '@caravan/contracts';
import type { Db } from '@caravan/service-kit';
import { notify, type NotifyContext } from './notifications';
import { orderName, orderOf } from './notices';

/**
 * The notices of the work around an order (docs/adr/0029): tasks, chat messages, the warehouse's photos
 * and the client's answer to them. Each reaches only users who see the order.
 */

type Values = Record<string, unknown>;

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
/** The field's value before this update, when the update changed it (else undefined). */
const before = (change: EntityChanged, field: string) =>
  change.op === 'updated' && change.prev && field in change.prev ? change.prev[field] : undefined;

/**
 * A task given to someone (made, or handed to another responsible): its responsible hears, unless they
 * gave it to themselves. A task finished: its author hears the result and the success rate, unless they
 * finished it themselves.
 */
export async function taskNotices(trx: Db, ctx: NotifyContext, event: EventEnvelope, change: EntityChanged) {
  const task = change.row as Values;
  if (task.deleted || task.table_name !== 'client_order') return;
  const order = await orderOf(trx, Number(task.table_id));
  if (!order) return;
  const title = orderName(order);
  const reach = { clientId: order.client_id, operatorId: order.operator_id, admins: true };
  const base = {
    category: 'data_update' as const,
    table_name: 'client_order' as const,
    item_id: order.id,
  };
  const typeTitle = taskTypeTitle(num(task.task_type_id));
  const given =
    task.executor_id !== null &&
    !task.finished_at &&
    (change.op === 'created' || before(change, 'executor_id') !== undefined);
  if (given)
    await notify(
      trx,
      ctx,
      { ...reach, only: [Number(task.executor_id)], except: event.actor },
      {
        ...base,
        sourceKey: `task_given:${event.id}`,
        ...NOTIFICATION_TEXTS.taskAssigned(title, typeTitle, String(task.content ?? '')),
        type: 'info',
        options: { client_order_title: title, modification_type: 'task', new_value: String(change.id) },
      },
    );
  if (task.finished_at && before(change, 'finished_at') === null && task.author_id !== null)
    await notify(
      trx,
      ctx,
      { ...reach, only: [Number(task.author_id)], except: num(task.finished_by) },
      {
        ...base,
        sourceKey: `task_finished:${event.id}`,
        ...NOTIFICATION_TEXTS.taskFinished(
          title,
          typeTitle,
          String(task.result ?? ''),
          Number(task.success_rate),
        ),
        type: 'success',
        options: {
          client_order_title: title,
          modification_type: 'task_finished',
          new_value: String(task.success_rate),
        },
      },
    );
}

/** The admins who wrote in the chat: of the admins, only they take part in it. */
async function adminWriters(trx: Db, chatId: number): Promise<number[]> {
  const rows = (await trx('chat_message')
    .where({ chat_id: chatId, deleted: false })
    .distinct('author_id')) as { author_id: string | number | null }[];
  return rows.filter((r) => r.author_id !== null).map((r) => Number(r.author_id));
}

const fileName = (a: Attachment) => a.name?.trim() || a.file.split('/').pop() || a.file;

/**
 * A new message in an order's chat: the chat's other participants hear — the order's client's and
 * operator's users, and the admins who wrote in it. A reader's unread messages of one chat gather in
 * one row ('3 новых сообщения в чате заказа 12').
 */
export async function chatMessageNotices(
  trx: Db,
  ctx: NotifyContext,
  event: EventEnvelope,
  change: EntityChanged,
) {
  const message = change.row as Values;
  if (change.op !== 'created' || message.deleted || message.table_name !== 'client_order') return;
  const order = await orderOf(trx, Number(message.table_id));
  if (!order) return;
  const title = orderName(order);
  const chatId = Number(message.chat_id);
  const author = String(message.fullname ?? '').trim() || 'участник чата';
  const files = ((message.files as Attachment[] | null) ?? []).filter((f) => !f.deleted).map(fileName);
  const text = String(message.title ?? '');
  const texts = (count: number) => NOTIFICATION_TEXTS.chatMessages(title, count, author, text, files);
  await notify(
    trx,
    ctx,
    {
      clientId: order.client_id,
      operatorId: order.operator_id,
      admins: await adminWriters(trx, chatId),
      except: num(message.author_id),
    },
    {
      sourceKey: `chat_message:${change.id}`,
      ...texts(1),
      type: 'info',
      category: 'data_update',
      table_name: 'client_order',
      item_id: order.id,
      options: { client_order_title: title, modification_type: 'chat_message', new_value: String(chatId) },
      group: { key: `chat:${chatId}`, member: change.id, texts, noun: 'message' },
    },
  );
}

/** Photos the warehouse added to a position by this update (none when it only removed or kept them). */
function addedPhotos(change: EntityChanged): string[] {
  const was = before(change, 'warehouse_images');
  if (was === undefined) return [];
  const had = new Set(livePhotos(was as Attachment[] | null));
  return livePhotos(change.row.warehouse_images as Attachment[] | null).filter((f) => !had.has(f));
}

/** The client's answer given by this update (accepted / more photos), if it gave one. */
function newAnswer(change: EntityChanged): PhotoReview | null {
  const was = before(change, 'options') as { photo_review?: PhotoReview | null } | null | undefined;
  if (was === undefined) return null;
  const review = (change.row.options as { photo_review?: PhotoReview | null } | null)?.photo_review;
  return review && review.at !== was?.photo_review?.at ? review : null;
}

/**
 * The warehouse's photos of a position arrived: the client's users hear, gathered per order ('новые фото
 * со склада: 3 позиции из заказа 12'). The client's answer to them: the operator's users hear.
 */
export async function photoNotices(trx: Db, ctx: NotifyContext, event: EventEnvelope, change: EntityChanged) {
  const position = change.row as Values;
  if (position.deleted) return;
  const photos = addedPhotos(change);
  const answer = newAnswer(change);
  if (!photos.length && !answer) return;
  const order = await orderOf(trx, Number(position.client_order_id));
  if (!order) return;
  const title = orderName(order);
  const positionTitle = String(position.title ?? '');
  const base = { category: 'data_update' as const, table_name: 'client_order' as const, item_id: order.id };
  if (photos.length) {
    const texts = (count: number) => NOTIFICATION_TEXTS.warehousePhotos(title, count, positionTitle);
    await notify(
      trx,
      ctx,
      { clientId: order.client_id, except: event.actor },
      {
        ...base,
        sourceKey: `warehouse_photos:${event.id}`,
        ...texts(1),
        type: 'info',
        options: { client_order_title: title, modification_type: 'warehouse_images' },
        group: { key: `warehouse_photos:${order.id}`, member: change.id, texts },
      },
    );
  }
  if (answer)
    await notify(
      trx,
      ctx,
      { operatorId: order.operator_id, except: event.actor },
      {
        ...base,
        sourceKey: `photo_answer:${event.id}`,
        ...NOTIFICATION_TEXTS.photoAnswer(title, positionTitle, answer.answer, answer.comment),
        type: answer.answer === 'accepted' ? 'success' : 'warning',
        options: { client_order_title: title, modification_type: 'photo_review', new_value: answer.answer },
      },
    );
}
