import { createHash, randomInt } from 'node:crypto';
import {
  isStaff,
  ROLE_LABELS,
  TELEGRAM_CODE_ALPHABET,
  TELEGRAM_CODE_LENGTH,
  TELEGRAM_CODE_MINUTES,
  TELEGRAM_MESSAGES,
  type Identity,
  type TelegramLink,
  type TgRecipient,
} from '@caravan/contracts';
import type { Db, Logger } from '@caravan/service-kit';
import type { SendOutcome, TelegramClient } from '../adapters/telegram';

/**
 * Telegram links and deliveries (docs/adr/0022-telegram.md). A user's link is the chat that sent the bot
 * their one-time code; a 403 from Telegram (blocked, deactivated) marks it broken until they link again.
 */

export type TelegramOutcome = SendOutcome | { kind: 'not_linked' };

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

export function newLinkCode(): string {
  let code = '';
  for (let i = 0; i < TELEGRAM_CODE_LENGTH; i++)
    code += TELEGRAM_CODE_ALPHABET[randomInt(TELEGRAM_CODE_ALPHABET.length)];
  return code;
}

/** The code in what a chat wrote: '/start K7M2P9QX' (a t.me deep link) or the code alone, any case and spacing. */
export function codeIn(text: string): string | null {
  const words = text.trim().split(/\s+/);
  const word = (words[0]?.startsWith('/start') ? words.slice(1).join('') : words.join('')).toUpperCase();
  const valid = new RegExp(`^[${TELEGRAM_CODE_ALPHABET}]{${TELEGRAM_CODE_LENGTH}}$`);
  return valid.test(word) ? word : null;
}

type LinkRow = {
  user_id: string | number;
  chat_id: string | number;
  username: string | null;
  first_name: string | null;
  state: 'linked' | 'broken';
  linked_at: Date;
  broken_at: Date | null;
  broken_reason: string | null;
};

export async function linkOf(db: Db, userId: number): Promise<TelegramLink> {
  const row = (await db('telegram_link').where({ user_id: userId }).first()) as LinkRow | undefined;
  return {
    user_id: userId,
    state: row?.state ?? null,
    telegram_id: row ? String(row.chat_id) : null,
    username: row?.username ?? null,
    first_name: row?.first_name ?? null,
    linked_at: row?.linked_at?.toISOString() ?? null,
    broken_at: row?.broken_at?.toISOString() ?? null,
    broken_reason: row?.broken_reason ?? null,
  };
}

/** A new one-time code for the user; the codes they asked for before stop working. */
export async function issueLinkCode(db: Db, identity: Identity) {
  const code = newLinkCode();
  return db.transaction(async (trx) => {
    await trx('telegram_link_code')
      .where({ user_id: identity.user_id })
      .whereNull('used_at')
      .update({ expires_at: trx.fn.now() });
    const [row] = await trx('telegram_link_code')
      .insert({
        user_id: identity.user_id,
        code_hash: hashCode(code),
        fullname: identity.fullname,
        expires_at: trx.raw(`now() + interval '${TELEGRAM_CODE_MINUTES} minutes'`),
      })
      .returning('expires_at');
    return { code, expires_at: (row.expires_at as Date).toISOString() };
  });
}

export type IncomingChat = { id: number; username?: string; first_name?: string };

/**
 * What a chat wrote to the bot: a live code links the chat to the code's user (a repeated update of the
 * same code answers the same); the bot's answer in words.
 */
export async function handleChatText(db: Db, chat: IncomingChat, text: string): Promise<string> {
  const code = codeIn(text);
  if (!code) return TELEGRAM_MESSAGES.bot.help;
  return db.transaction(async (trx) => {
    const row = await trx('telegram_link_code')
      .where({ code_hash: hashCode(code) })
      .forUpdate()
      .first();
    if (!row) return TELEGRAM_MESSAGES.bot.unknownCode;
    if (row.used_at) {
      const link = await trx('telegram_link').where({ user_id: row.user_id }).first();
      return link && String(link.chat_id) === String(chat.id)
        ? TELEGRAM_MESSAGES.bot.alreadyLinked(row.fullname)
        : TELEGRAM_MESSAGES.bot.unknownCode;
    }
    if (new Date(row.expires_at as string).getTime() <= Date.now()) return TELEGRAM_MESSAGES.bot.unknownCode;
    await trx('telegram_link_code').where({ id: row.id }).update({ used_at: trx.fn.now() });
    await trx('telegram_link')
      .insert({
        user_id: row.user_id,
        chat_id: chat.id,
        username: chat.username ?? null,
        first_name: chat.first_name ?? null,
        state: 'linked',
        linked_at: trx.fn.now(),
        broken_at: null,
        broken_reason: null,
      })
      .onConflict('user_id')
      .merge();
    return TELEGRAM_MESSAGES.bot.linked(row.fullname);
  });
}

