import { MESSAGES, USER_MESSAGES } from '@caravan/contracts';
import { BusinessError, type Db } from '@caravan/service-kit';
import { DUMMY_HASH_PROMISE, verifyPassword } from './passwords';
import type { Sessions, UserRow } from './sessions';

export type LoginLimits = { perAccount: number; perIp: number; windowMinutes: number };

/**
 * Email + password login. Failed attempts are counted per account and per IP over a window; a wrong
 * email and a wrong password get the same message and take the same time.
 */
export async function login(
  db: Db,
  sessions: Sessions,
  limits: LoginLimits,
  email: string,
  password: string,
  ip: string,
): Promise<{ token: string; user: UserRow }> {
  const normalized = email.trim().toLowerCase();
  const since = db.raw(`now() - ? * interval '1 minute'`, [limits.windowMinutes]);
  const failures = (where: Record<string, string>) =>
    db('login_attempt')
      .where(where)
      .where({ success: false })
      .where('at', '>', since)
      .count({ n: '*' })
      .first();
  const [byAccount, byIp] = await Promise.all([failures({ email: normalized }), failures({ ip })]);
  if (Number(byAccount?.n) >= limits.perAccount || Number(byIp?.n) >= limits.perIp)
    throw new BusinessError(MESSAGES.tooManyAttempts);

  const user: UserRow | undefined = await db('user_table')
    .whereRaw('lower(email) = ?', [normalized])
    .where({ deleted: false })
    .first();
  const valid = await verifyPassword(password, user?.password_hash ?? (await DUMMY_HASH_PROMISE));
  await db('login_attempt').insert({ email: normalized, ip, success: Boolean(user && valid) });
  if (!user || !valid) throw new BusinessError(MESSAGES.wrongCredentials);
  // told only to someone who knows the password
  if (!user.email_confirmed_at) throw new BusinessError(USER_MESSAGES.emailNotConfirmed);
  return { token: await sessions.create(user.id, ip), user };
}
