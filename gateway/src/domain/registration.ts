import { createHash, randomBytes } from 'node:crypto';
import {
  EVENT_TYPES,
  IDENTITY_TOPIC,
  MESSAGES,
  USER_MESSAGES,
  type SessionRevoked,
} from '@caravan/contracts';
import { BusinessError, type Db, type Logger, type Outbox } from '@caravan/service-kit';
import type { Mailer } from '../adapters/mail/mailer';
import { HashingGate } from './passwords';

type Purpose = 'confirm' | 'recover';
const TTL_HOURS: Record<Purpose, number> = { confirm: 48, recover: 1 };

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export type Registration = {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  log: Logger;
  outbox: Outbox;
  gate: HashingGate;
  /** Registrations allowed from one address per hour. */
  maxPerIpPerHour: number;
};

const tooBusy = () => new BusinessError(MESSAGES.tooManyRequests);

/** One address may start a bounded number of registrations an hour. */
async function countRegistration(r: Registration, ip: string) {
  const row = await r
    .db('registration_attempt')
    .where({ ip })
    .where('at', '>', r.db.raw("now() - interval '1 hour'"))
    .count({ n: '*' })
    .first();
  if (Number(row?.n ?? 0) >= r.maxPerIpPerHour) throw tooBusy();
  await r.db('registration_attempt').insert({ ip });
}

async function issueToken(db: Db, userId: number, purpose: Purpose): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db('email_token').insert({
    user_id: userId,
    purpose,
    token_hash: hashToken(token),
    expires_at: db.raw(`now() + ? * interval '1 hour'`, [TTL_HOURS[purpose]]),
  });
  return token;
}

/** Takes a token once: the user id, or null when it is unknown, used or expired. */
async function consumeToken(db: Db, token: string, purpose: Purpose): Promise<number | null> {
  const [row] = await db('email_token')
    .where({ token_hash: hashToken(token), purpose })
    .whereNull('used_at')
    .where('expires_at', '>', db.fn.now())
    .update({ used_at: db.fn.now() })
    .returning('user_id');
  return row ? Number(row.user_id) : null;
}

// Mail is sent after the reply is decided, so the answer (and its timing) says nothing about the address.
const sendLater = (r: Registration, send: () => Promise<void>) =>
  void send().catch((err) => r.log.error({ err }, 'mail could not be sent'));

/**
 * Registration: a new user waits for email confirmation, then for an admin (state waiting_auth).
 * The reply is the same whether the email is new, unconfirmed or taken, and takes the same time:
 * the password is hashed in every case (the hash is the slow part).
 */
export async function register(
  r: Registration,
  p: { login: string; password: string; first_name: string; last_name: string },
  ip: string,
): Promise<string> {
  await countRegistration(r, ip);
  const password_hash = await r.gate.hash(p.password, tooBusy);
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
    ? (
        await r
          .db('user_table')
          .where({ id: existing.id })
          .update({ password_hash, first_name: p.first_name, last_name: p.last_name })
          .returning('id')
      )[0].id
    : (
        await r
          .db('user_table')
          .insert({
            email: p.login,
            password_hash,
            first_name: p.first_name,
            last_name: p.last_name,
            roles: ['client'],
            state: 'waiting_auth',
          })
          .returning('id')
      )[0].id;
  const token = await issueToken(r.db, userId, 'confirm');
  sendLater(r, () =>
    r.mailer.send({
      to: p.login,
      subject: 'Caravan: подтверждение email',
      text: `Здравствуйте, ${p.first_name}!\n\nЧтобы завершить регистрацию в Caravan, перейдите по ссылке:\n${r.publicUrl}/check_user_email?token=${token}\n\nСсылка действует ${TTL_HOURS.confirm} часов.`,
    }),
  );
  return USER_MESSAGES.registrationSent;
}

export async function confirmEmail(r: Registration, token: string): Promise<string> {
  const userId = await consumeToken(r.db, token, 'confirm');
  if (!userId) throw new BusinessError(USER_MESSAGES.linkInactive);
  const updated = await r
    .db('user_table')
    .where({ id: userId })
    .whereNull('email_confirmed_at')
    .update({ email_confirmed_at: r.db.fn.now() });
  if (!updated) throw new BusinessError(USER_MESSAGES.linkInactive);
  return USER_MESSAGES.emailConfirmed;
}

/** Recovery: a one-hour link to set a new password; the same reply for any address. */
export async function requestRecovery(r: Registration, email: string): Promise<string> {
  const user = await r
    .db('user_table')
    .whereRaw('lower(email) = ?', [email])
    .where({ deleted: false })
    .first();
  if (user) {
    const token = await issueToken(r.db, user.id, 'recover');
    sendLater(r, () =>
      r.mailer.send({
        to: user.email,
        subject: 'Caravan: восстановление пароля',
        text: `Чтобы задать новый пароль, перейдите по ссылке:\n${r.publicUrl}/email_auth_recover_password?token=${token}\n\nСсылка действует ${TTL_HOURS.recover} час. Если вы не запрашивали восстановление, просто проигнорируйте это письмо.`,
      }),
    );
  }
  return USER_MESSAGES.recoverySent;
}

/** Sets the new password and ends every session of the user (every gateway drops them at once). */
export async function setNewPassword(r: Registration, token: string, password: string): Promise<string> {
  const password_hash = await r.gate.hash(password, tooBusy);
  return r.db.transaction(async (trx) => {
    const userId = await consumeToken(trx, token, 'recover');
    if (!userId) throw new BusinessError(USER_MESSAGES.recoveryLinkInactive);
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
