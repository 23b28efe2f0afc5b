import { createHash, randomBytes } from 'node:crypto';
import type { Identity, UserState } from '@caravan/contracts';
import type { Db } from '@caravan/service-kit';

export type UserRow = {
  id: number;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  phone: string | null;
  photo: string | null;
  roles: string[];
  state: UserState;
  options: Record<string, unknown>;
  deleted: boolean;
  email_confirmed_at: Date | null;
};

export type SessionPolicy = { idleHours: number; absoluteDays: number };

/** A live session's user, and when the session ends at the latest (its absolute expiry). */
export type SessionUser = UserRow & { session_expires_at: Date };

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
export const fullName = (u: Pick<UserRow, 'first_name' | 'last_name' | 'email'>) =>
  `${u.first_name} ${u.last_name}`.trim() || u.email;

/** Sessions: a random 256-bit token, stored only as its SHA-256, with idle and absolute expiry. */
export class Sessions {
  constructor(
    private readonly db: Db,
    private readonly policy: SessionPolicy,
  ) {}

  async create(userId: number, ip: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.db('session').insert({
      user_id: userId,
      token_hash: hashToken(token),
      ip,
      expires_at: this.db.raw(`now() + ? * interval '1 day'`, [this.policy.absoluteDays]),
    });
    return token;
  }

  /** The user behind a token, or null when the session is unknown, revoked, idle too long or expired. */
  async resolve(token: string | undefined): Promise<SessionUser | null> {
    if (!token || token.length > 200) return null;
    return this.resolveHash(hashToken(token));
  }

  /** The same, by the token's hash (what the gateway keeps in memory). */
  async resolveHash(tokenHash: string): Promise<SessionUser | null> {
    const row = await this.db('session as s')
      .join('user_table as u', 'u.id', 's.user_id')
      .select('u.*', 's.id as session_id', 's.last_seen_at', 's.expires_at as session_expires_at')
      .where('s.token_hash', tokenHash)
      .whereNull('s.revoked_at')
      .where('s.expires_at', '>', this.db.fn.now())
      .where('s.last_seen_at', '>', this.db.raw(`now() - ? * interval '1 hour'`, [this.policy.idleHours]))
      .where('u.deleted', false)
      .first();
    if (!row) return null;
    // Touch at most once a minute: idle expiry needs no per-request write.
    if (Date.now() - new Date(row.last_seen_at).getTime() > 60_000)
      await this.db('session').where({ id: row.session_id }).update({ last_seen_at: this.db.fn.now() });
    return row as SessionUser;
  }

  /** Ends a session; the user it belonged to, or null when it was not live. */
  async revoke(trx: Db, tokenHash: string): Promise<number | null> {
    const [row] = await trx('session')
      .where({ token_hash: tokenHash })
      .whereNull('revoked_at')
      .update({ revoked_at: trx.fn.now() })
      .returning('user_id');
    return row ? Number(row.user_id) : null;
  }
}

/** The identity the gateway signs for the services: roles, state and the user's links. */
export async function identityOf(db: Db, user: UserRow): Promise<Identity> {
  const [clients, operators] = await Promise.all([
    db('client_user_link').where({ user_table_id: user.id, deleted: false }).pluck('client_id'),
    db('operator_user_link').where({ user_table_id: user.id, deleted: false }).pluck('operator_id'),
  ]);
  return {
    user_id: user.id,
    fullname: fullName(user),
    roles: user.roles.filter((r): r is Identity['roles'][number] =>
      ['admin', 'operator', 'client'].includes(r),
    ),
    state: user.state,
    client_ids: clients.map(Number),
    operator_ids: operators.map(Number),
  };
}
