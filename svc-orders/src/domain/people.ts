import type { TaskExecutor } from '@caravan/contracts';
import type { Db } from '@caravan/service-kit';

/**
 * Users as svc-orders knows them: replicated from the gateway's identity events (user: name, photo,
 * roles, state; client_user_link, operator_user_link), docs/adr/0023. Names for a task's responsible
 * and a chat message's author; who may be a task's responsible.
 */

/** SQL: a user's name from the replica, for a column holding a user id. */
export const personName = (column: string) => ({
  sql: `select u.data->>'fullname' from replica u where u.entity = 'user' and u.id = ${column}`,
  kind: 'text' as const,
});

/** SQL: a user's photo from the replica, for a column holding a user id. */
export const personAvatar = (column: string) => ({
  sql: `select u.data->>'avatar' from replica u where u.entity = 'user' and u.id = ${column}`,
  kind: 'text' as const,
});

const WORKING_USER = `u.entity = 'user' and not u.deleted and u.data->>'state' = 'working'`;
const HAS_ROLE = (role: string) => `u.data->'roles' @> '["${role}"]'::jsonb`;

/**
 * The working staff who reach an order of this operator: every admin, and the operator users linked
 * to the operator. They may be a task's responsible on it.
 */
export async function staffOfOperator(db: Db, operatorId: number | null): Promise<TaskExecutor[]> {
  const { rows } = (await db.raw(
    `select u.id, coalesce(u.data->>'fullname', '') as fullname,
            array(select jsonb_array_elements_text(u.data->'roles')) as roles
       from replica u
      where ${WORKING_USER}
        and (${HAS_ROLE('admin')}
             or (${HAS_ROLE('operator')} and exists (
                  select 1 from replica l
                   where l.entity = 'operator_user_link' and not l.deleted
                     and (l.data->>'user_table_id')::bigint = u.id
                     and (l.data->>'operator_id')::bigint = ?)))
      order by fullname, u.id`,
    [operatorId ?? 0],
  )) as { rows: { id: string | number; fullname: string; roles: string[] }[] };
  return rows.map((r) => ({ id: Number(r.id), fullname: r.fullname, roles: r.roles }));
}

/** Does the replica know this user (any state)? */
export async function knownUser(db: Db, userId: number): Promise<boolean> {
  return Boolean(await db('replica').where({ entity: 'user', id: userId }).first('id'));
}
