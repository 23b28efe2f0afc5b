import { createHash, randomBytes } from 'node:crypto';
import {
  EVENT_TYPES,
  IDENTITY_TOPIC,
  MESSAGES,
  USER_MESSAGES,
  type SessionRevoked,
} from '@caravan/contracts';
import { BusinessError, type Db, type Logger, type Mailer, type Outbox } from '@caravan/service-kit';
import type { ScryptGate } from './passwords';

type Purpose = 'confirm' | 'recover';
const TTL_HOURS: Record<Purpose, number> = { confirm: 48, recover: 1 };

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export type Registration = {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  log: Logger;
  outbox: Outbox;
  gate: ScryptGate;
  /** Registrations and recovery requests (each sends a mail) allowed from one address per hour. */
  maxPerIpPerHour: number;
};

/** Recovery mails one account gets per hour at most, whoever asks. */
const RECOVERY_MAILS_PER_ACCOUNT_HOUR = 3;

/** What a registration asks to become of its account once the mailbox's owner confirms it. */
type Pending = { password_hash: string; first_name: string; last_name: string };

const tooBusy = () => new BusinessError(MESSAGES.tooManyRequests);

/**
 * One address may ask for a bounded number of mails (registrations, recoveries) an hour. Counted and
 * recorded under one lock per address: parallel requests queue, so a burst gets no more than the limit.
 */
async function countMailRequest(r: Registration, ip: string) {
  await r.db.transaction(async (trx) => {
    await trx.raw("select pg_advisory_xact_lock(hashtext('registration_attempt:' || ?))", [ip]);
    const row = await trx('registration_attempt')
      .where({ ip })
      .where('at', '>', trx.raw("now() - interval '1 hour'"))
      .count({ n: '*' })
      .first();
    if (Number(row?.n ?? 0) >= r.maxPerIpPerHour) throw tooBusy();
    await trx('registration_attempt').insert({ ip });
  });
}

async function issueToken(db: Db, userId: number, purpose: Purpose, pending?: Pending): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db('email_token').insert({
    user_id: userId,
    purpose,
    token_hash: hashToken(token),
    pending: pending ? JSON.stringify(pending) : null,
    expires_at: db.raw(`now() + ? * interval '1 hour'`, [TTL_HOURS[purpose]]),
  });
  return token;
}

const liveToken = (db: Db, token: string, purpose: Purpose) =>
  db('email_token')
    .where({ token_hash: hashToken(token), purpose })
    .whereNull('used_at')
    .where('expires_at', '>', db.fn.now());

/** Takes a token once: its user and what it carries, or null when it is unknown, used or expired. */
async function consumeToken(
  db: Db,
  token: string,
  purpose: Purpose,
): Promise<{ userId: number; pending: Pending | null } | null> {
  const [row] = await liveToken(db, token, purpose)
    .update({ used_at: db.fn.now() })
    .returning(['user_id', 'pending']);
  return row ? { userId: Number(row.user_id), pending: row.pending ?? null } : null;
}

// Mail is sent after the reply is decided, so the answer (and its timing) says nothing about the address.
const sendLater = (r: Registration, send: () => Promise<void>) =>
  void send().catch((err) => r.log.error({ err }, 'mail could not be sent'));

/**
 * Registration: a new user waits for email confirmation, then for an admin (state waiting_auth).
 * The reply is the same whether the email is new, unconfirmed or taken, and takes the same time:
 * the password is hashed in every case (the hash is the slow part). An unconfirmed account is never
 * changed by a registration: the password and names travel in the mailed link, so only the owner of
 * the mailbox decides which registration becomes the account (no one can take it over beforehand).
 */
