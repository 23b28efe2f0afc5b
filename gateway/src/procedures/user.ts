import {
  clientUserLink,
  IDENTITY_TOPIC,
  operatorUserLink,
  ProfileParams,
  user,
  type CurrentUser,
  SETTINGS_LABELS,
  SettingsParams,
  NoParams,
} from '@caravan/contracts';
import { BusinessError, registerEntity, type ProcedureRegistry } from '@caravan/service-kit';
import { fullName, type UserRow } from '../domain/sessions';

export const toCurrentUser = (u: UserRow): CurrentUser => ({
  id: u.id,
  email: u.email,
  fullname: fullName(u),
  first_name: u.first_name,
  last_name: u.last_name,
  phone: u.phone,
  avatar: u.photo,
  role: u.roles as CurrentUser['role'],
  options: { state: u.state, settings: (u.options?.settings as Record<string, unknown>) ?? {} },
});

/**
 * What of a user goes into its identity event: what says who may do what, the name and photo others
 * see, and the email address notifications are mailed to (never the password hash or the phone).
 * svc-orders keeps it as a replica: the telegram dialog's recipients, a task's responsible and a chat
 * message's author (docs/adr/0023), the address of a notification mail (docs/adr/0028) — which no reply
 * of it shows to another user.
 */
export const userEventRow = (row: Record<string, unknown> & { id: number }) => ({
  id: row.id,
  deleted: row.deleted,
  state: row.state,
  roles: row.roles,
  fullname: `${String(row.first_name ?? '')} ${String(row.last_name ?? '')}`.trim(),
  avatar: (row.photo as string | null | undefined) ?? null,
  email: (row.email as string | null | undefined) ?? null,
});

/**
 * The gateway's own procedures: the current user, the user directory and the user↔client /
 * user↔operator links (admin only, through the generic helpers: history included), and the profile.
 */
export function registerUserProcedures(registry: ProcedureRegistry) {
  const users = registerEntity(registry, {
    contract: user,
    table: 'user_table',
    read: 'admin',
    write: 'admin',
    readonlyColumns: ['email_confirmed_at'],
    // every gateway drops the user's cached identity (state, roles, name): only what says so is published
    topic: IDENTITY_TOPIC,
    toEvent: (row) => userEventRow(row) as typeof row,
  });
  const linkEvent = { topic: IDENTITY_TOPIC };
  registerEntity(registry, { contract: clientUserLink, read: 'admin', write: 'admin', ...linkEvent });
  registerEntity(registry, { contract: operatorUserLink, read: 'admin', write: 'admin', ...linkEvent });

  registry.register({
    name: 'user_current',
    params: NoParams,
    access: 'self',
    handler: async (ctx) => {
      const row: UserRow | undefined = await ctx.db('user_table').where({ id: ctx.identity.user_id }).first();
      if (!row) throw new BusinessError('пользователь не найден');
      return toCurrentUser(row);
    },
  });

  // Every user keeps their own lists (favourite and archived orders) in options.settings.
  registry.register({
    name: 'profile_settings_update',
    params: SettingsParams,
    labels: SETTINGS_LABELS,
    access: 'any',
    handler: (ctx, p) =>
      ctx.db.transaction(async (trx) => {
        await trx('user_table')
          .where({ id: ctx.identity.user_id })
          .update({
            options: trx.raw(
              `jsonb_set(coalesce(options, '{}'::jsonb), '{settings}', coalesce(options->'settings', '{}'::jsonb) || ?::jsonb)`,
              [JSON.stringify(p)],
            ),
          });
        const row: UserRow = await trx('user_table').where({ id: ctx.identity.user_id }).first();
        // every gateway instance forgets its cached copy of the user, as after profile_update
        await users.publish(ctx.outbox, trx, row as never, 'updated', ctx.identity.user_id);
        return toCurrentUser(row);
      }),
  });

  // Every user edits their own name, phone and photo; nothing else, and nobody else's.
  registry.register({
    name: 'profile_update',
    params: ProfileParams,
    access: 'any',
    handler: async (ctx, p) => {
      await users.update(ctx, { id: ctx.identity.user_id, ...p });
      const row: UserRow = await ctx.db('user_table').where({ id: ctx.identity.user_id }).first();
      return toCurrentUser(row);
    },
  });
}
