import { z } from 'zod';
import { specMessage } from '../validation';
import { Attachments, defineEntityContract, type Attachment, type BaseRow } from './common';

/**
 * Chats (product-core §2 chat box, §3; docs/adr/0023): one chat per object — an order (table_name
 * 'client_order', table_id the order's id) — between the order's client, its operator and the
 * admins: whoever reaches the order. Messages carry their text (the spec's `title`), the author's
 * name and photo, and files uploaded through /api/upload_file.
 */
export const CHAT_TABLES = ['client_order'] as const;
export type ChatTable = (typeof CHAT_TABLES)[number];

/** Spec §2: the chat box's new-chat button appears only after 400 ms without a chat; the area is 400 px high. */
export const CHAT_NEW_BUTTON_DELAY_MS = 400;
export const CHAT_AREA_HEIGHT_PX = 400;
/** Messages a chat's first page holds (older ones load on scroll up). */
export const CHAT_PAGE_SIZE = 50;
export const CHAT_MESSAGE_MAX = 4000;

export const CHAT_MESSAGES = {
  alreadyExists: 'чат по этому заказу уже создан',
  orderMissing: 'заказ чата не найден',
  empty: 'сообщение пустое: напишите текст или приложите файл',
  tooLong: `сообщение длиннее ${CHAT_MESSAGE_MAX} символов`,
  chatFixed: 'сообщение нельзя перенести в другой чат',
  chatMissing: 'чат не найден',
  onlyAuthor: 'изменить или удалить сообщение может только его автор',
  notUploaded: 'файлы: приложите файл, загруженный в Caravan; ссылки на другие сайты не принимаются',
  newChat: 'создать чат',
  noMessages: 'сообщений пока нет',
  sent: 'сообщение отправлено',
} as const;

export const chat = defineEntityContract({
  name: 'chat',
  title: 'чаты',
  fields: z.strictObject({
    table_name: z.enum(CHAT_TABLES).default('client_order'),
    table_id: z.number().int().positive(),
  }),
  labels: {
    table_name: 'объект',
    table_id: 'заказ',
    table_title: 'заказ',
    message_list: 'сообщения',
    unread_count: 'непрочитанные',
  },
  required: ['table_id'],
  searchFields: [],
  refs: { table_id: 'client_order' },
});

export const chatMessage = defineEntityContract({
  name: 'chat_message',
  title: 'сообщения чатов',
  fields: z.strictObject({
    chat_id: z.number().int().positive(),
    // the message's text (the spec's `title`)
    title: z.string().trim().max(CHAT_MESSAGE_MAX, specMessage(CHAT_MESSAGES.tooLong)).default(''),
    files: Attachments,
    // set by the service to the writer on create (their name as of sending); never changed
    author_id: z.number().int().positive().nullable().default(null),
    fullname: z.string().max(300).default(''),
  }),
  labels: {
    chat_id: 'чат',
    title: 'сообщение',
    files: 'файлы',
    fullname: 'автор',
    avatar: 'фото автора',
    author_id: 'автор',
  },
  required: ['chat_id'],
  searchFields: ['title'],
  refs: { chat_id: 'chat' },
});

export type ChatMessage = BaseRow & {
  chat_id: number;
  title: string;
  files: Attachment[];
  author_id: number;
  fullname: string;
  avatar: string | null;
};
export type Chat = BaseRow & {
  table_name: ChatTable;
  table_id: number;
  table_title?: string | null;
  /** The newest page of messages, oldest first (chat_get_by_id). */
  message_list?: ChatMessage[];
  /** Messages of others the caller has not read yet. */
  unread_count?: number;
};

/** Marks a chat read for the caller up to a message (default: the newest). */
export const ChatReadParams = z.strictObject({
  chat_id: z.number().int().positive(),
  message_id: z.number().int().positive().optional(),
});
export type ChatReadParams = z.infer<typeof ChatReadParams>;

/** The caller's chats with unread messages of others. */
export type ChatUnread = { chat_id: number; table_name: ChatTable; table_id: number; unread: number };