export async function register(
  r: Registration,
  p: { login: string; password: string; first_name: string; last_name: string },
  ip: string,
): Promise<string> {
  await countMailRequest(r, ip);
  const pending: Pending = {
    password_hash: await r.gate.hash(p.password, tooBusy),
    first_name: p.first_name,
    last_name: p.last_name,
  };
  const existing = await r.db('user_table').whereRaw('lower(email) = ?', [p.login]).first();
  if (existing?.email_confirmed_at) {
    sendLater(r, () =>
      r.mailer.send({
        to: p.login,
        subject: 'Caravan: попытка регистрации',
        text: `Кто-то пытался зарегистрироваться в Caravan с вашим email. Если это были вы и вы забыли пароль, восстановите его: ${r.publicUrl}/`,
      }),
    );
    return USER_MESSAGES.registrationSent;
  }
  const userId: number = existing
    ? existing.id
    : (
        await r
          .db('user_table')
          .insert({
            email: p.login,
            ...pending,
            roles: ['client'],
            state: 'waiting_auth',
          })
          .returning('id')
      )[0].id;
  const token = await issueToken(r.db, userId, 'confirm', pending);
  sendLater(r, () =>
    r.mailer.send({
      to: p.login,
      subject: 'Caravan: подтверждение email',
      text: `Здравствуйте, ${p.first_name}!\n\nЧтобы завершить регистрацию в Caravan, перейдите по ссылке:\n${r.publicUrl}/check_user_email?token=${token}\n\nСсылка действует ${TTL_HOURS.confirm} часов.`,
    }),
  );
  return USER_MESSAGES.registrationSent;
}

/** The mailbox's owner confirms: the account takes the password and names of the registration they confirm. */
export async function confirmEmail(r: Registration, token: string): Promise<string> {
  return r.db.transaction(async (trx) => {
    const taken = await consumeToken(trx, token, 'confirm');
    if (!taken) throw new BusinessError(USER_MESSAGES.linkInactive);
    const updated = await trx('user_table')
      .where({ id: taken.userId })
      .whereNull('email_confirmed_at')
      .update({ ...(taken.pending ?? {}), email_confirmed_at: trx.fn.now() });
    if (!updated) throw new BusinessError(USER_MESSAGES.linkInactive);
    return USER_MESSAGES.emailConfirmed;
  });
}

/**
 * Recovery: a one-hour link to set a new password. The reply is the same, and as fast, for any
 * address: the lookup and the mail happen after it. Bounded per address and per account.
 */
export async function requestRecovery(r: Registration, email: string, ip: string): Promise<string> {
  await countMailRequest(r, ip);
  sendLater(r, async () => {
    const user = await r
      .db('user_table')
      .whereRaw('lower(email) = ?', [email])
      .where({ deleted: false })
      .first();
    if (!user) return;
    const recent = await r
      .db('email_token')
      .where({ user_id: user.id, purpose: 'recover' })
      .where('created_at', '>', r.db.raw("now() - interval '1 hour'"))
      .count({ n: '*' })
      .first();
    if (Number(recent?.n ?? 0) >= RECOVERY_MAILS_PER_ACCOUNT_HOUR) return;
    const token = await issueToken(r.db, user.id, 'recover');
    await r.mailer.send({
      to: user.email,
      subject: 'Caravan: восстановление пароля',
      text: `Чтобы задать новый пароль, перейдите по ссылке:\n${r.publicUrl}/email_auth_recover_password?token=${token}\n\nСсылка действует ${TTL_HOURS.recover} час. Если вы не запрашивали восстановление, просто проигнорируйте это письмо.`,
    });
  });
  return USER_MESSAGES.recoverySent;
}

/** Sets the new password and ends every session of the user (every gateway drops them at once). */
export async function setNewPassword(r: Registration, token: string, password: string): Promise<string> {
  // a made-up link costs no hashing
  if (!(await liveToken(r.db, token, 'recover').first('id')))
    throw new BusinessError(USER_MESSAGES.recoveryLinkInactive);
  const password_hash = await r.gate.hash(password, tooBusy);
  return r.db.transaction(async (trx) => {
    const taken = await consumeToken(trx, token, 'recover');
    if (!taken) throw new BusinessError(USER_MESSAGES.recoveryLinkInactive);
    const userId = taken.userId;
    // following the link proves the address too
    await trx('user_table')
      .where({ id: userId })
      .update({ password_hash, email_confirmed_at: trx.raw('coalesce(email_confirmed_at, now())') });
    await trx('session')
      .where({ user_id: userId })
      .whereNull('revoked_at')
      .update({ revoked_at: trx.fn.now() });
    const revoked: SessionRevoked = { user_id: userId };
    await r.outbox.write(trx, {
      topic: IDENTITY_TOPIC,
      key: userId,
      type: EVENT_TYPES.sessionRevoked,
      actor: userId,
      data: revoked,
    });
    return USER_MESSAGES.passwordChanged;
  });
}
