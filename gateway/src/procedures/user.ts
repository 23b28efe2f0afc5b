import { ListParams, type CurrentUser } from '@caravan/contracts';
import { BusinessError, type ProcedureRegistry } from '@caravan/service-kit';
import { z } from 'zod';
import { fullName, type UserRow } from '../domain/sessions';

export const toCurrentUser = (u: UserRow): CurrentUser => ({
  id: u.id,
  email: u.email,
  fullname: fullName(u),
  avatar: u.photo,
  role: u.roles as CurrentUser['role'],
  options: { state: u.state, settings: (u.options?.settings as Record<string, unknown>) ?? {} },
});

const USER_COLUMNS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'phone',
  'roles',
  'state',
  'telegram_id',
  'deleted',
  'created_at',
];

/** The gateway's own procedures (identity). The user directory grows with the identity work. */
export function registerUserProcedures(registry: ProcedureRegistry) {
  registry.register({
    name: 'user_current',
    params: z.strictObject({}),
    access: 'any',
    handler: async (ctx) => {
      const user: UserRow | undefined = await ctx
        .db('user_table')
        .where({ id: ctx.identity.user_id })
        .first();
      if (!user) throw new BusinessError('пользователь не найден');
      return toCurrentUser(user);
    },
  });
  registry.register({
    name: 'user_list',
    params: ListParams,
    access: 'admin',
    handler: async (ctx, p) => {
      const q = ctx.db('user_table').where({ deleted: p.deleted });
      const search = (p.search ?? p.search_text)?.trim();
      if (search)
        q.where((b) => b.whereILike('email', `%${search}%`).orWhereILike('last_name', `%${search}%`));
      const total = await q.clone().count({ n: '*' }).first();
      const items = await q
        .select(USER_COLUMNS)
        .orderBy('id', 'desc')
        .limit(p.per_page)
        .offset((p.page - 1) * p.per_page);
      return { items, total: Number(total?.n ?? 0), page: p.page, per_page: p.per_page };
    },
  });
}
