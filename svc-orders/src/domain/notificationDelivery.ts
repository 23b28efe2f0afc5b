import type { NotificationCreated, NotificationTable } from '@caravan/contracts';
import { NOTIFICATION_EMAIL } from '@caravan/contracts';
import type { Db, Logger, Mailer } from '@caravan/service-kit';
import { z } from 'zod';
import type { TelegramOutcome } from './telegram';
import { notificationMail } from './notificationMail';

/**
 * The delivery of notifications beyond the app (docs/adr/0028). The inbox handler of `notification.created`
 * only queues a row per chosen channel (`enqueueDeliveries`, in its transaction); `NotificationDeliveryWorker`,
 * outside any inbox transaction, claims due rows for a lease, sends them and marks them. Telegram rows go
 * one by one at once; a user's email rows wait out a batching window and go as one mail. A failed send is
 * tried again later (doubling waits), then given up and logged.
 */

const seconds = (fallback: number) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().min(0).default(fallback));

const DeliveryEnv = z.object({
  /** how long a user's first queued email waits for more notices to go with it */
  NOTIFICATION_EMAIL_BATCH_SECONDS: seconds(60),
  /** how often the worker looks for due rows */
  NOTIFICATION_DELIVERY_EVERY_MS: seconds(1000),
  /** the wait after a first failed send; each next failure doubles it */
  NOTIFICATION_DELIVERY_RETRY_SECONDS: seconds(30),
  NOTIFICATION_DELIVERY_ATTEMPTS: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce.number().int().min(1).default(5),
  ),
  /** where the mail's links lead: the gateway's public address */
  PUBLIC_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url().default('http://127.0.0.1:8080')),
});

export type DeliveryConfig = {
  emailBatchSeconds: number;
  everyMs: number;
  retrySeconds: number;
  attempts: number;
  publicUrl: string;
  /** how long a claim holds its rows: longer than any send takes (the mailer's and the bot's timeouts) */
  leaseSeconds: number;
};

export function deliveryConfig(env: Record<string, string | undefined>): DeliveryConfig {
  const e = DeliveryEnv.parse(env);
  return {
    emailBatchSeconds: e.NOTIFICATION_EMAIL_BATCH_SECONDS,
    everyMs: e.NOTIFICATION_DELIVERY_EVERY_MS,
    retrySeconds: e.NOTIFICATION_DELIVERY_RETRY_SECONDS,
    attempts: e.NOTIFICATION_DELIVERY_ATTEMPTS,
    publicUrl: e.PUBLIC_URL,
    leaseSeconds: 300,
  };
}

/** How the queue's rows leave: one mailer, and the bot's send to a user's linked chat. */
export type DeliverySenders = {
  mailer: Mailer;
  telegram(userId: number, text: string): Promise<TelegramOutcome>;
};

/** Queues a new notification for each channel its recipient chose; email rows wait out the batching window. */
export async function enqueueDeliveries(trx: Db, created: NotificationCreated, emailBatchSeconds: number) {
  if (!created.channels.length) return;
  const n = created.notification as { id: number; user_table_id: number };
  await trx('notification_delivery')
    .insert(
      created.channels.map((channel) => ({
        user_table_id: n.user_table_id,
        channel,
        notification_id: n.id,
        due_at: trx.raw('now() + make_interval(secs => ?)', [channel === 'email' ? emailBatchSeconds : 0]),
      })),
    )
    .onConflict(['notification_id', 'channel'])
    .ignore();
}

type Claimed = {
  id: string;
  user_table_id: string;
  notification_id: string;
  label: string;
  message: string;
  table_name: NotificationTable;
  item_id: string | null;
  created_at: Date;
};

const PENDING = `sent_at is null and gave_up_at is null and (claimed_until is null or claimed_until < now())`;
const CLAIMED_COLUMNS = `d.id, d.user_table_id, d.notification_id, n.label, n.message, n.table_name, n.item_id,
  d.created_at`;
