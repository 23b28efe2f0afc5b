import {
  isAdmin,
  MESSAGES,
  TelegramLinkGetParams,
  TELEGRAM_MESSAGES,
  TELEGRAM_SENDS_PER_MINUTE,
  TG_SEND_LABELS,
  TgRecipientParams,
  TgSendParams,
  type TelegramCode,
  type TgRecipient,
  NoParams,
} from '@caravan/contracts';
import { BusinessError, type Db, type EntityStore, type ServiceKit } from '@caravan/service-kit';
import type { TelegramSetup } from '../adapters/telegram';
import { failureReason, type SendOutcome } from '../adapters/telegram/client';
import {
  issueLinkCode,
  linkOf,
  orderMessageText,
  telegramRecipients,
  unlink,
  type TelegramDelivery,
} from '../domain/telegram';

type OrderRow = { id: number; title: unknown; client_id: number; operator_id: number };

/** Nothing is sent when any recipient already had TELEGRAM_SENDS_PER_MINUTE messages from this sender in the last minute. */
async function assertNotTooOften(db: Db, senderId: number, recipientIds: readonly number[]) {
  const busiest = (await db('telegram_message')
    .where('sender_user_id', senderId)
    .whereIn('recipient_user_id', recipientIds)
    .where('created_at', '>', db.raw("now() - interval '1 minute'"))
    .groupBy('recipient_user_id')
    .select(db.raw('count(*)::int as n'))
    .orderBy('n', 'desc')
    .first()) as { n: number } | undefined;
  if ((busiest?.n ?? 0) >= TELEGRAM_SENDS_PER_MINUTE) throw new BusinessError(TELEGRAM_MESSAGES.tooOften);
}

/** Why nothing was delivered, in the user's words: the first recipient's outcome speaks for all. */
function notDelivered(outcomes: SendOutcome[]): BusinessError {
  const limited = outcomes.find((o) => o.kind === 'rate_limited');
  if (limited?.kind === 'rate_limited')
    return new BusinessError(TELEGRAM_MESSAGES.rateLimited(limited.retryAfterSeconds));
  if (outcomes.every((o) => o.kind === 'blocked')) return new BusinessError(TELEGRAM_MESSAGES.blocked);
  const failed = outcomes.find((o) => o.kind === 'failed' || o.kind === 'blocked');
  const reason = failed && 'description' in failed ? failed.description : '';
  return new BusinessError(TELEGRAM_MESSAGES.unavailable(reason));
}

/**
 * The telegram calls (docs/adr/0022): the order card's dialog (client_order_tg_recipient, spec §7
 * client_order_tg_send) within the reader's reach of the order, and each user's own link on /profile.
 */
export function registerTelegram(
  kit: ServiceKit,
  orders: EntityStore,
  telegram: TelegramSetup,
  delivery: TelegramDelivery,
) {
  kit.registry
    .register({
      name: 'client_order_tg_recipient',
      params: TgRecipientParams,
      access: 'any',
      readOnly: true,
      handler: async (ctx, { id }): Promise<TgRecipient> => {
        const order = (await orders.get(ctx.db, ctx.identity, id)) as unknown as OrderRow;
        const { side, title, users } = await telegramRecipients(ctx.db, order, ctx.identity);
        return { side, title, linked: users.length };
      },
    })
    .register({
      name: 'client_order_tg_send',
      params: TgSendParams,
      labels: TG_SEND_LABELS,
      access: 'any',
      handler: async (ctx, { id, msg, telegram_id }) => {
        const order = (await orders.get(ctx.db, ctx.identity, id)) as unknown as OrderRow;
        const { users } = await telegramRecipients(ctx.db, order, ctx.identity);
        const to = telegram_id ? users.filter((u) => String(u.chatId) === telegram_id) : users;
        if (!to.length) throw new BusinessError(TELEGRAM_MESSAGES.noTelegramId);
        await assertNotTooOften(
          ctx.db,
          ctx.identity.user_id,
          to.map((u) => u.userId),
        );
        const text = orderMessageText(order, ctx.identity, msg);
        const outcomes: SendOutcome[] = [];
        for (const user of to) {
          const outcome = await delivery.sendToChat(user.userId, user.chatId, text);
          outcomes.push(outcome);
          await ctx.db('telegram_message').insert({
            client_order_id: order.id,
            sender_user_id: ctx.identity.user_id,
            recipient_user_id: user.userId,
            chat_id: user.chatId,
            text: msg,
            outcome: outcome.kind,
            error: 'description' in outcome ? outcome.description.slice(0, 300) : null,
          });
        }
        const sent = outcomes.filter((o) => o.kind === 'sent').length;
        if (!sent) throw notDelivered(outcomes);
        return { sent, message: TELEGRAM_MESSAGES.sent(sent) };
      },
    })
    .register({
      name: 'telegram_link_get',
      params: TelegramLinkGetParams,
      access: 'any',
      readOnly: true,
      handler: async (ctx, { user_id }) => {
        if (user_id !== undefined && user_id !== ctx.identity.user_id && !isAdmin(ctx.identity))
          throw new BusinessError(MESSAGES.adminOnly);
        return linkOf(ctx.db, user_id ?? ctx.identity.user_id);
      },
    })
    .register({
      name: 'telegram_link_code_create',
      params: NoParams,
      access: 'any',
      handler: async (ctx): Promise<TelegramCode> => {
        let username: string;
        try {
          username = (await telegram.client.getMe()).username;
        } catch (err) {
          throw new BusinessError(TELEGRAM_MESSAGES.unavailable(failureReason(err)));
        }
        const { code, expires_at } = await issueLinkCode(ctx.db, ctx.identity);
        return { code, expires_at, bot_username: username, bot_link: telegram.botLink(username, code) };
      },
    })
    .register({
      name: 'telegram_link_unlink',
      params: NoParams,
      access: 'any',
      handler: async (ctx) => {
        const link = await linkOf(ctx.db, ctx.identity.user_id);
        if (!link.state) throw new BusinessError(TELEGRAM_MESSAGES.notLinked);
        await unlink(ctx.db, ctx.identity.user_id);
        return { ...(await linkOf(ctx.db, ctx.identity.user_id)), message: TELEGRAM_MESSAGES.unlinked };
      },
    });
}