export async function unlink(db: Db, userId: number) {
  await db('telegram_link').where({ user_id: userId }).delete();
}

/** Telegram refused the chat for good (403): no more sends until the user links again. */
export async function markBroken(db: Db, userId: number, chatId: number | string, reason: string) {
  await db('telegram_link')
    .where({ user_id: userId, chat_id: chatId, state: 'linked' })
    .update({ state: 'broken', broken_at: db.fn.now(), broken_reason: reason.slice(0, 300) });
}

type OrderSides = {
  id: number;
  client_id: number;
  operator_id: number;
  client_title?: unknown;
  operator_title?: unknown;
};

/** A client writes to the order's operator; staff (operator, admin) write to the order's client. */
export const recipientSide = (identity: Identity): TgRecipient['side'] =>
  isStaff(identity) ? 'client' : 'operator';

/**
 * The working users of the order's other side who have a live Telegram link, from the identity replicas:
 * the users linked to the order's operator (with the operator role) or to its client (with the client role).
 */
export async function telegramRecipients(db: Db, order: OrderSides, identity: Identity) {
  const side = recipientSide(identity);
  const [link, column, owner] =
    side === 'client'
      ? (['client_user_link', 'client_id', order.client_id] as const)
      : (['operator_user_link', 'operator_id', order.operator_id] as const);
  const { rows } = (await db.raw(
    `select distinct t.user_id, t.chat_id
       from replica l
       join replica u on u.entity = 'user' and u.id = (l.data->>'user_table_id')::bigint and not u.deleted
                     and u.data->>'state' = 'working' and u.data->'roles' @> jsonb_build_array(?::text)
       join telegram_link t on t.user_id = u.id and t.state = 'linked'
      where l.entity = ? and not l.deleted and (l.data->>'${column}')::bigint = ? and u.id <> ?
      order by t.user_id`,
    [side, link, owner, identity.user_id],
  )) as { rows: { user_id: number | string; chat_id: number | string }[] };
  return {
    side,
    title: String((side === 'client' ? order.client_title : order.operator_title) ?? ''),
    users: rows.map((r) => ({ userId: Number(r.user_id), chatId: String(r.chat_id) })),
  };
}

/** The text the recipient reads: which order, who wrote, what. */
export function orderMessageText(order: { id: number; title?: unknown }, identity: Identity, msg: string) {
  const title = order.title ? `«${String(order.title)}» (№${order.id})` : `№${order.id}`;
  const role = isStaff(identity)
    ? ROLE_LABELS[identity.roles.includes('admin') ? 'admin' : 'operator']
    : ROLE_LABELS.client;
  return `Caravan · заказ ${title}\n${identity.fullname} (${role}):\n${msg}`;
}

/**
 * Sends through the bot to users' linked chats. `sendTelegram(userId, text)` is the one call other parts
 * (notifications) use: a user without a live link is 'not_linked', a 403 marks the link broken.
 */
export class TelegramDelivery {
  constructor(
    private readonly db: Db,
    private readonly client: TelegramClient,
    private readonly log: Logger,
  ) {}

  async sendTelegram(userId: number, text: string): Promise<TelegramOutcome> {
    const link = await this.db('telegram_link').where({ user_id: userId, state: 'linked' }).first('chat_id');
    if (!link) return { kind: 'not_linked' };
    return this.sendToChat(userId, link.chat_id as string, text);
  }

  async sendToChat(userId: number, chatId: number | string, text: string): Promise<SendOutcome> {
    const outcome = await this.client.sendMessage(chatId, text);
    if (outcome.kind === 'blocked') await markBroken(this.db, userId, chatId, outcome.description);
    if (outcome.kind !== 'sent') this.log.warn({ userId, outcome }, 'telegram message not delivered');
    return outcome;
  }
}