/** How long a mail waits for its user's identity to reach svc-orders (the identity topic lags the notice's). */
const IDENTITY_WAIT_MS = 60 * 60 * 1000;
const IDENTITY_RECHECK_SECONDS = 5;
/** Telegram rows one claim takes. */
const TELEGRAM_PAGE = 50;
/** Users whose mail one pass sends. */
const EMAIL_USERS_PAGE = 20;
/** The most notices one mail lists; more go in the next one. */
const MAIL_MAX_NOTICES = 1000;
/** The advisory lock's first key: one claimer of a user's email rows at a time. */
const EMAIL_CLAIM_LOCK = 190028;
/**
 * Sent and given-up rows are kept this long for support's questions ("did the mail go?"), then deleted: longer
 * than the inbox remembers an event (14 days), so a redelivered notice still finds its mark, not a free slot.
 */
const KEEP_DONE_DAYS = 30;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export class NotificationDeliveryWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private stopped = true;
  private lastPrune = 0;

  constructor(
    private readonly db: Db,
    private readonly senders: () => DeliverySenders,
    private readonly config: DeliveryConfig,
    private readonly log: Logger,
  ) {}

  start() {
    this.stopped = false;
    this.schedule(this.config.everyMs);
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.runOnce()
        .then((more) => this.schedule(more ? 0 : this.config.everyMs))
        .catch((err: unknown) => {
          this.log.warn({ err }, 'notification delivery pass failed');
          this.schedule(this.config.everyMs);
        });
    }, ms);
    this.timer.unref();
  }

  /** One pass: the due Telegram rows, then the users whose mail is due. True when a page was full (more wait). */
  async runOnce(): Promise<boolean> {
    const telegrams = await this.sendTelegrams();
    const mails = await this.sendEmails();
    if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) await this.prune();
    return telegrams >= TELEGRAM_PAGE || mails >= EMAIL_USERS_PAGE;
  }

  /** Deletes the rows done (sent or given up) more than KEEP_DONE_DAYS ago; pending rows stay, however old. */
  async prune(): Promise<number> {
    this.lastPrune = Date.now();
    return this.db('notification_delivery')
      .where((q) =>
        q
          .where('sent_at', '<', this.db.raw(`now() - make_interval(days => ?)`, [KEEP_DONE_DAYS]))
          .orWhere('gave_up_at', '<', this.db.raw(`now() - make_interval(days => ?)`, [KEEP_DONE_DAYS])),
      )
      .delete();
  }

  private async sendTelegrams(): Promise<number> {
    const { rows } = (await this.db.raw(
      `update notification_delivery d set claimed_until = now() + make_interval(secs => ?)
         from notification n
        where n.id = d.notification_id
          and d.id in (select id from notification_delivery
                        where channel = 'telegram' and due_at <= now() and ${PENDING}
                        order by due_at, id limit ? for update skip locked)
        returning ${CLAIMED_COLUMNS}`,
      [this.config.leaseSeconds, TELEGRAM_PAGE],
    )) as { rows: Claimed[] };
    for (const row of rows) await this.sendTelegram(row);
    return rows.length;
  }

  private async sendTelegram(row: Claimed) {
    const outcome = await this.senders()
      .telegram(Number(row.user_table_id), `Caravan · ${row.label}\n${row.message}`)
      .catch((err: unknown): TelegramOutcome => ({
        kind: 'failed',
        description: err instanceof Error ? err.message : String(err),
      }));
    const ids = [row.id];
    if (outcome.kind === 'sent') return this.markSent(ids);
    if (outcome.kind === 'not_linked') return this.giveUp(ids, 'Telegram не привязан');
    // the link is marked broken already (TelegramDelivery): no more sends until the user links again
    if (outcome.kind === 'blocked') return this.giveUp(ids, outcome.description);
    if (outcome.kind === 'rate_limited') return this.postpone(ids, outcome.retryAfterSeconds);
    return this.retryLater(ids, outcome.description);
  }

  /** Users whose earliest unsent email is due: each user's pending notices go as one mail. */
  private async sendEmails(): Promise<number> {
    const { rows } = (await this.db.raw(
      `select distinct user_table_id from notification_delivery
        where channel = 'email' and due_at <= now() and ${PENDING}
        limit ?`,
      [EMAIL_USERS_PAGE],
    )) as { rows: { user_table_id: string }[] };
    for (const { user_table_id } of rows) {
      const claimed = await this.claimEmails(Number(user_table_id));
      if (claimed.length) await this.sendMail(Number(user_table_id), claimed);
    }
    return rows.length;
  }

  /**
   * Claims all of a user's pending email rows if one of them is due, under a per-user advisory lock: a
   * second worker waits for the first one's claim to commit, then finds nothing due, so a batch is never
   * split between two mails.
   */
  private claimEmails(userId: number): Promise<Claimed[]> {
    return this.db.transaction(async (trx) => {
      const { rows: lock } = (await trx.raw('select pg_try_advisory_xact_lock(?, ?) as got', [
        EMAIL_CLAIM_LOCK,
        userId % 2 ** 31,
      ])) as { rows: { got: boolean }[] };
      if (!lock[0]?.got) return [];
      const { rows } = (await trx.raw(
        `update notification_delivery d set claimed_until = now() + make_interval(secs => ?)
           from notification n
          where n.id = d.notification_id
            and d.id in (select id from notification_delivery
                          where user_table_id = ? and channel = 'email' and ${PENDING}
                          order by id limit ?)
            and exists (select 1 from notification_delivery
                         where user_table_id = ? and channel = 'email' and due_at <= now() and ${PENDING})
          returning ${CLAIMED_COLUMNS}`,
        [this.config.leaseSeconds, userId, MAIL_MAX_NOTICES, userId],
      )) as { rows: Claimed[] };
      return rows.sort((a, b) => Number(a.notification_id) - Number(b.notification_id));
    });
  }

  private async sendMail(userId: number, rows: Claimed[]) {
    const ids = rows.map((r) => r.id);
    const user = (await this.db('replica').where({ entity: 'user', id: userId }).first('data', 'deleted')) as
      { data: { email?: string | null; fullname?: string }; deleted: boolean } | undefined;
    // not replicated yet (a fresh start, a lagging consumer): its address may be on the way
    if (!user && rows.every((r) => Date.now() - new Date(r.created_at).getTime() < IDENTITY_WAIT_MS))
      return this.postpone(ids, IDENTITY_RECHECK_SECONDS);
    const to = user && !user.deleted ? user.data.email : null;
    if (!to) return this.giveUp(ids, NOTIFICATION_EMAIL.noAddress);
    const mail = notificationMail(
      user!.data.fullname ?? '',
      rows.map((r) => ({ ...r, item_id: r.item_id === null ? null : Number(r.item_id) })),
      this.config.publicUrl,
    );
    try {
      await this.senders().mailer.send({ to, ...mail });
    } catch (err) {
      return this.retryLater(ids, err instanceof Error ? err.message : String(err));
    }
    await this.markSent(ids);
  }

  private async markSent(ids: string[]) {
    await this.db('notification_delivery')
      .whereIn('id', ids)
      .update({ sent_at: this.db.raw('coalesce(sent_at, now())'), claimed_until: null });
  }

  private async giveUp(ids: string[], reason: string) {
    await this.db('notification_delivery')
      .whereIn('id', ids)
      .update({ gave_up_at: this.db.fn.now(), claimed_until: null, last_error: reason.slice(0, 500) });
    this.log.warn({ deliveries: ids, reason }, 'notification not delivered beyond the app');
  }

  /** Telegram asked to wait, or the user is not known yet: the row goes again after that, not a failed attempt. */
  private async postpone(ids: string[], seconds: number) {
    await this.db('notification_delivery')
      .whereIn('id', ids)
      .update({ due_at: this.db.raw('now() + make_interval(secs => ?)', [seconds]), claimed_until: null });
  }

  /** A failed send: again after a doubling wait, or given up after the last attempt. */
  private async retryLater(ids: string[], error: string) {
    const { rows } = (await this.db.raw(
      `update notification_delivery
          set attempts = attempts + 1, claimed_until = null, last_error = ?,
              due_at = now() + make_interval(secs => ? * power(2, attempts)),
              gave_up_at = case when attempts + 1 >= ? then now() end
        where id = any(?::bigint[])
        returning id, attempts, gave_up_at`,
      [error.slice(0, 500), this.config.retrySeconds, this.config.attempts, ids],
    )) as { rows: { id: string; attempts: number; gave_up_at: Date | null }[] };
    const gaveUp = rows.filter((r) => r.gave_up_at);
    if (gaveUp.length)
      this.log.error(
        { deliveries: gaveUp.map((r) => r.id), attempts: this.config.attempts, error },
        'notification not delivered beyond the app: gave up',
      );
    else this.log.warn({ deliveries: ids, error }, 'notification send failed; will try again');
  }
}
