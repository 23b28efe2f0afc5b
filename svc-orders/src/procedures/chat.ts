import {
  CHAT_MESSAGES,
  CHAT_PAGE_SIZE,
  chat,
  chatMessage,
  ChatReadParams,
  ENTITY_TOPICS,
  isAdmin,
  ListParams,
  MESSAGES,
  type ChatUnread,
  type Identity,
  NoParams,
  uploadedFileId,
} from '@caravan/contracts';
import {
  applyOwnership,
  BusinessError,
  ownsValues,
  registerEntity,
  titleOf,
  type Db,
  type EntityStore,
  type Procedure,
  type ProcedureRegistry,
  type RuleContext,
  type ServiceKit,
} from '@caravan/service-kit';
import type { Knex } from 'knex';
import { personAvatar } from '../domain/people';

/** A chat is reached through its order: the order's client and operator, kept on the chat by triggers (081_chat). */
const CHAT_REACH = { client: 'chat.client_id', operator: 'chat.operator_id' };
const ORDER_OWNERS = { client: 'client_id', operator: 'operator_id' };

/** Messages are reached through their chat. */
const viaChat = (qb: Knex.QueryBuilder, identity: Identity) =>
  qb.whereIn('chat_message.chat_id', function (this: Knex.QueryBuilder) {
    this.select('chat.id').from('chat');
    applyOwnership(this, identity, CHAT_REACH);
  });

/** A chat's unread messages for one user: others' live messages after the last one they read. */
const UNREAD_SQL = `select count(*) from chat_message m
  where m.chat_id = ? and not m.deleted and m.author_id <> ?
    and m.id > coalesce((select r.last_read_id from chat_read r where r.chat_id = ? and r.user_id = ?), 0)`;

async function unreadCount(db: Db, chatId: number, userId: number): Promise<number> {
  const { rows } = (await db.raw(UNREAD_SQL, [chatId, userId, chatId, userId])) as {
    rows: { count: string }[];
  };
  return Number(rows[0]?.count ?? 0);
}

/** The order a chat is about, if the writer reaches it (else it does not exist for them). */
async function reachableOrder(trx: Db, identity: Identity, orderId: unknown) {
  const order = await trx('client_order')
    .where({ id: Number(orderId) })
    .first('id', 'client_id', 'operator_id', 'deleted');
  if (!order || order.deleted || (!isAdmin(identity) && !ownsValues(identity, ORDER_OWNERS, order)))
    return null;
  return order;
}

/** One chat per order, opened by whoever reaches the order (the chat box's new-chat button). */
async function chatRules({ trx, identity, prev, next }: RuleContext) {
  if (prev) return;
  if (!(await reachableOrder(trx, identity, next.table_id)))
    throw new BusinessError(CHAT_MESSAGES.orderMissing);
  const existing = await trx('chat')
    .where({ table_name: next.table_name, table_id: next.table_id })
    .first('id');
  if (existing) throw new BusinessError(CHAT_MESSAGES.alreadyExists);
}

/**
 * A message is written by whoever reaches its chat, in their own name; only its author changes or
 * deletes it (an admin may delete any); it never moves to another chat; it holds text or a file.
 */
async function messageRules({ trx, identity, prev, next, given }: RuleContext) {
  if (prev) {
    if ('chat_id' in given) throw new BusinessError(CHAT_MESSAGES.chatFixed);
    if ('author_id' in given || 'fullname' in given) throw new BusinessError(MESSAGES.accessDenied);
    const onlyDeletes = Object.keys(given).every((f) => f === 'deleted');
    if (prev.author_id !== identity.user_id && !(onlyDeletes && isAdmin(identity)))
      throw new BusinessError(CHAT_MESSAGES.onlyAuthor);
  } else {
    if (next.author_id !== identity.user_id || next.fullname !== identity.fullname)
      throw new BusinessError(MESSAGES.accessDenied);
    const owner = await trx('chat')
      .where({ id: Number(next.chat_id) })
      .first('id', 'deleted', 'client_id', 'operator_id');
    if (!owner || owner.deleted || (!isAdmin(identity) && !ownsValues(identity, ORDER_OWNERS, owner)))
      throw new BusinessError(CHAT_MESSAGES.chatMissing);
  }
  const files = (next.files as { file: string; deleted?: boolean }[] | undefined) ?? [];
  if (String(next.title ?? '') === '' && !files.some((f) => !f.deleted) && !(prev && given.deleted === true))
    throw new BusinessError(CHAT_MESSAGES.empty);
  if ('files' in given) await assertUploaded(trx, files);
}

/**
 * A message's files are files uploaded here (`/api/upload_file`), never an outside link dressed as a file
 * (the other side opens it from the chat as ours).
 */
async function assertUploaded(trx: Db, files: readonly { file: string; deleted?: boolean }[]) {
  const ids = files.filter((f) => !f.deleted).map((f) => uploadedFileId(f.file));
  if (ids.some((id) => id === null)) throw new BusinessError(CHAT_MESSAGES.notUploaded);
  const wanted = [...new Set(ids as string[])];
  if (!wanted.length) return;
  const found = await trx('file').whereIn('id', wanted).count<{ count: string }[]>('id as count');
  if (Number(found[0]!.count) !== wanted.length) throw new BusinessError(CHAT_MESSAGES.notUploaded);
}

/**
 * The registry as registerEntity sees it, with chat_list and chat_get_by_id answering each chat with
 * the caller's unread count, and chat_get_by_id with its newest page of messages (oldest first).
 */
