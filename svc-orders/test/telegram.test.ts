import {
  EVENT_TYPES,
  IDENTITY_TOPIC,
  MESSAGES,
  TELEGRAM_MESSAGES,
  TELEGRAM_SENDS_PER_MINUTE,
  type Identity,
} from '@caravan/contracts';
import { createLogger, eventually, identityOf } from '@caravan/service-kit';
import { TelegramClient } from '../src/adapters/telegram';
import { startTelegramSandbox, type TelegramSandbox } from '../src/adapters/telegram/sandbox';
import { TelegramDelivery } from '../src/domain/telegram';
import { admin, ordersWorld, refused, type Any, type OrdersWorld } from './support';

/**
 * Telegram (issue 19, ADR 0022): svc-orders with its bot pointed at a Bot API sandbox the test holds.
 * Users link their chats by a code sent to the bot (the service's long polling reads it); the order's
 * telegram dialog writes to the order's other side, as the gateway's identity events say who that is.
 */
let w: OrdersWorld;
let sandbox: TelegramSandbox;
let users: Record<'clientA' | 'clientB' | 'operatorA' | 'operatorB' | 'firedOperatorA', Identity>;
const chats = { clientA: 701, clientB: 702, operatorA: 703, operatorB: 704, firedOperatorA: 705 };

/** An identity event as the gateway publishes it (any service's outbox carries it onto the topic). */
async function identityEvent(entity: string, row: Record<string, unknown> & { id: number }) {
  const envelope = await w.carriers.db.transaction((trx) =>
    w.carriers.outbox.write(trx, {
      topic: IDENTITY_TOPIC,
      key: row.id,
      type: EVENT_TYPES.entityChanged,
      actor: 1,
      data: { entity, id: row.id, op: 'created', row },
    }),
  );
  w.carriers.relay.kick();
  await eventually(`${entity} ${row.id} replicated`, async () =>
    Boolean(
      await w.orders.db('inbox').where({ event_id: envelope.id, subscription: 'identity-replica' }).first(),
    ),
  );
}

let linkId = 9000;
/** A user of the gateway with a link to a client or an operator, as its events reach svc-orders. */
async function gatewayUser(identity: Identity, state = 'working') {
  await identityEvent('user', { id: identity.user_id, deleted: false, state, roles: identity.roles });
  for (const client_id of identity.client_ids)
    await identityEvent('client_user_link', {
      id: ++linkId,
      client_id,
      user_table_id: identity.user_id,
      deleted: false,
    });
  for (const operator_id of identity.operator_ids)
    await identityEvent('operator_user_link', {
      id: ++linkId,
      operator_id,
      user_table_id: identity.user_id,
      deleted: false,
    });
}

const botSaid = (chat: number) =>
  (sandbox.chats().find((c) => c.id === chat)?.messages ?? [])
    .filter((m) => m.from === 'bot')
    .map((m) => m.text);
const sentCount = () =>
  sandbox.chats().reduce((n, c) => n + c.messages.filter((m) => m.from === 'bot').length, 0);

/** The user asks for a code on /profile and sends it to the bot from their chat; the bot links them. */
async function link(who: Identity, chat: number) {
  const reply = await w.call('telegram_link_code_create', {}, who);
  expect(reply.ok).toBe(true);
  const before = botSaid(chat).length;
  sandbox.write(chat, `/start ${reply.result.code as string}`, `Чат ${chat}`);
  await eventually('the bot answers', async () => botSaid(chat).length > before);
  return reply.result;
}
const linkState = async (who: Identity) => (await w.call('telegram_link_get', {}, who)).result;
const messagesOf = (orderId: number) =>
  w.orders.db('telegram_message').where({ client_order_id: orderId }).orderBy('id');

let usedCode = '';
let orderA: Any;
let orderB: Any;

