import { NOTIFICATION_EVENTS, NotificationCreated, type Identity } from '@caravan/contracts';
import { createLogger, createMailer, eventually, identityOf } from '@caravan/service-kit';
import { startMailCatcher, type CaughtMail } from '../../deploy/local/mail-catcher';
import { TelegramClient } from '../src/adapters/telegram';
import { startTelegramSandbox, type TelegramSandbox } from '../src/adapters/telegram/sandbox';
import { NotificationDeliveryWorker, deliveryConfig } from '../src/domain/notificationDelivery';
import { TelegramDelivery } from '../src/domain/telegram';
import { ordersWorld, publishIdentityChanges, type Any, type OrdersWorld } from './support';

/**
 * Notifications beyond the app (issue 19, docs/adr/0028): the delivery subscription queues them, a worker
 * outside the inbox transaction sends them — a user's notices of a batching window as one mail to the
 * mail catcher (a real SMTP server), Telegram through a Bot API sandbox. Failed sends are tried again,
 * then given up; racing workers send each row once.
 */
const NAME = 'orders-delivery';
const BATCH_SECONDS = 8;
const PUBLIC_URL = 'https://caravan.example';
let w: OrdersWorld;
let bot: TelegramSandbox;
/** The SMTP server the service mails to; it is stopped and started again on the same port to fail sends. */
let catcher: Awaited<ReturnType<typeof startMailCatcher>>;
let smtpPort: number;
const caught: CaughtMail[] = [];

/** Everything mailed to this address so far (over the catcher's restarts). */
const mailsTo = (address: string) => [...caught, ...catcher.messages].filter((m) => m.to.includes(address));
const addressOf = (userId: number) => `user${userId}@example.ru`;

async function stopCatcher() {
  caught.push(...catcher.messages);
  await catcher.close();
}
async function restartCatcher() {
  catcher = await startMailCatcher({ smtpPort, httpPort: 0 });
}

/** Gateway users as their identity events reach svc-orders: working, with a name and an email address. */
async function publishUsers(users: Identity[]) {
  const events = users.flatMap((u) => [
    {
      entity: 'user',
      id: u.user_id,
      op: 'created',
      row: {
        id: u.user_id,
        deleted: false,
        roles: u.roles,
        state: 'working',
        fullname: `Пользователь ${u.user_id}`,
        email: addressOf(u.user_id),
      },
    },
    ...u.client_ids.map((client_id) => ({
      entity: 'client_user_link',
      id: 7000 + u.user_id,
      op: 'created',
      row: { id: 7000 + u.user_id, deleted: false, client_id, user_table_id: u.user_id },
    })),
    ...u.operator_ids.map((operator_id) => ({
      entity: 'operator_user_link',
      id: 8000 + u.user_id,
      op: 'created',
      row: { id: 8000 + u.user_id, deleted: false, operator_id, user_table_id: u.user_id },
    })),
  ]);
  await publishIdentityChanges(w.carriers, events);
  await eventually('the users replicated', async () => {
    const rows = await w.orders
      .db('replica')
      .where({ entity: 'user' })
      .whereIn(
        'id',
        users.map((u) => u.user_id),
      );
    return rows.length === users.length && rows.every((r: Any) => r.data.email);
  });
}

let sourceSeq = 0;
/**
 * Notices for a user as the notifications consumer makes them: the rows and their `notification.created`
 * events through the service's outbox, which its delivery subscription queues.
 */
async function notices(userId: number, count: number, channels: ('email' | 'telegram')[]) {
  const rows = await w.orders.db.transaction(async (trx) => {
    const made = (await trx('notification')
      .insert(
        Array.from({ length: count }, (_, i) => ({
          user_table_id: userId,
          label: 'позиция выкуплена',
          message: `позиция ${i + 1} из заказа ${9000 + i} выкуплена`,
          category: 'data_update',
          item_id: 9000 + i,
          source_key: `delivery-test:${++sourceSeq}`,
        })),
      )
      .returning('*')) as Any[];
    await w.orders.outbox.writeMany(
      trx,
      made.map((row) => ({
        topic: 'orders.notification.v1',
        key: row.id,
        type: NOTIFICATION_EVENTS.created,
        actor: null,
        data: NotificationCreated.parse({ notification: JSON.parse(JSON.stringify(row)), channels }),
      })),
    );
    return made;
  });
  w.orders.relay.kick();
  return rows;
}

/** The queue's rows of a user. */
const queued = (userId: number, channel?: string) =>
  w.orders
    .db('notification_delivery')
    .where({ user_table_id: userId, ...(channel ? { channel } : {}) })
    .orderBy('id') as Promise<Any[]>;
