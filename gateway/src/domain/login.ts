import { createHash, randomBytes } from 'node:crypto';
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

/** The device cookie (OWASP's "device cookie"): a browser that signed in to an account before. */
export const DEVICE_COOKIE = 'caravan_device';
export const DEVICE_COOKIE_DAYS = 180;
export const newDeviceToken = () => randomBytes(24).toString('base64url');
const deviceHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** Slows an address over its limit: its correct passwords still pass, guesses come slower. */
const ADDRESS_OVER_LIMIT_DELAY_MS = 1000;

type Throttle = 'free' | 'slow' | 'refused';

/**
 * Refuses the attacker, not the owner. A browser that signed in to the account before (its device
 * cookie) counts only its own failures: strangers never lock it out. Otherwise failures are counted
 * per account and address, and per account from addresses that never signed in to it; the address
 * as a whole (many accounts behind one NAT) is only slowed, never refused a correct password.
 */
async function throttle(
  db: Db,
  limits: LoginLimits,
  email: string,
  ip: string,
  device: string | null,
): Promise<Throttle> {
  const since = db.raw(`now() - ? * interval '1 minute'`, [limits.windowMinutes]);
  const failures = db('login_attempt').where({ success: false }).where('at', '>', since);
  const n = (v: unknown) => Number(v ?? 0);
  if (device) {
    const [own] = (await db.select({
      known: db.raw('exists(?)', [
        db('login_attempt')
          .where({ email, device, success: true })
          .where('at', '>', db.raw(`now() - ? * interval '1 day'`, [DEVICE_COOKIE_DAYS])),
      ]),
      failed: failures.clone().where({ email, device }).count('*'),
    })) as { known: boolean; failed: string }[];
    if (own?.known) return n(own.failed) > limits.perAccount ? 'refused' : 'free';
  }
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
  // the counts include this attempt, recorded before the check: parallel guesses cannot slip past
  if (n(row?.pair) > limits.perAccount || (!row?.known && n(row?.strangers) > limits.perAccountFromStrangers))
    return 'refused';
  return n(row?.address) > limits.perIp ? 'slow' : 'free';
}

/**
 * Email + password login. A wrong email and a wrong password get the same message and take the
 * same time. `deviceToken` is the browser's device cookie, if any; the reply's `deviceToken` is the
 * one to keep (a new one after the first sign-in from this browser).
 */
export async function login(
  db: Db,
  sessions: Sessions,
  gate: ScryptGate,
  limits: LoginLimits,
  email: string,
  password: string,
  ip: string,
  deviceToken: string | null = null,
): Promise<{ token: string; user: UserRow; deviceToken: string }> {
  const normalized = email.trim().toLowerCase();
  const device = deviceToken ? deviceHash(deviceToken) : null;
  // counted as a failure first (a success turns it into one), counted and recorded under one lock per
  // account: a burst of parallel guesses cannot all pass the throttle before any of them is recorded,
  // and a refused attempt (never checked) is not recorded, so it never extends the lock
  const { attempt, state } = await db.transaction(async (trx) => {
    await trx.raw("select pg_advisory_xact_lock(hashtext('login_attempt:' || ?))", [normalized]);
    const [row] = await trx('login_attempt')
      .insert({ email: normalized, ip, success: false, device })
      .returning('id');
    const verdict = await throttle(trx, limits, normalized, ip, device);
    if (verdict === 'refused') throw new BusinessError(MESSAGES.tooManyAttempts);
    return { attempt: row as { id: number }, state: verdict };
  });
  if (state === 'slow') await new Promise((r) => setTimeout(r, ADDRESS_OVER_LIMIT_DELAY_MS));
  const user: UserRow | undefined = await db('user_table')
    .whereRaw('lower(email) = ?', [normalized])
    .where({ deleted: false })
    .first();
  const stored = user?.password_hash ?? (await DUMMY_HASH_PROMISE);
  const valid = await gate.run(
    () => verifyPassword(password, stored),
    () => new BusinessError(MESSAGES.tooManyAttempts),
  );
  if (!user || !valid)
    throw new BusinessError(state === 'slow' ? MESSAGES.tooManyAttempts : MESSAGES.wrongCredentials);
  const kept = deviceToken ?? newDeviceToken();
  await db('login_attempt')
    .where({ id: attempt.id })
    .update({ success: true, device: deviceHash(kept) });
  // told only to someone who knows the password
  if (!user.email_confirmed_at) throw new BusinessError(USER_MESSAGES.emailNotConfirmed);
  return { token: await sessions.create(user.id, ip), user, deviceToken: kept };
}
