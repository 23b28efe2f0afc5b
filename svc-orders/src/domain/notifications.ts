import {
  NOTIFICATION_CHANNELS_DEFAULT,
  NOTIFICATION_EVENTS,
  NotificationCreated,
  type NotificationCategory,
  type NotificationChannels,
  type NotificationCreated as Created,
  type NotificationOptions,
  type NotificationTable,
  type NotificationType,
} from '@caravan/contracts';
import type { Db, EntityStore, Outbox } from '@caravan/service-kit';

type Row = Record<string, unknown> & { id: number; deleted: boolean };

/**
 * Who hears of something about an order or a wallet: the users linked to its client, to its operator,
 * the admins when it asks someone to act — never the user whose own action it tells of.
 */
export type Audience = {
  clientId?: number | null;
  operatorId?: number | null;
  /** Every admin, or only these admins (those who took part: wrote in a chat). */
  admins?: boolean | readonly number[];
  /** Of the audience, only these users (a task's responsible or author: still someone who sees the order). */
  only?: readonly number[];
  except?: number | null;
};

/** One notice, before it is made for each recipient. */
export type NotificationDraft = {
  /** The event or the fact it tells of: a recipient gets one notification per source, however often it comes. */
  sourceKey: string;
  label: string;
  message: string;
  type: NotificationType;
  category: NotificationCategory;
  table_name: NotificationTable;
  item_id: number | null;
  options: NotificationOptions;
  /**
   * Notices of one kind that gather in one unread row per user (the positions of one order reaching a
   * stage): `member` is what this notice adds, `texts` the row's texts for a count of members.
   */
  group?: {
    key: string;
    member: number;
    texts(count: number): { label: string; message: string };
    /** What the members are, naming the options that count them (`position_ids`, `position_count`). */
    noun?: 'position' | 'message';
  };
};

/** The options of a gathering row that hold its members and their count. */
const memberKeys = (group: NonNullable<NotificationDraft['group']>) => {
  const noun = group.noun ?? 'position';
  return { ids: `${noun}_ids`, count: `${noun}_count` } as const;
};

export type NotifyContext = { store: EntityStore; outbox: Outbox };

/** A list of users as a query parameter, given twice (tested for null, then read). */
const twice = (users: readonly number[] | null) => {
  const json = users ? JSON.stringify(users) : null;
  return [json, json];
};

/**
 * The recipients of an audience, from the identity replica svc-orders keeps of the gateway's users and
 * links (gateway.identity.v1): linked users who are working (or not yet known to be otherwise).
 */
export async function recipients(trx: Db, audience: Audience): Promise<number[]> {
  const { rows } = (await trx.raw(
    `select distinct r.uid from (
       select (l.data->>'user_table_id')::bigint as uid from replica l
        where l.entity = 'client_user_link' and not l.deleted and (l.data->>'client_id')::bigint = ?
       union all
       select (l.data->>'user_table_id')::bigint from replica l
        where l.entity = 'operator_user_link' and not l.deleted and (l.data->>'operator_id')::bigint = ?
       union all
       select u.id from replica u
        where ? and u.entity = 'user' and u.data->'roles' @> '["admin"]'
          and (?::jsonb is null or u.id in (select jsonb_array_elements_text(?::jsonb)::bigint))
     ) r
     where r.uid is distinct from ?::bigint
       and (?::jsonb is null or r.uid in (select jsonb_array_elements_text(?::jsonb)::bigint))
       and not exists (select 1 from replica u where u.entity = 'user' and u.id = r.uid
                         and (u.deleted or coalesce(u.data->>'state', 'working') <> 'working'))
     order by r.uid`,
    [
      audience.clientId ?? null,
      audience.operatorId ?? null,
      Boolean(audience.admins),
      ...twice(Array.isArray(audience.admins) ? audience.admins : null),
      audience.except ?? null,
      ...twice(audience.only ?? null),
    ],
  )) as { rows: { uid: string }[] };
  return rows.map((r) => Number(r.uid));
}

/** The roles the identity replica knows of a user (the actor of an event), or none. */
export async function rolesOf(trx: Db, userId: number | null): Promise<string[]> {
  if (userId === null) return [];
  const row = (await trx('replica').where({ entity: 'user', id: userId }).first('data')) as
    { data: { roles?: string[] } } | undefined;
  return row?.data.roles ?? [];
}

/** Each user's channels beyond the app (unchosen: the app only). */
export async function channelsOf(
  trx: Db,
  userIds: readonly number[],
): Promise<Map<number, NotificationChannels>> {
  const rows = (await trx('notification_channel')
    .whereIn('user_table_id', userIds)
    .select('user_table_id', 'email', 'telegram')) as ({ user_table_id: string } & NotificationChannels)[];
  const chosen = new Map(
    rows.map((r) => [Number(r.user_table_id), { email: r.email, telegram: r.telegram }]),
  );
  return new Map(userIds.map((id) => [id, chosen.get(id) ?? NOTIFICATION_CHANNELS_DEFAULT]));
}