const allSent = async (userId: number, count: number) => {
  const rows = await queued(userId);
  return rows.length === count && rows.every((r) => r.sent_at);
};

const botAnswers = (chat: number) =>
  (bot.chats().find((c) => c.id === chat)?.messages ?? []).filter((m) => m.from === 'bot').map((m) => m.text);
/** The notices a chat received (not the bot's answers to what the chat wrote). */
const botSaid = (chat: number) => botAnswers(chat).filter((text) => text.startsWith('Caravan · '));
/** A user's Telegram link, as the bot makes it from a code (the chat wrote to the bot first, and was answered). */
async function linkTelegram(userId: number, chat: number) {
  bot.write(chat, 'привет', `Чат ${chat}`);
  await eventually('the bot answered', async () => botAnswers(chat).length > 0);
  await w.orders.db('telegram_link').insert({ user_id: userId, chat_id: chat, state: 'linked' });
}
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  catcher = await startMailCatcher({ smtpPort: 0, httpPort: 0 });
  smtpPort = Number(new URL(catcher.smtpUrl).port);
  bot = await startTelegramSandbox({ port: 0 });
  w = await ordersWorld(NAME, {
    SMTP_URL: catcher.smtpUrl,
    PUBLIC_URL,
    NOTIFICATION_EMAIL_BATCH_SECONDS: String(BATCH_SECONDS),
    NOTIFICATION_DELIVERY_EVERY_MS: '100',
    NOTIFICATION_DELIVERY_RETRY_SECONDS: '0.2',
    TELEGRAM_BOT_TOKEN: bot.token,
    TELEGRAM_API_ROOT: bot.url,
  });
}, 90_000);
afterAll(async () => {
  await w?.stop();
  await catcher?.close();
  await bot?.stop();
});

