import { z } from 'zod';
import { CARRIER_VENDOR_LABELS, type TrackedCarrier } from '../carriers';
import { formatDate, formatMoney } from '../formatting';
import { defineEntityContract, Id, type BaseRow } from './common';
import { TASK_MESSAGES } from './task';
import { ORDER_STAGE_LABELS, ORDER_STATE_LABELS, type OrderStage, type OrderState } from './orderStages';
import { TRANSPORT_COMPANY_LABELS } from './transport';
import type { PhotoReviewAnswer } from '../photoReview';

/** Spec §3: how a notification looks (info, warning, success, error) and what it is about. */
export const NOTIFICATION_TYPES = ['info', 'warning', 'success', 'error'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export const NOTIFICATION_TYPE_LABELS: Record<NotificationType, string> = {
  info: 'информация',
  warning: 'предупреждение',
  success: 'успешно',
  error: 'ошибка',
};
export const NOTIFICATION_CATEGORIES = [
  'delivery_state',
  'data_update',
  'consolidation_receive_missing',
] as const;
export type NotificationCategory = (typeof NOTIFICATION_CATEGORIES)[number];
export const NOTIFICATION_CATEGORY_LABELS: Record<NotificationCategory, string> = {
  delivery_state: 'статус доставки',
  data_update: 'изменение данных',
  consolidation_receive_missing: 'не поступило на склад консолидации',
};
/** What a notification points at: an order (spec), or a wallet (a top-up, a failed top-up). */
export const NOTIFICATION_TABLES = ['client_order', 'wallet'] as const;
export type NotificationTable = (typeof NOTIFICATION_TABLES)[number];

/** Spec §3 notification.options, and how many positions a grouped position notice counts. */
export const NotificationOptions = z.looseObject({
  client_order_title: z.string().optional(),
  transport_company_rus_delivery_state_ru: z.string().optional(),
  transport_company_rus_order_number: z.string().optional(),
  modification_type: z.string().optional(),
  new_value: z.string().optional(),
  position_count: z.number().int().optional(),
  /** A gathered chat notice: how many new messages it counts. */
  message_count: z.number().int().optional(),
});
export type NotificationOptions = z.infer<typeof NotificationOptions>;

/**
 * One notice to one user (spec §3): its own read state. Made by svc-orders from the domain events
 * (docs/adr/0021), never through `_update`; the recipient marks it read.
 */
export const notification = defineEntityContract({
  name: 'notification',
  title: 'уведомления',
  fields: z.strictObject({
    user_table_id: Id,
    label: z.string().max(300),
    message: z.string().max(2000),
    type: z.enum(NOTIFICATION_TYPES).default('info'),
    category: z.enum(NOTIFICATION_CATEGORIES),
    table_name: z.enum(NOTIFICATION_TABLES).default('client_order'),
    item_id: Id.nullable().default(null),
    is_read: z.boolean().default(false),
    read_at: z.string().nullable().default(null),
    options: NotificationOptions.default({}),
  }),
  labels: {
    user_table_id: 'получатель',
    label: 'заголовок',
    message: 'сообщение',
    type: 'тип',
    category: 'категория',
    table_name: 'к чему',
    item_id: 'номер записи',
    is_read: 'прочитано',
    read_at: 'прочитано в',
    options: 'подробности',
  },
  required: ['user_table_id', 'label', 'message', 'category'],
  searchFields: ['label', 'message'],
});
export type Notification = BaseRow & z.infer<typeof notification.fields>;

/** Where a notification goes besides the app (the app always): the user's choice, per user. */
export const NOTIFICATION_CHANNELS = ['app', 'email', 'telegram'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
export const NOTIFICATION_CHANNEL_LABELS: Record<NotificationChannel, string> = {
  app: 'в приложении',
  email: 'по электронной почте',
  telegram: 'в Telegram',
};
/** A user's channels: the app is always on; email and Telegram are chosen. */
export const NotificationChannels = z.strictObject({ email: z.boolean(), telegram: z.boolean() });
export type NotificationChannels = z.infer<typeof NotificationChannels>;
export const NOTIFICATION_CHANNELS_DEFAULT: NotificationChannels = { email: false, telegram: false };
export const NotificationChannelsUpdateParams = NotificationChannels.partial();

/** notification_mark_read: one of the caller's own notifications. */
export const NotificationMarkReadParams = z.strictObject({ id: Id });
export const NotificationMarkAllReadParams = z.strictObject({});
/** notification_check_missing: an admin runs the consolidation check now (as of `date`, default today). */
export const NotificationCheckParams = z.strictObject({
  date: z.iso.date().optional(),
});
export const NOTIFICATION_PARAM_LABELS = {
  labels: {
    id: 'уведомление',
    email: NOTIFICATION_CHANNEL_LABELS.email,
    telegram: NOTIFICATION_CHANNEL_LABELS.telegram,
    date: 'дата',
  },
};

/**
 * The delivery seam: every new notification, with the channels its recipient chose beyond the app,
 * goes out through svc-orders' outbox on orders.notification.v1 (keyed by the notification's id).
 * An email or Telegram sender consumes it; the app already has the row.
 */
export const NOTIFICATION_EVENTS = { created: 'notification.created' } as const;
export const NotificationCreated = z.object({
  notification: z.record(z.string(), z.unknown()),
  channels: z.array(z.enum(['email', 'telegram'])),
});
export type NotificationCreated = z.infer<typeof NotificationCreated>;

export const NOTIFICATION_MESSAGES = {
  byEventsOnly: 'уведомления создаются только событиями заказов и платежей; изменить их нельзя',
  notFound: 'уведомление не найдено',
  markedRead: 'уведомление прочитано',
  allMarkedRead: (n: number) => `отмечено прочитанными: ${n}`,
  channelsSaved: 'способы получения уведомлений сохранены',
  checked: (n: number) => `проверено: уведомлений о непоступивших позициях — ${n}`,
} as const;

const plural = (n: number, one: string, few: string, many: string) => {
  const d = n % 10;
  const dd = n % 100;
  if (d === 1 && dd !== 11) return one;
  if (d >= 2 && d <= 4 && (dd < 12 || dd > 14)) return few;
  return many;
};

/** What each order stage means to the people of the order, in a notification's heading. */
export const ORDER_STAGE_NEWS: Record<OrderStage, string> = {
  draft: 'заказ возвращён в черновик',
  created: 'заказ сформирован',
  buyout_waiting: 'заказ ожидает оплаты',
  buyout_done: 'товары заказа выкуплены',
  warehouse_waiting: 'товары заказа отправлены на склад консолидации',
  warehouse_received: 'товары заказа прибыли на склад консолидации',
  sent_to_ru: 'заказ отправлен в РФ',
  sent_to_door: 'заказ отправлен по адресу',
  client_received: 'заказ вручён получателю',
  client_confirmed: 'заказ принят получателем',
};

/** The position stages a position's own action reaches: each is news; later ones follow the order. */
export const POSITION_STAGE_NEWS = {
  buyout_done: ['позиция выкуплена', 'позиции выкуплены'],
  warehouse_waiting: ['позиция отправлена на склад консолидации', 'позиции отправлены на склад консолидации'],
  warehouse_received: ['позиция прибыла на склад консолидации', 'позиции прибыли на склад консолидации'],
} as const;
export type NewsPositionStage = keyof typeof POSITION_STAGE_NEWS;

/** Order fields whose change by staff the client hears of (a 'data_update' notice), with their names. */
export const WATCHED_ORDER_FIELDS = {
  state: 'состояние заказа',
  total_price_rur: 'итоговая стоимость',
  to_ru_delivery_date: 'дата доставки в РФ',
  transport_company_rus: 'перевозчик по России',
} as const;
export type WatchedOrderField = keyof typeof WATCHED_ORDER_FIELDS;

/** A watched field's new value as the client reads it. */
export function watchedValueText(field: WatchedOrderField, value: unknown): string {
  if (value === null || value === undefined || value === '') return 'не указано';
  if (field === 'state') return ORDER_STATE_LABELS[value as OrderState] ?? String(value);
  if (field === 'total_price_rur') return formatMoney(String(value));
  if (field === 'to_ru_delivery_date') return formatDate(String(value));
  return TRANSPORT_COMPANY_LABELS[value as keyof typeof TRANSPORT_COMPANY_LABELS] ?? String(value);
}

/** An order named in a sentence: its title ('заказ 12' as it is, another title in quotes). */
const PLAIN_ORDER_TITLE = /^заказ\s/i;
export const orderInText = (title: string) => (PLAIN_ORDER_TITLE.test(title) ? title : `заказ «${title}»`);
/** The same in the genitive: 'из заказа 12', 'из заказа «Кроссовки»'. */
const ofOrder = (title: string) =>
  PLAIN_ORDER_TITLE.test(title) ? `заказа${title.slice(5)}` : `заказа «${title}»`;
const order = orderInText;
/** The same after 'по': 'по заказу 12', 'по заказу «Кроссовки»'. */
const orderDative = (title: string) =>
  PLAIN_ORDER_TITLE.test(title) ? `заказу${title.slice(5)}` : `заказу «${title}»`;

/** Longer words (a chat message, a task's content) are cut to what a notice shows. */
const EXCERPT_MAX = 200;
const excerpt = (text: string) => {
  const flat = text.trim().replace(/\s+/g, ' ');
  return flat.length > EXCERPT_MAX ? `${flat.slice(0, EXCERPT_MAX - 1)}…` : flat;
};
/** A chat message in a notice: its words in quotes, else the names of its files. */
const chatExcerpt = (text: string, files: readonly string[]) =>
  text.trim()
    ? `«${excerpt(text)}»`
    : `${files.length === 1 ? 'файл' : 'файлы'} ${files.map((f) => `«${f}»`).join(', ')}`;

/**
 * The texts of every notification, in plain Russian: `label` is the heading in the drawer, `message`
 * the sentence of the detail dialog.
 */
export const NOTIFICATION_TEXTS = {
  orderStage: (title: string, to: OrderStage) => ({
    label: ORDER_STAGE_NEWS[to],
    message: `${order(title)} перешёл на этап «${ORDER_STAGE_LABELS[to]}»`,
  }),
  positionStage: (orderTitle: string, to: NewsPositionStage, count: number, positionTitle: string) => ({
    label: POSITION_STAGE_NEWS[to][count === 1 ? 0 : 1],
    message:
      count === 1
        ? `«${positionTitle}» из ${ofOrder(orderTitle)}`
        : `${count} ${plural(count, 'позиция', 'позиции', 'позиций')} из ${ofOrder(orderTitle)}`,
  }),
  /** A carrier's status; when it moved the order, the one notice of the move says the stage too. */
  carrierStatus: (
    title: string,
    carrier: TrackedCarrier,
    number: string,
    statusLabel: string,
    city: string | null,
    movedTo: OrderStage | null = null,
  ) => ({
    label: `${CARRIER_VENDOR_LABELS[carrier]}: ${statusLabel}`,
    message: `${order(title)}, отправление ${number}: ${statusLabel}${city ? ` (${city})` : ''}${
      movedTo ? `; заказ перешёл на этап «${ORDER_STAGE_LABELS[movedTo]}»` : ''
    }`,
  }),
  paymentCredited: (title: string, kind: 'product' | 'delivery', amount: string) => ({
    label: 'оплата получена',
    message: `${order(title)}: ${kind === 'product' ? 'оплата товара' : 'оплата доставки'} ${formatMoney(amount)}`,
  }),
  paymentFailed: (title: string | null, amount: string, reason: string) => ({
    label: 'платёж не прошёл',
    message: `${
      title === null
        ? `пополнение кошелька на ${formatMoney(amount)} не прошло`
        : `${order(title)}: платёж на ${formatMoney(amount)} не прошёл`
    }${reason ? `: ${reason}` : ''}`,
  }),
  staffChange: (title: string, by: string, field: WatchedOrderField, value: unknown) => ({
    label: 'заказ изменён',
    message: `${by} изменил ${order(title)}: ${WATCHED_ORDER_FIELDS[field]} — ${watchedValueText(field, value)}`,
  }),
  walletTopUp: (amount: string, walletTitle: string | null) => ({
    label: 'баланс пополнен',
    message: `баланс${walletTitle ? ` кошелька «${walletTitle}»` : ''} пополнен на ${formatMoney(amount)}`,
  }),
  taskAssigned: (orderTitle: string, typeTitle: string, content: string) => ({
    label: 'вам поручена задача',
    message: `«${typeTitle}» по ${orderDative(orderTitle)}${content.trim() ? `: ${excerpt(content)}` : ''}`,
  }),
  taskFinished: (orderTitle: string, typeTitle: string, result: string, successRate: number) => ({
    label: 'задача выполнена',
    message: `«${typeTitle}» по ${orderDative(orderTitle)}: ${excerpt(result)}. ${TASK_MESSAGES.successRate(successRate)}`,
  }),
  /** New messages of an order's chat, gathered in one unread row per reader. */
  chatMessages: (
    orderTitle: string,
    count: number,
    author: string,
    text: string,
    files: readonly string[],
  ) => ({
    label: count === 1 ? 'новое сообщение в чате' : 'новые сообщения в чате',
    message:
      count === 1
        ? `${author} в чате ${ofOrder(orderTitle)}: ${chatExcerpt(text, files)}`
        : `${count} ${plural(count, 'новое сообщение', 'новых сообщения', 'новых сообщений')} в чате ${ofOrder(orderTitle)}`,
  }),
  /** Warehouse photos of positions, gathered per order in one unread row per reader. */
  warehousePhotos: (orderTitle: string, count: number, positionTitle: string) => ({
    label: 'фото со склада',
    message:
      count === 1
        ? `новые фото со склада: «${positionTitle}» из ${ofOrder(orderTitle)}`
        : `новые фото со склада: ${count} ${plural(count, 'позиция', 'позиции', 'позиций')} из ${ofOrder(orderTitle)}`,
  }),
  photoAnswer: (orderTitle: string, positionTitle: string, answer: PhotoReviewAnswer, comment: string) =>
    answer === 'accepted'
      ? {
          label: 'клиент принял фото',
          message: `клиент принял фото позиции «${positionTitle}» из ${ofOrder(orderTitle)}`,
        }
      : {
          label: 'клиент просит ещё фото',
          message: `клиент просит ещё фото позиции «${positionTitle}» из ${ofOrder(orderTitle)}: ${excerpt(comment)}`,
        },
  consolidationMissing: (orderTitle: string, positionTitle: string, expected: string) => ({
    label: 'позиция не поступила на склад консолидации',
    message: `«${positionTitle}» из ${ofOrder(orderTitle)} ожидалась на складе консолидации ${formatDate(expected)}, но ещё не получена`,
  }),
} as const;

/**
 * A notification mail (docs/adr/0028): a user's notices of a batching window in one message. One notice:
 * its heading is the subject; several: how many.
 */
export const NOTIFICATION_EMAIL = {
  subject: (headings: readonly string[]) =>
    headings.length === 1
      ? `Caravan: ${headings[0]!}`
      : `Caravan: ${headings.length} ${plural(headings.length, 'новое уведомление', 'новых уведомления', 'новых уведомлений')}`,
  greeting: (fullname: string) => (fullname ? `Здравствуйте, ${fullname}!` : 'Здравствуйте!'),
  intro: (count: number) =>
    count === 1 ? 'Что произошло в Caravan:' : `Что произошло в Caravan (${count}):`,
  openOrder: 'Открыть заказ',
  openWallet: 'Открыть кошелёк',
  why: 'Вы получили это письмо, потому что выбрали уведомления по электронной почте. Изменить выбор можно в профиле:',
  /** why a row was not mailed (the queue's last_error) */
  noAddress: 'у пользователя нет адреса электронной почты',
} as const;