function withMessages(registry: ProcedureRegistry, messages: () => EntityStore): ProcedureRegistry {
  const wrapped = Object.create(registry) as ProcedureRegistry;
  wrapped.register = function <P, R>(this: ProcedureRegistry, procedure: Procedure<P, R>) {
    if (procedure.name !== 'chat_get_by_id' && procedure.name !== 'chat_list')
      return registry.register.call(this, procedure);
    const read = procedure.handler;
    return registry.register.call(this, {
      ...procedure,
      handler: async (ctx: Parameters<typeof read>[0], params: P) => {
        const result = (await read(ctx, params)) as R & { id: number; items?: { id: number }[] };
        const userId = ctx.identity.user_id;
        if (procedure.name === 'chat_list') {
          const items = [];
          for (const item of result.items ?? [])
            items.push({ ...item, unread_count: await unreadCount(ctx.db, item.id, userId) });
          return { ...result, items } as R;
        }
        const page = await messages().list(
          ctx.db,
          ctx.identity,
          ListParams.parse({
            where_param: [{ field: 'chat_id', op: '=', value: result.id }],
            order_by: 'id desc',
            per_page: CHAT_PAGE_SIZE,
          }),
        );
        return {
          ...result,
          message_list: [...page.items].reverse(),
          next_cursor: page.next_cursor,
          unread_count: await unreadCount(ctx.db, result.id, userId),
        } as R;
      },
    });
  };
  return wrapped;
}

/** What a message's event carries besides the row: who may see it (its order's client and operator) and the author's photo. */
async function messageEvent(row: Record<string, unknown> & { id: number; deleted: boolean }, trx: Db) {
  const owner = await trx('chat')
    .where({ id: row.chat_id })
    .first('client_id', 'operator_id', 'table_name', 'table_id');
  const avatar = await trx('replica').where({ entity: 'user', id: row.author_id }).first('data');
  return {
    ...row,
    client_id: owner?.client_id ?? null,
    operator_id: owner?.operator_id ?? null,
    table_name: owner?.table_name ?? null,
    table_id: owner?.table_id ?? null,
    avatar: (avatar?.data as { avatar?: string | null } | undefined)?.avatar ?? null,
  };
}

/**
 * Chats and their messages (product-core §2 chat box, §3; docs/adr/0023): `chat_*` and
 * `chat_message_*` for whoever reaches the chat's order, `chat_mark_read` and `chat_unread_list` for
 * each user's own unread counts. Messages go out through the outbox; the gateway streams them to the
 * order's participants only.
 */
export function registerChat(kit: ServiceKit) {
  // the chat's reads answer its messages, registered after it
  const stores: { messages?: EntityStore } = {};
  const chats = registerEntity(
    withMessages(kit.registry, () => stores.messages!),
    {
      contract: chat,
      read: 'any',
      write: 'any',
      readonlyColumns: ['client_id', 'operator_id'],
      readScope: CHAT_REACH,
      writeScope: CHAT_REACH,
      computed: { table_title: titleOf('chat', 'table_id', 'client_order') },
      may: { change: 'admin', delete: 'admin' },
      rules: chatRules,
      topic: ENTITY_TOPICS.chat,
    },
  );
  const messages = (stores.messages = registerEntity(kit.registry, {
    contract: chatMessage,
    read: 'any',
    write: 'any',
    json: ['files'],
    readScope: viaChat,
    writeScope: viaChat,
    computed: { avatar: personAvatar('chat_message.author_id') },
    createDefaults: (identity) => ({ author_id: identity.user_id, fullname: identity.fullname }),
    rules: messageRules,
    toEvent: messageEvent,
    topic: ENTITY_TOPICS.chat_message,
  }));

  kit.registry
    .register({
      name: 'chat_mark_read',
      params: ChatReadParams,
      access: 'any',
      handler: async (ctx, p) => {
        // the generic read applies the reader's reach: another client's chat does not exist for them
        await chats.get(ctx.db, ctx.identity, p.chat_id);
        const userId = ctx.identity.user_id;
        const newest = Number(
          (await ctx.db('chat_message').where({ chat_id: p.chat_id }).max('id as id').first())?.id ?? 0,
        );
        // never beyond the chat's newest message: a larger id would hide every later message from the count
        const upTo = Math.min(p.message_id ?? newest, newest);
        await ctx.db.raw(
          `insert into chat_read (chat_id, user_id, last_read_id) values (?, ?, ?)
           on conflict (chat_id, user_id) do update
             set last_read_id = greatest(chat_read.last_read_id, excluded.last_read_id), updated_at = now()`,
          [p.chat_id, userId, upTo],
        );
        return { chat_id: p.chat_id, unread_count: await unreadCount(ctx.db, p.chat_id, userId) };
      },
    })
    .register({
      name: 'chat_unread_list',
      params: NoParams,
      access: 'any',
      readOnly: true,
      handler: async (ctx): Promise<ChatUnread[]> => {
        const me = ctx.identity.user_id;
        const q = ctx
          .db('chat')
          .join('chat_message as m', 'm.chat_id', 'chat.id')
          .leftJoin('chat_read as r', (j) => j.on('r.chat_id', 'chat.id').andOnVal('r.user_id', me))
          .where('chat.deleted', false)
          .where('m.deleted', false)
          .whereNot('m.author_id', me)
          .whereRaw('m.id > coalesce(r.last_read_id, 0)')
          .groupBy('chat.id')
          .orderByRaw('max(m.id) desc')
          .limit(100)
          .select(
            'chat.id as chat_id',
            'chat.table_name',
            'chat.table_id',
            ctx.db.raw('count(*)::int as unread'),
          );
        applyOwnership(q, ctx.identity, CHAT_REACH);
        return q;
      },
    });
  return { chats, messages };
}