describe('email', () => {
  it('a burst of an order’s changes reaches the user who chose email as one mail listing each with its link; the user who did not gets none', async () => {
    const chose = identityOf({ user_id: 611, roles: ['client'], client_ids: [w.clientA.id] });
    const didNot = identityOf({ user_id: 612, roles: ['client'], client_ids: [w.clientA.id] });
    // the operator's user is known too: its changes are staff changes, which the client hears of
    await publishUsers([chose, didNot, w.users.operatorA]);
    expect(await w.call('notification_channels_update', { email: true }, chose)).toMatchObject({ ok: true });

    // the operator changes the order's delivery date to Russia again and again: each change is a notice
    const order = await w.draftOrder();
    const changes = 12;
    for (let day = 1; day <= changes; day++)
      expect(
        await w.call(
          'client_order_update',
          { id: order.id, to_ru_delivery_date: `2031-03-${String(day).padStart(2, '0')}` },
          w.users.operatorA,
        ),
      ).toMatchObject({ ok: true });
    const told = async (userId: number) =>
      (await w.orders
        .db('notification')
        .where({ user_table_id: userId, item_id: order.id })
        .orderBy('id')) as Any[];
    await eventually(
      'every change told in the app',
      async () => (await told(chose.user_id)).length === changes,
    );
    await eventually('the mail', async () => mailsTo(addressOf(chose.user_id)).length > 0, 30_000);
    await eventually('every queued row sent', () => allSent(chose.user_id, changes));
    await pause(1000);

    const mails = mailsTo(addressOf(chose.user_id));
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.subject).toBe(`Caravan: ${changes} новых уведомлений`);
    expect(mail!.text).toMatch(/^Здравствуйте, Пользователь 611!/);
    for (const notice of await told(chose.user_id)) {
      expect(mail!.text).toContain(`• ${notice.label as string}: ${notice.message as string}`);
      expect(mail!.html).toContain(notice.message);
    }
    expect(mail!.text).toContain(`Открыть заказ: ${PUBLIC_URL}/client_order/${order.id}`);
    expect(mail!.html.match(/<li>/g)).toHaveLength(changes);
    expect(mail!.html).toContain(`<a href="${PUBLIC_URL}/client_order/${order.id}">Открыть заказ</a>`);

    // the other user of the client has the notices in the app, and no mail, nothing queued
    expect(await told(didNot.user_id)).toHaveLength(changes);
    expect(mailsTo(addressOf(didNot.user_id))).toEqual([]);
    expect(await queued(didNot.user_id)).toEqual([]);
    // the replica knows the addresses; the replies that show its users do not
    const executors = await w.call('task_executor_list', { table_id: order.id }, w.users.operatorA);
    expect(executors.result).toContainEqual(expect.objectContaining({ id: w.users.operatorA.user_id }));
    expect(JSON.stringify(executors)).not.toContain('@example.ru');
  });

  it('one notice goes under its own heading; 500 notices at once go as one mail', async () => {
    const one = identityOf({ user_id: 613, roles: ['client'] });
    const many = identityOf({ user_id: 614, roles: ['client'] });
    await publishUsers([one, many]);
    await notices(one.user_id, 1, ['email']);
    const burst = await notices(many.user_id, 500, ['email']);
    await eventually(
      'both mailed',
      async () => (await allSent(one.user_id, 1)) && allSent(many.user_id, 500),
      40_000,
    );

    expect(mailsTo(addressOf(one.user_id)).map((m) => m.subject)).toEqual(['Caravan: позиция выкуплена']);
    const mails = mailsTo(addressOf(many.user_id));
    expect(mails.map((m) => m.subject)).toEqual(['Caravan: 500 новых уведомлений']);
    for (const n of burst) expect(mails[0]!.text).toContain(`${n.message as string}\n`);
  }, 60_000);

  it('a failed send is tried again later and goes once; after the last attempt it is given up and never sent', async () => {
    const recovers = identityOf({ user_id: 615, roles: ['client'] });
    const givenUp = identityOf({ user_id: 616, roles: ['client'] });
    await publishUsers([recovers, givenUp]);
    await stopCatcher();
    try {
      await notices(givenUp.user_id, 2, ['email']);
      await eventually(
        'given up after 5 attempts',
        async () => {
          const rows = await queued(givenUp.user_id);
          return rows.length === 2 && rows.every((r) => r.gave_up_at);
        },
        BATCH_SECONDS * 1000 + 20_000,
      );
      for (const row of await queued(givenUp.user_id)) {
        expect(row).toMatchObject({ attempts: 5, sent_at: null });
        expect(row.last_error).toMatch(/ECONNREFUSED/);
      }
      await notices(recovers.user_id, 3, ['email']);
      await eventually(
        'a failed attempt',
        async () => (await queued(recovers.user_id)).some((r) => r.attempts > 0),
        BATCH_SECONDS * 1000 + 10_000,
      );
    } finally {
      await restartCatcher();
    }
    await eventually('sent once the server is back', () => allSent(recovers.user_id, 3), 20_000);
    await pause(1000);
    expect(mailsTo(addressOf(recovers.user_id)).map((m) => m.subject)).toEqual([
      'Caravan: 3 новых уведомления',
    ]);
    expect(mailsTo(addressOf(givenUp.user_id))).toEqual([]);
    expect((await queued(givenUp.user_id)).every((r) => r.gave_up_at && !r.sent_at)).toBe(true);
  }, 90_000);

  it('a mail waits while its user is not known yet; a user known without an address: given up, nothing mailed', async () => {
    const noMail = 617;
    await notices(noMail, 1, ['email']);
    // while the user's identity has not arrived the mail waits for it
    await new Promise((r) => setTimeout(r, BATCH_SECONDS * 1000 + 2000));
    expect((await queued(noMail))[0]).toMatchObject({ sent_at: null, gave_up_at: null });
    await publishIdentityChanges(w.carriers, [
      {
        entity: 'user',
        id: noMail,
        op: 'created',
        row: {
          id: noMail,
          deleted: false,
          roles: ['client'],
          state: 'working',
          fullname: 'Без почты',
          email: null,
        },
      },
    ]);
    await eventually(
      'given up',
      async () => (await queued(noMail)).some((r) => r.gave_up_at),
      BATCH_SECONDS * 1000 + 10_000,
    );
    expect((await queued(noMail))[0]).toMatchObject({
      sent_at: null,
      last_error: 'у пользователя нет адреса электронной почты',
    });
  });
});

