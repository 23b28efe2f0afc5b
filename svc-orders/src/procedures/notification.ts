import {
  ENTITY_TOPICS,
  notification,
  NOTIFICATION_MESSAGES,
  NOTIFICATION_PARAM_LABELS,
  NoParams,
  NotificationChannelsUpdateParams,
  NotificationCheckParams,
  NotificationMarkAllReadParams,
  NotificationMarkReadParams,
  todayLocal,
  type NotificationChannels,
} from '@caravan/contracts';
import {
  BusinessError,
  registerEntity,
  type Db,
  type EntityStore,
  type Outbox,
  type ServiceKit,
} from '@caravan/service-kit';
import { z } from 'zod';
import { checkMissingAtConsolidation } from '../domain/consolidationCheck';
import { channelsOf } from '../domain/notifications';

type Row = Record<string, unknown> & { id: number; deleted: boolean };

/** The user's channels as the profile shows them: the app always, email and Telegram as chosen. */
const channelsReply = (c: NotificationChannels) => ({ app: true, email: c.email, telegram: c.telegram });

/**
 * Marks the caller's unread notifications read (all of them, or one), each with its event: the
 * recipient's other tabs drop it from the drawer. Only the recipient marks: read state is per user.
 */
async function markRead(trx: Db, store: EntityStore, outbox: Outbox, userId: number, id?: number) {
  const query = trx('notification').where({ user_table_id: userId, is_read: false, deleted: false });
  if (id !== undefined) query.where({ id });
  const rows = (await query
    .update({ is_read: true, read_at: trx.fn.now(), updated_at: trx.fn.now() })
    .returning(store.stored as string[])) as Row[];
  const prevs = new Map(rows.map((r) => [Number(r.id), { is_read: false, read_at: null }]));
  await store.publishMany(outbox, trx, rows, 'updated', userId, undefined, prevs);
  return rows;
}

/** How often the consolidation check runs (seconds; 0 = never): NOTIFICATION_CHECK_EVERY_SECONDS, default 3600. */
const CheckEnv = z.object({
  NOTIFICATION_CHECK_EVERY_SECONDS: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce.number().min(0).default(3600),
  ),
});

/** The consolidation check now and then, one run at a time, stopped with the service. */
function scheduleCheck(kit: ServiceKit, run: () => Promise<unknown>, everySeconds: number) {
  if (everySeconds <= 0) return;
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    if (stopped) return;
    running = running.then(run).catch((err: unknown) => kit.log.warn({ err }, 'consolidation check failed'));
  }, everySeconds * 1000);
  timer.unref();
  kit.onStop(async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  });
}

/**
 * Notifications (spec §3, docs/adr/0021): `notification_list` / `_get_by_id` (a user reads their own;
 * an admin every user's, for the admin list), `notification_mark_read` and `notification_mark_all_read`
 * (the caller's own), the channel choice `notification_channels_get` / `_update`, and the consolidation
 * check (`notification_check_missing`, and on a schedule).
 */
export function registerNotification(kit: ServiceKit, env: Record<string, string | undefined>): EntityStore {
  const store = registerEntity(kit.registry, {
    contract: notification,
    read: 'any',
    write: 'admin',
    json: ['options'],
    readScope: (q, identity) => q.where('notification.user_table_id', identity.user_id),
    rules: () => {
      throw new BusinessError(NOTIFICATION_MESSAGES.byEventsOnly);
    },
    // so `_rights` tells the admin's card the same: no save, no delete
    rowChangeRefusal: () => NOTIFICATION_MESSAGES.byEventsOnly,
    topic: ENTITY_TOPICS.notification,
  });

  kit.registry.register({
    name: 'notification_mark_read',
    params: NotificationMarkReadParams,
    labels: NOTIFICATION_PARAM_LABELS,
    access: 'any',
    handler: (ctx, p) =>
      ctx.db.transaction(async (trx) => {
        const [marked] = await markRead(trx, store, ctx.outbox, ctx.identity.user_id, p.id);
        if (marked) return store.get(trx, ctx.identity, marked.id);
        // read already (another tab was first): the same answer; someone else's or none: not found
        const own = await trx('notification')
          .where({ id: p.id, user_table_id: ctx.identity.user_id, deleted: false })
          .first('id');
        if (!own) throw new BusinessError(NOTIFICATION_MESSAGES.notFound);
        return store.get(trx, ctx.identity, p.id);
      }),
  });
  kit.registry.register({
    name: 'notification_mark_all_read',
    params: NotificationMarkAllReadParams,
    access: 'any',
    handler: (ctx) =>
      ctx.db.transaction(async (trx) => {
        const rows = await markRead(trx, store, ctx.outbox, ctx.identity.user_id);
        return { count: rows.length, message: NOTIFICATION_MESSAGES.allMarkedRead(rows.length) };
      }),
  });

  kit.registry.register({
    name: 'notification_channels_get',
    params: NoParams,
    access: 'any',
    readOnly: true,
    handler: async (ctx) =>
      channelsReply((await channelsOf(ctx.db, [ctx.identity.user_id])).get(ctx.identity.user_id)!),
  });
  kit.registry.register({
    name: 'notification_channels_update',
    params: NotificationChannelsUpdateParams,
    labels: NOTIFICATION_PARAM_LABELS,
    access: 'any',
    handler: (ctx, p) =>
      ctx.db.transaction(async (trx) => {
        const userId = ctx.identity.user_id;
        const current = (await channelsOf(trx, [userId])).get(userId)!;
        const next = { ...current, ...p };
        await trx.raw(
          `insert into notification_channel (user_table_id, email, telegram) values (?, ?, ?)
           on conflict (user_table_id) do update
             set email = excluded.email, telegram = excluded.telegram, updated_at = now()`,
          [userId, next.email, next.telegram],
        );
        return { ...channelsReply(next), message: NOTIFICATION_MESSAGES.channelsSaved };
      }),
  });

  const check = (date: string) =>
    checkMissingAtConsolidation(kit.db, { store, outbox: kit.outbox }, date).finally(() => kit.afterWrite());
  kit.registry.register({
    name: 'notification_check_missing',
    params: NotificationCheckParams,
    labels: NOTIFICATION_PARAM_LABELS,
    access: 'admin',
    handler: async (_ctx, p) => {
      const told = await check(p.date ?? todayLocal());
      return { count: told, message: NOTIFICATION_MESSAGES.checked(told) };
    },
  });
  scheduleCheck(kit, () => check(todayLocal()), CheckEnv.parse(env).NOTIFICATION_CHECK_EVERY_SECONDS);
  return store;
}
