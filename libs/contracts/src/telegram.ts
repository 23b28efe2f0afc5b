import { z } from 'zod';
import { specMessage } from './validation';

/**
 * Telegram (docs/adr/0022-telegram.md): a user links their chat with the bot by a one-time code from
 * /profile; the order card's telegram message dialog (spec §2, §5, §7 client_order_tg_send) sends
 * through the bot to the other side of the order: a client writes to the order's operator, staff to
 * the order's client.
 */

/** Spec §9: a telegram message has at least 5 characters. */
export const TELEGRAM_MESSAGE_MIN = 5;
/** Telegram's own limit for one message's text (vendor-apis §7), less the order's heading we put above it. */
export const TELEGRAM_MESSAGE_MAX = 3500;
/** Messages one user may write to one recipient from the order card in a minute (a flood of staff, the bot's budget). */
export const TELEGRAM_SENDS_PER_MINUTE = 5;
/** How long a link code from /profile is good for. */
export const TELEGRAM_CODE_MINUTES = 15;
/** Link codes: 8 characters of an alphabet without look-alikes (0/O, 1/I/L). */
export const TELEGRAM_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const TELEGRAM_CODE_LENGTH = 8;

export const TELEGRAM_LINK_STATES = ['linked', 'broken'] as const;
export type TelegramLinkState = (typeof TELEGRAM_LINK_STATES)[number];

export const TELEGRAM_MESSAGES = {
  /** Spec §5: the recipient has no telegram_id (the dialog's tooltip and the server's refusal). */
  noTelegramId: specMessage('отсутствует telegram_id у указанного пользователя'),
  tooShort: specMessage(`сообщение должно быть не короче ${TELEGRAM_MESSAGE_MIN} символов`),
  tooLong: specMessage(`сообщение должно быть не длиннее ${TELEGRAM_MESSAGE_MAX} символов`),
  sent: (count: number) =>
    count === 1
      ? 'сообщение отправлено в Telegram'
      : `сообщение отправлено в Telegram (получателей: ${count})`,
  blocked: 'получатель заблокировал бота: сообщение не доставлено',
  rateLimited: (seconds: number) =>
    `Telegram просит подождать ${seconds} с: сообщение не отправлено, повторите позже`,
  unavailable: (reason: string) => `Telegram не принял сообщение (${reason}): повторите позже`,
  tooOften: `одному получателю можно написать в Telegram не больше ${TELEGRAM_SENDS_PER_MINUTE} сообщений в минуту: подождите минуту и отправьте снова`,
  notLinked: 'Telegram не привязан',
  unlinked: 'Telegram отвязан',
  /** What the bot answers in the chat. */
  bot: {
    linked: (fullname: string) =>
      `Готово: этот чат привязан к Caravan (${fullname}). Сюда будут приходить сообщения по заказам.`,
    alreadyLinked: (fullname: string) => `Этот чат уже привязан к Caravan (${fullname}).`,
    unknownCode:
      'Код не найден или устарел. Получите новый код на странице профиля Caravan и отправьте его сюда.',
    help: 'Чтобы получать сообщения Caravan, отправьте сюда код со страницы профиля (Профиль → Telegram).',
  },
} as const;

export const TELEGRAM_LINK_STATE_LABELS: Record<TelegramLinkState, string> = {
  linked: 'привязан',
  broken: 'связь нарушена: бот заблокирован или чат недоступен, привяжите Telegram заново',
};

const orderId = z.number().int().positive();

/** client_order_tg_send (spec §7: id, telegram_id, msg): the recipient is the order's other side (ADR 0022). */
export const TgSendParams = z.strictObject({
  id: orderId,
  msg: z
    .string()
    .trim()
    .min(TELEGRAM_MESSAGE_MIN, TELEGRAM_MESSAGES.tooShort)
    .max(TELEGRAM_MESSAGE_MAX, TELEGRAM_MESSAGES.tooLong),
  /**
   * The spec's field: the recipient's telegram_id as the old screen passed it. It is never trusted (any
   * chat could be written to through our bot); when given it must be one of the order's recipients.
   */
  telegram_id: z.string().trim().max(50).nullish(),
});
export type TgSendParams = z.infer<typeof TgSendParams>;
export const TG_SEND_LABELS = { labels: { id: 'заказ', msg: 'сообщение', telegram_id: 'telegram_id' } };

export const TgRecipientParams = z.strictObject({ id: orderId });

/** Who the order's telegram dialog writes to, and whether any of them can be reached. */
export const TgRecipient = z.object({
  side: z.enum(['operator', 'client']),
  /** The operator's or the client's title. */
  title: z.string(),
  /** Users of that side with a working Telegram link. */
  linked: z.number().int(),
});
export type TgRecipient = z.infer<typeof TgRecipient>;

/** A user's Telegram link as /profile shows it (chat id included: it is theirs). */
export const TelegramLink = z.object({
  user_id: z.number().int(),
  state: z.enum(TELEGRAM_LINK_STATES).nullable(),
  telegram_id: z.string().nullable(),
  username: z.string().nullable(),
  first_name: z.string().nullable(),
  linked_at: z.string().nullable(),
  broken_at: z.string().nullable(),
  broken_reason: z.string().nullable(),
});
export type TelegramLink = z.infer<typeof TelegramLink>;

/** telegram_link_get: one's own link; an admin may name another user (the /users/{id} page). */
export const TelegramLinkGetParams = z.strictObject({ user_id: z.number().int().positive().optional() });

export const TelegramCode = z.object({
  code: z.string(),
  expires_at: z.string(),
  /** The bot's @username (getMe). */
  bot_username: z.string(),
  /** Where to send the code: t.me/<bot>?start=<code>, or the sandbox's page with the code filled in. */
  bot_link: z.string(),
});
export type TelegramCode = z.infer<typeof TelegramCode>;