const chosenChannels = (c: NotificationChannels): Created['channels'] => [
  ...(c.email ? (['email'] as const) : []),
  ...(c.telegram ? (['telegram'] as const) : []),
];

/** New rows' events: the row itself (the recipient's live stream) and the delivery seam `notification.created`. */
async function announce(trx: Db, ctx: NotifyContext, created: Row[]) {
  if (!created.length) return;
  await ctx.store.publishMany(ctx.outbox, trx, created, 'created', null);
  const channels = await channelsOf(
    trx,
    created.map((r) => Number(r.user_table_id)),
  );
  // a row whose user chose no channel beyond the app has nothing to deliver: no event (at 1,000 notices a
  // second these were 1,000 inbox transactions a second doing nothing)
  const toDeliver = created
    .map((row) => ({ row, chosen: chosenChannels(channels.get(Number(row.user_table_id))!) }))
    .filter(({ chosen }) => chosen.length > 0);
  if (!toDeliver.length) return;
  await ctx.outbox.writeMany(
    trx,
    toDeliver.map(({ row, chosen }) => ({
      topic: ctx.store.def.topic!,
      key: row.id,
      type: NOTIFICATION_EVENTS.created,
      actor: null,
      data: NotificationCreated.parse({ notification: JSON.parse(JSON.stringify(row)), channels: chosen }),
    })),
  );
}

/** Inserts the draft for these users at once; a user who has it from this source already is skipped. */
async function insertFor(trx: Db, ctx: NotifyContext, users: readonly number[], draft: NotificationDraft) {
  const texts = draft.group ? draft.group.texts(1) : draft;
  const keys = draft.group && memberKeys(draft.group);
  const options = keys
    ? { ...draft.options, [keys.count]: 1, [keys.ids]: [draft.group!.member] }
    : draft.options;
  const { rows } = (await trx.raw(
    `insert into notification (user_table_id, label, message, type, category, table_name, item_id, options,
                               source_key, group_key)
     select u::bigint, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ? from jsonb_array_elements_text(?::jsonb) u
     on conflict do nothing
     returning ${ctx.store.stored.map(() => '??').join(', ')}`,
    [
      texts.label,
      texts.message,
      draft.type,
      draft.category,
      draft.table_name,
      draft.item_id,
      JSON.stringify(options),
      draft.sourceKey,
      draft.group?.key ?? null,
      JSON.stringify(users),
      ...ctx.store.stored,
    ],
  )) as { rows: Row[] };
  return rows;
}

/**
 * Adds a member to the user's unread gathering row of the draft's group (locked), unless it holds it
 * already (the same position again). False when the user has no such row.
 */
async function gatherInto(trx: Db, ctx: NotifyContext, user: number, draft: NotificationDraft) {
  const group = draft.group!;
  const row = (await trx('notification')
    .where({ user_table_id: user, group_key: group.key, is_read: false })
    .forUpdate()
    .first(ctx.store.stored as string[])) as Row | undefined;
  if (!row) return false;
  const keys = memberKeys(group);
  const options = row.options as NotificationOptions & Record<string, unknown>;
  const members = (options[keys.ids] as number[] | undefined) ?? [];
  if (members.includes(group.member)) return true;
  const count = members.length + 1;
  const texts = group.texts(count);
  // members in id order (their creation order): events of different keys (two chat messages) may arrive swapped
  const ids = [...members, group.member].sort((a, b) => a - b);
  const next = { ...options, [keys.ids]: ids, [keys.count]: count };
  const [updated] = (await trx('notification')
    .where({ id: row.id })
    .update({ ...texts, options: JSON.stringify(next), updated_at: trx.fn.now() })
    .returning(ctx.store.stored as string[])) as Row[];
  const prev = { label: row.label, message: row.message, options: row.options };
  await ctx.store.publish(ctx.outbox, trx, updated!, 'updated', null, prev);
  return true;
}

/**
 * Makes the draft's notification for every user of the audience, inside the caller's transaction (the
 * inbox's, so an event's notices exist only if it is marked handled). Returns how many were made or
 * gathered.
 */
export async function notify(
  trx: Db,
  ctx: NotifyContext,
  audience: Audience,
  draft: NotificationDraft,
): Promise<number> {
  const users = await recipients(trx, audience);
  if (!users.length) return 0;
  if (!draft.group) {
    const created = await insertFor(trx, ctx, users, draft);
    await announce(trx, ctx, created);
    return created.length;
  }
  let touched = 0;
  for (const user of users) {
    // the user's gathering row first; only without one is a new row made (two at once: the unique index decides)
    if (await gatherInto(trx, ctx, user, draft)) {
      touched++;
      continue;
    }
    const created = await insertFor(trx, ctx, [user], draft);
    if (created.length) await announce(trx, ctx, created);
    // another consumer made the row meanwhile (or this source was told and read already)
    else if (!(await gatherInto(trx, ctx, user, draft))) continue;
    touched++;
  }
  return touched;
}
