import { MESSAGES, USER_MESSAGES } from '@caravan/contracts';
import { BusinessError, type Db } from '@caravan/service-kit';
import { DUMMY_HASH_PROMISE, verifyPassword, type ScryptGate } from './passwords';
import type { Sessions, UserRow } from './sessions';

export type LoginLimits = {
  /** Failures on one account from one address. */
  perAccount: number;
  /** Failures from one address, whatever the accounts. */
  perIp: number;
  /** Failures on one account from all addresses that never signed in to it (a distributed guess). */
  perAccountFromStrangers: number;
  windowMinutes: number;
};

/** An address that signed in to an account within this many days is the owner's, not a stranger's. */
const KNOWN_ADDRESS_DAYS = 30;

/**
 * Refuses the attacker, not the owner: failures are counted per account and address, per address,
 * and per account from addresses that never signed in to it. A guesser elsewhere never locks the
 * owner out of their usual address; one address guessing many accounts is stopped too.
 */
async function assertNotThrottled(db: Db, limits: LoginLimits, email: string, ip: string) {
  const since = db.raw(`now() - ? * interval '1 minute'`, [limits.windowMinutes]);
  const failures = db('login_attempt').where({ success: false }).where('at', '>', since);
  const knownAddresses = db('login_attempt')
    .select('ip')
    .where({ email, success: true })
    .where('at', '>', db.raw(`now() - ? * interval '1 day'`, [KNOWN_ADDRESS_DAYS]));
  const [row] = (await db.select({
    pair: failures.clone().where({ email, ip }).count('*'),
    address: failures.clone().where({ ip }).count('*'),
    strangers: failures.clone().where({ email }).whereNotIn('ip', knownAddresses).count('*'),
    known: db.raw('exists(?)', [knownAddresses.clone().where({ ip })]),
  })) as { pair: string; address: string; strangers: string; known: boolean }[];
  const n = (v: unknown) => Number(v ?? 0);
  // the counts include this attempt, recorded before the check: parallel guesses cannot slip past
  if (
    n(row?.pair) > limits.perAccount ||
    n(row?.address) > limits.perIp ||
    (!row?.known && n(row?.strangers) > limits.perAccountFromStrangers)
  )
    throw new BusinessError(MESSAGES.tooManyAttempts);
}

/**
 * Email + password login. A wrong email and a wrong password get the same message and take the
 * same time.
 */
export async function login(
  db: Db,
  sessions: Sessions,
  gate: ScryptGate,
  limits: LoginLimits,
  email: string,
  password: string,
  ip: string,
): Promise<{ token: string; user: UserRow }> {
  const normalized = email.trim().toLowerCase();
  // counted as a failure first (a success turns it into one), so a burst of parallel guesses cannot
  // all pass the throttle before any of them is recorded
  const [attempt] = await db('login_attempt')
    .insert({ email: normalized, ip, success: false })
    .returning('id');
  await assertNotThrottled(db, limits, normalized, ip);
  const user: UserRow | undefined = await db('user_table')
    .whereRaw('lower(email) = ?', [normalized])
    .where({ deleted: false })
    .first();
  const stored = user?.password_hash ?? (await DUMMY_HASH_PROMISE);
  const valid = await gate.run(
    () => verifyPassword(password, stored),
    () => new BusinessError(MESSAGES.tooManyAttempts),
  );
  if (!user || !valid) throw new BusinessError(MESSAGES.wrongCredentials);
  await db('login_attempt').where({ id: attempt.id }).update({ success: true });
  // told only to someone who knows the password
  if (!user.email_confirmed_at) throw new BusinessError(USER_MESSAGES.emailNotConfirmed);
  return { token: await sessions.create(user.id, ip), user };
}