beforeAll(async () => {
  sandbox = await startTelegramSandbox({ port: 0 });
  w = await ordersWorld('orders-telegram', {
    TELEGRAM_BOT_TOKEN: sandbox.token,
    TELEGRAM_API_ROOT: sandbox.url,
  });
  users = {
    clientA: identityOf({
      user_id: 601,
      fullname: 'Ирина Смирнова',
      roles: ['client'],
      client_ids: [w.clientA.id],
    }),
    clientB: identityOf({
      user_id: 602,
      fullname: 'Пётр Соколов',
      roles: ['client'],
      client_ids: [w.clientB.id],
    }),
    operatorA: identityOf({
      user_id: 603,
      fullname: 'Ли Вэй',
      roles: ['operator'],
      operator_ids: [w.opA.id],
    }),
    operatorB: identityOf({
      user_id: 604,
      fullname: 'Чжан Мин',
      roles: ['operator'],
      operator_ids: [w.opB.id],
    }),
    firedOperatorA: identityOf({ user_id: 605, roles: ['operator'], operator_ids: [w.opA.id] }),
  };
  for (const who of ['clientA', 'clientB', 'operatorA', 'operatorB'] as const) await gatewayUser(users[who]);
  await gatewayUser(users.firedOperatorA, 'fired');
  orderA = await w.create(
    w.orders,
    'client_order',
    {
      title: 'Игрушки к Новому году',
      client_id: w.clientA.id,
      operator_id: w.opA.id,
      logistic_route_id: w.route.id,
      buyout_type: 'operator',
      delivery_type: 'to_door',
    },
    users.clientA,
  );
  orderB = await w.create(
    w.orders,
    'client_order',
    {
      client_id: w.clientB.id,
      operator_id: w.opB.id,
      logistic_route_id: w.route.id,
      buyout_type: 'operator',
      delivery_type: 'to_door',
    },
    users.clientB,
  );
}, 120_000);
afterAll(async () => {
  await w?.stop();
  await sandbox?.stop();
});

describe('linking Telegram by a one-time code', () => {
  it('links the chat that sent the code to the bot; the bot says so', async () => {
    expect(await linkState(users.operatorA)).toMatchObject({ state: null, telegram_id: null });
    const code = await link(users.operatorA, chats.operatorA);
    usedCode = code.code;
    expect(code).toMatchObject({
      bot_username: 'caravan_sandbox_bot',
      bot_link: `https://t.me/caravan_sandbox_bot?start=${code.code}`,
    });
    expect(botSaid(chats.operatorA)).toEqual([TELEGRAM_MESSAGES.bot.linked('Ли Вэй')]);
    expect(await linkState(users.operatorA)).toMatchObject({
      state: 'linked',
      telegram_id: String(chats.operatorA),
      first_name: `Чат ${chats.operatorA}`,
    });
  });

  it('refuses an unknown code, a used one from another chat and a code replaced by a newer one', async () => {
    sandbox.write(chats.clientB, 'ABCDEFGH');
    await eventually('the bot answers', async () => botSaid(chats.clientB).length === 1);
    expect(botSaid(chats.clientB)).toEqual([TELEGRAM_MESSAGES.bot.unknownCode]);

    const first = await w.call('telegram_link_code_create', {}, users.clientB);
    await w.call('telegram_link_code_create', {}, users.clientB);
    sandbox.write(chats.clientB, first.result.code);
    await eventually('the bot answers', async () => botSaid(chats.clientB).length === 2);
    expect(botSaid(chats.clientB)[1]).toBe(TELEGRAM_MESSAGES.bot.unknownCode);
    expect(await linkState(users.clientB)).toMatchObject({ state: null });

    sandbox.write(chats.clientB, usedCode);
    await eventually('the bot answers', async () => botSaid(chats.clientB).length === 3);
    expect(botSaid(chats.clientB)[2]).toBe(TELEGRAM_MESSAGES.bot.unknownCode);
    expect(await linkState(users.operatorA)).toMatchObject({ telegram_id: String(chats.operatorA) });

    sandbox.write(chats.clientB, 'привет');
    await eventually('the bot answers', async () => botSaid(chats.clientB).length === 4);
    expect(botSaid(chats.clientB)[3]).toBe(TELEGRAM_MESSAGES.bot.help);
  });

  it('lets only an admin read another user’s link', async () => {
    expect(await w.call('telegram_link_get', { user_id: users.operatorA.user_id }, users.clientA)).toEqual(
      refused(MESSAGES.adminOnly),
    );
    const asAdmin = await w.call('telegram_link_get', { user_id: users.operatorA.user_id }, admin);
    expect(asAdmin.result).toMatchObject({ state: 'linked', telegram_id: String(chats.operatorA) });
  });
});