describe('Telegram through the queue', () => {
  it('waits out a long 429 as Telegram asks, without counting it a failure, and sends once', async () => {
    const user = identityOf({ user_id: 621, roles: ['client'] });
    await publishUsers([user]);
    await linkTelegram(user.user_id, 921);
    // longer than the client itself waits (5 s): the row is put off by retry_after
    await fetch(`${bot.url}/sandbox/fail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: '429', times: 1, retry_after: 7 }),
    });
    const [notice] = await notices(user.user_id, 1, ['telegram']);
    await eventually('put off', async () => {
      const [row] = await queued(user.user_id);
      return Boolean(row && !row.claimed_until && new Date(row.due_at).getTime() > Date.now() + 4000);
    });
    expect((await queued(user.user_id))[0]).toMatchObject({ attempts: 0, sent_at: null, gave_up_at: null });
    expect(botSaid(921)).toEqual([]);
    await eventually('sent after the wait', () => allSent(user.user_id, 1), 20_000);
    expect(botSaid(921)).toEqual([`Caravan · позиция выкуплена\n${notice.message as string}`]);
  }, 40_000);

  it('a chat that blocked the bot (403): the row is given up and the link marked broken', async () => {
    const user = identityOf({ user_id: 622, roles: ['client'] });
    await publishUsers([user]);
    await linkTelegram(user.user_id, 922);
    await fetch(`${bot.url}/sandbox/chats/922/block`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ blocked: true }),
    });
    await notices(user.user_id, 1, ['telegram']);
    await eventually('given up', async () => (await queued(user.user_id)).some((r) => r.gave_up_at));
    expect((await queued(user.user_id))[0]).toMatchObject({
      sent_at: null,
      last_error: 'Forbidden: bot was blocked by the user',
    });
    expect(await w.orders.db('telegram_link').where({ user_id: user.user_id }).first()).toMatchObject({
      state: 'broken',
    });
  });
});

describe('the queue keeps', () => {
  it('rows sent or given up more than 30 days ago are deleted; newer ones and pending ones, however old, stay', async () => {
    const userId = 651;
    const [oldSent, newSent, oldGivenUp, oldPending] = await notices(userId, 4, []);
    const ago = (days: number) => w.orders.db.raw(`now() - make_interval(days => ?)`, [days]);
    await w.orders.db('notification_delivery').insert([
      {
        user_table_id: userId,
        channel: 'email',
        notification_id: oldSent.id,
        created_at: ago(32),
        sent_at: ago(31),
      },
      {
        user_table_id: userId,
        channel: 'email',
        notification_id: newSent.id,
        created_at: ago(3),
        sent_at: ago(2),
      },
      {
        user_table_id: userId,
        channel: 'telegram',
        notification_id: oldGivenUp.id,
        created_at: ago(40),
        gave_up_at: ago(31),
      },
      // due in a year: the service's own worker leaves it pending
      {
        user_table_id: userId,
        channel: 'email',
        notification_id: oldPending.id,
        created_at: ago(40),
        due_at: ago(-365),
      },
    ]);
    const worker = new NotificationDeliveryWorker(
      w.orders.db,
      () => {
        throw new Error('pruning sends nothing');
      },
      deliveryConfig({ PUBLIC_URL }),
      createLogger('delivery-test', 'silent'),
    );
    expect(await worker.prune()).toBe(2);
    expect((await queued(userId)).map((r) => Number(r.notification_id))).toEqual([
      Number(newSent.id),
      Number(oldPending.id),
    ]);
  });
});

describe('several workers', () => {
  it('two more workers racing the service’s own send every row once: one mail per user, each Telegram message once', async () => {
    const users = Array.from({ length: 6 }, (_, i) => identityOf({ user_id: 631 + i, roles: ['client'] }));
    await publishUsers(users);
    for (const u of users) await linkTelegram(u.user_id, 900 + u.user_id);
    const log = createLogger('delivery-test', 'silent');
    const config = { ...deliveryConfig({ PUBLIC_URL }), everyMs: 10 };
    const mailer = createMailer(catcher.smtpUrl, 'Caravan <no-reply@caravan.local>', log);
    const telegram = new TelegramDelivery(
      w.orders.db,
      new TelegramClient({ token: bot.token, apiRoot: bot.url }),
      log,
    );
    const workers = [1, 2].map(
      () =>
        new NotificationDeliveryWorker(
          w.orders.db,
          () => ({ mailer, telegram: (userId, text) => telegram.sendTelegram(userId, text) }),
          config,
          log,
        ),
    );
    for (const u of users) await notices(u.user_id, 4, ['email', 'telegram']);
    await eventually('all queued', async () => {
      const rows = await w.orders.db('notification_delivery').whereIn(
        'user_table_id',
        users.map((u) => u.user_id),
      );
      return rows.length === users.length * 8;
    });
    // the email rows are due at once: every worker races for them now
    await w.orders
      .db('notification_delivery')
      .whereIn(
        'user_table_id',
        users.map((u) => u.user_id),
      )
      .update({ due_at: w.orders.db.raw(`now() - interval '1 second'`) });
    workers.forEach((worker) => worker.start());
    try {
      await eventually(
        'all sent',
        async () => {
          for (const u of users) if (!(await allSent(u.user_id, 8))) return false;
          return true;
        },
        30_000,
      );
      await pause(1500);
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      mailer.close();
    }
    for (const u of users) {
      expect(mailsTo(addressOf(u.user_id)).map((m) => m.subject)).toEqual(['Caravan: 4 новых уведомления']);
      expect(botSaid(900 + u.user_id)).toHaveLength(4);
      expect(new Set(botSaid(900 + u.user_id)).size).toBe(4);
    }
  }, 60_000);
});