describe('client_order_tg_send', () => {
  it('a client writes to the order’s operator: their linked, working users get it in Telegram', async () => {
    // the fired user of operator A is linked too, and gets nothing
    await link(users.firedOperatorA, chats.firedOperatorA);
    const recipient = await w.call('client_order_tg_recipient', { id: orderA.id }, users.clientA);
    expect(recipient.result).toEqual({ side: 'operator', title: 'Восточный экспресс', linked: 1 });

    const reply = await w.call(
      'client_order_tg_send',
      { id: orderA.id, msg: '  Когда выкупите товар?  ' },
      users.clientA,
    );
    expect(reply).toMatchObject({ ok: true, result: { sent: 1, message: TELEGRAM_MESSAGES.sent(1) } });
    expect(botSaid(chats.operatorA).at(-1)).toBe(
      `Caravan · заказ «Игрушки к Новому году» (№${orderA.id})\nИрина Смирнова (клиент):\nКогда выкупите товар?`,
    );
    expect(botSaid(chats.firedOperatorA)).toEqual([TELEGRAM_MESSAGES.bot.linked('user 605')]);
    expect(await messagesOf(orderA.id)).toEqual([
      expect.objectContaining({
        sender_user_id: 601,
        recipient_user_id: 603,
        outcome: 'sent',
        text: 'Когда выкупите товар?',
      }),
    ]);
  });

  it('refuses a message under 5 characters, a recipient without Telegram, and a telegram_id not of the order', async () => {
    const before = sentCount();
    expect(await w.call('client_order_tg_send', { id: orderA.id, msg: ' ок? ' }, users.clientA)).toEqual(
      refused(TELEGRAM_MESSAGES.tooShort),
    );
    // the order's client has not linked Telegram: the operator's dialog has nobody to write to
    expect((await w.call('client_order_tg_recipient', { id: orderA.id }, users.operatorA)).result).toEqual({
      side: 'client',
      title: 'ООО «Ромашка»',
      linked: 0,
    });
    expect(
      await w.call('client_order_tg_send', { id: orderA.id, msg: 'Товар выкуплен' }, users.operatorA),
    ).toEqual(refused(TELEGRAM_MESSAGES.noTelegramId));
    expect(
      await w.call(
        'client_order_tg_send',
        { id: orderA.id, msg: 'Когда выкупите?', telegram_id: String(chats.operatorB) },
        users.clientA,
      ),
    ).toEqual(refused(TELEGRAM_MESSAGES.noTelegramId));
    expect(sentCount()).toBe(before);
    expect(await messagesOf(orderA.id)).toHaveLength(1);
  });

  it('another client and another operator cannot write on an order they do not see', async () => {
    await link(users.operatorB, chats.operatorB);
    const before = sentCount();
    for (const who of [users.clientB, users.operatorB]) {
      expect(await w.call('client_order_tg_send', { id: orderA.id, msg: 'Чужой заказ' }, who)).toEqual(
        refused(MESSAGES.notFound),
      );
      expect(await w.call('client_order_tg_recipient', { id: orderA.id }, who)).toEqual(
        refused(MESSAGES.notFound),
      );
    }
    expect(sentCount()).toBe(before);
    expect(await messagesOf(orderA.id)).toHaveLength(1);
    // operator B does reach their own order of client B
    expect((await w.call('client_order_tg_recipient', { id: orderB.id }, users.clientB)).result.linked).toBe(
      1,
    );
  });

  it('staff write to the order’s client once the client linked Telegram', async () => {
    await link(users.clientA, chats.clientA);
    const reply = await w.call(
      'client_order_tg_send',
      { id: orderA.id, msg: 'Товар выкуплен, фото в заказе' },
      users.operatorA,
    );
    expect(reply.ok).toBe(true);
    expect(botSaid(chats.clientA).at(-1)).toBe(
      `Caravan · заказ «Игрушки к Новому году» (№${orderA.id})\nЛи Вэй (оператор):\nТовар выкуплен, фото в заказе`,
    );
  });

  it('waits out Telegram’s 429 when it asks briefly, and refuses in words when it asks for long', async () => {
    await fetch(`${sandbox.url}/sandbox/fail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: '429', times: 1, retry_after: 1 }),
    });
    const waited = await w.call(
      'client_order_tg_send',
      { id: orderA.id, msg: 'После паузы' },
      users.operatorA,
    );
    expect(waited.ok).toBe(true);
    expect(botSaid(chats.clientA).at(-1)).toContain('После паузы');

    await fetch(`${sandbox.url}/sandbox/fail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: '429', times: 1, retry_after: 40 }),
    });
    const before = botSaid(chats.clientA).length;
    expect(
      await w.call('client_order_tg_send', { id: orderA.id, msg: 'Слишком часто' }, users.operatorA),
    ).toEqual(refused(TELEGRAM_MESSAGES.rateLimited(40)));
    expect(botSaid(chats.clientA)).toHaveLength(before);
    expect((await messagesOf(orderA.id)).at(-1)).toMatchObject({
      outcome: 'rate_limited',
      text: 'Слишком часто',
    });
    expect(await linkState(users.clientA)).toMatchObject({ state: 'linked' });
  });

  it('a chat that blocked the bot (403) breaks the link: /profile shows it, sends stop, a new code mends it', async () => {
    await fetch(`${sandbox.url}/sandbox/chats/${chats.clientA}/block`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ blocked: true }),
    });
    expect(
      await w.call('client_order_tg_send', { id: orderA.id, msg: 'Вы здесь?' }, users.operatorA),
    ).toEqual(refused(TELEGRAM_MESSAGES.blocked));
    expect(await linkState(users.clientA)).toMatchObject({
      state: 'broken',
      broken_reason: 'Forbidden: bot was blocked by the user',
    });
    expect(await w.call('client_order_tg_send', { id: orderA.id, msg: 'Ещё раз' }, users.operatorA)).toEqual(
      refused(TELEGRAM_MESSAGES.noTelegramId),
    );

    await fetch(`${sandbox.url}/sandbox/chats/${chats.clientA}/block`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ blocked: false }),
    });
    await link(users.clientA, chats.clientA);
    expect(await linkState(users.clientA)).toMatchObject({ state: 'linked', broken_reason: null });
  });

  it('unlinking stops the messages', async () => {
    expect((await w.call('telegram_link_unlink', {}, users.clientA)).result).toMatchObject({
      state: null,
      message: TELEGRAM_MESSAGES.unlinked,
    });
    expect(await w.call('telegram_link_unlink', {}, users.clientA)).toEqual(
      refused(TELEGRAM_MESSAGES.notLinked),
    );
    expect(
      await w.call('client_order_tg_send', { id: orderA.id, msg: 'Товар в пути' }, users.operatorA),
    ).toEqual(refused(TELEGRAM_MESSAGES.noTelegramId));
  });

  it(`lets one sender write to one recipient at most ${TELEGRAM_SENDS_PER_MINUTE} times a minute; the next is refused, unsent`, async () => {
    // the client already wrote to operator A's user in this minute (above): fill the minute up to the limit
    const mine = () =>
      w.orders
        .db('telegram_message')
        .where({ sender_user_id: users.clientA.user_id, recipient_user_id: users.operatorA.user_id })
        .where('created_at', '>', w.orders.db.raw("now() - interval '1 minute'"));
    let n = (await mine()).length;
    for (; n < TELEGRAM_SENDS_PER_MINUTE; n++)
      expect(
        await w.call('client_order_tg_send', { id: orderA.id, msg: `Вопрос номер ${n + 1}` }, users.clientA),
      ).toMatchObject({ ok: true });
    const said = botSaid(chats.operatorA).length;
    const stored = (await messagesOf(orderA.id)).length;
    expect(
      await w.call('client_order_tg_send', { id: orderA.id, msg: 'Ещё один вопрос' }, users.clientA),
    ).toEqual(refused(TELEGRAM_MESSAGES.tooOften));
    expect(botSaid(chats.operatorA)).toHaveLength(said);
    expect(await messagesOf(orderA.id)).toHaveLength(stored);
    expect((await mine()).length).toBe(TELEGRAM_SENDS_PER_MINUTE);
  });
});

describe('sendTelegram(userId, text) for notifications', () => {
  it('delivers to a linked user and says not_linked for one without a link', async () => {
    const delivery = new TelegramDelivery(
      w.orders.db,
      new TelegramClient({ token: sandbox.token, apiRoot: sandbox.url }),
      createLogger('test', 'silent'),
    );
    expect(await delivery.sendTelegram(users.operatorA.user_id, 'Заказ выкуплен')).toMatchObject({
      kind: 'sent',
    });
    expect(botSaid(chats.operatorA).at(-1)).toBe('Заказ выкуплен');
    expect(await delivery.sendTelegram(users.clientA.user_id, 'Заказ выкуплен')).toEqual({
      kind: 'not_linked',
    });
  });
});
