import {
  CARRIER_EVENTS,
  carrierStatusLabel,
  ENTITY_TOPICS,
  NOTIFICATION_EVENTS,
  SHIPMENT_TOPIC,
  stageForCarrierStatus,
  type CarrierStatusChanged,
  type Identity,
} from '@caravan/contracts';
import { callService, eventually, identityOf, type RunningService } from '@caravan/service-kit';
import { httpCall, startPayments, withRate } from '../../svc-payments/test/support';
import { startTelegramSandbox, type TelegramSandbox } from '../src/adapters/telegram/sandbox';
import { admin, ordersWorld, publishIdentityChanges, refused, type Any, type OrdersWorld } from './support';

/**
 * Notifications (issue 19, docs/adr/0021), end to end through the services: real changes of orders and
 * positions, svc-payments' real payments and top-ups through its sandbox bank, a carrier's status from
 * svc-carriers' outbox. Each notice reaches exactly the users who may see its order or wallet (the
 * gateway's users and links reach svc-orders as identity events, as the gateway publishes them), never
 * the user whose own act it tells of; read state is each user's own; a replay makes nothing twice.
 */
const NAME = 'orders-notifications';
let w: OrdersWorld;
let payments: RunningService;
/** The Bot API the service's bot talks to: what each chat received. */
let bot: TelegramSandbox;

/** The people: client A has two users and a fired one; the operators and clients of the world; two admins. */
let people: Record<
  'clientA' | 'clientA2' | 'clientAFired' | 'clientB' | 'operatorA' | 'operatorB' | 'admin' | 'admin2',
  Identity
>;

/** Publishes users and links on gateway.identity.v1 as the gateway does, and waits for svc-orders' replica. */
async function publishIdentity(users: Identity[], fired: Identity[]) {
  const events = [...users, ...fired].flatMap((u, i) => {
    const user = {
      entity: 'user',
      id: u.user_id,
      op: 'created',
      row: { id: u.user_id, deleted: false, roles: u.roles, state: fired.includes(u) ? 'fired' : 'working' },
    };
    const links = [
      ...u.client_ids.map((client_id, n) => ({
        entity: 'client_user_link',
        id: 1000 + i * 10 + n,
        op: 'created',
        row: { id: 1000 + i * 10 + n, deleted: false, client_id, user_table_id: u.user_id },
      })),
      ...u.operator_ids.map((operator_id, n) => ({
        entity: 'operator_user_link',
        id: 2000 + i * 10 + n,
        op: 'created',
        row: { id: 2000 + i * 10 + n, deleted: false, operator_id, user_table_id: u.user_id },
      })),
    ];
    return [user, ...links];
  });
  await publishIdentityChanges(w.orders, events);
  // this file's users and links (other files of the run keep theirs in the same schema)
  await eventually('the identity replica', async () => {
    const rows = await w.orders
      .db('replica')
      .whereIn('entity', ['user', 'client_user_link', 'operator_user_link'])
      .select('entity', 'id');
    const have = new Set(rows.map((r: Any) => `${r.entity}:${r.id}`));
    return events.every((e) => have.has(`${e.entity}:${e.id}`));
  });
}

beforeAll(async () => {
  bot = await startTelegramSandbox({ port: 0 });
  w = await ordersWorld(NAME, { TELEGRAM_BOT_TOKEN: bot.token, TELEGRAM_API_ROOT: bot.url });
  payments = await startPayments(NAME);
  await payments.bus.ready;
  await withRate(payments, w);
  people = {
    clientA: w.users.clientA,
    clientA2: identityOf({ user_id: 511, roles: ['client'], client_ids: [w.clientA.id] }),
    clientAFired: identityOf({ user_id: 512, roles: ['client'], client_ids: [w.clientA.id] }),
    clientB: w.users.clientB,
    operatorA: w.users.operatorA,
    // operator B serves client A too, but not client A's orders with operator A
    operatorB: w.users.operatorB,
    admin,
    // ids of their own: the people tests' gateway makes users 1, 2, 3 … and the replica keeps the newer event of an id
    admin2: identityOf({ user_id: 509, roles: ['admin'] }),
  };
  const { clientAFired, ...working } = people;
  await publishIdentity(Object.values(working), [clientAFired]);
}, 90_000);
afterAll(async () => {
  await payments?.stop();
  await w?.stop();
  await bot?.stop();
});

type Person = keyof typeof people;
const everyone = (): Person[] => Object.keys(people) as Person[];

/** Every notification each person has, oldest first: [label, message] (stored rows, whoever reads). */
async function noticesOf(filter: (n: Any) => boolean = () => true) {
  const rows = await w.orders.db('notification').orderBy('id');
  const byPerson: Partial<Record<Person, Any[]>> = {};
  for (const p of everyone()) {
    const mine = rows.filter((r: Any) => r.user_table_id === people[p].user_id && filter(r));
    if (mine.length) byPerson[p] = mine;
  }
  return byPerson;
}
/** Who has a notice with this label about this item (sorted names). */
async function whoHeard(label: string, itemId: number) {
  const heard = await noticesOf((n) => n.label === label && Number(n.item_id) === itemId);
  return Object.keys(heard).sort();
}
const sorted = (...names: Person[]) => [...names].sort();

/** Waits until the notifications consumer has handled everything the services published so far. */
async function settled() {
  const busy = async () => {
    for (const svc of [w.orders, w.carriers, payments]) {
      const { n } = ((await svc.db('outbox').whereNull('sent_at').count('* as n')) as { n: string }[])[0]!;
      if (Number(n) > 0) return false;
    }
    return true;
  };
  await eventually('every outbox sent', busy);
  // then the consumers' lag: nothing new arrives for a moment
  let last = -1;
  await eventually('the inbox quiet', async () => {
    const { n } = ((await w.orders.db('inbox').count('* as n')) as { n: string }[])[0]!;
    const now = Number(n);
    const quiet = now === last && (await busy());
    last = now;
    await new Promise((r) => setTimeout(r, 300));
    return quiet;
  });
}

const image = [{ file: '/api/files/0b6c1b2e.jpg', deleted: false }];
async function orderWithPositions(titles: string[]) {
  const order = await w.draftOrder();
  const positions: Any[] = [];
  for (const title of titles)
    positions.push(
      await w.create(
        w.orders,
        'client_order_position',
        {
          client_order_id: order.id,
          title,
          link: 'https://item.taobao.com/1',
          product_images: image,
          type_id: w.toys.id,
          price_cny: '20',
          amount: '10',
          waybill: `YT${order.id}${positions.length}00000001`,
        },
        people.clientA,
      ),
    );
  return { order, positions };
}
/** An order of client A with operator A formed by the client, checked and priced by the operator. */
async function pricedOrder(titles = ['Мягкая игрушка']) {
  const { order, positions } = await orderWithPositions(titles);
  expect(await w.call('client_order_created', { id: order.id }, people.clientA)).toMatchObject({ ok: true });
  for (const p of positions)
    expect(
      await w.call('client_order_position_action', { id: p.id, action: 'checked' }, people.operatorA),
    ).toMatchObject({ ok: true });
  expect(await w.call('client_order_buyout_waiting', { id: order.id }, people.operatorA)).toMatchObject({
    ok: true,
  });
  return { order, positions };
}

describe("an order's stages", () => {
  it("the mover hears nothing; the order's other users do; another client, another operator, the fired and the admins nothing", async () => {
    const { order } = await pricedOrder();
    await settled();
    // formed by client A's first user: the second and the operator's users hear
    expect(await whoHeard('заказ сформирован', order.id)).toEqual(sorted('clientA2', 'operatorA'));
    // asked to pay by operator A: client A's working users hear
    expect(await whoHeard('заказ ожидает оплаты', order.id)).toEqual(sorted('clientA', 'clientA2'));
    const [notice] = (await noticesOf((n) => n.label === 'заказ ожидает оплаты' && n.item_id === order.id))
      .clientA!;
    expect(notice).toMatchObject({
      message: `заказ ${order.id} перешёл на этап «ожидает оплаты/выкупа»`,
      type: 'info',
      category: 'data_update',
      table_name: 'client_order',
      is_read: false,
      options: { modification_type: 'stage', new_value: 'buyout_waiting' },
    });
  });

  it('positions bought out gather in one notice per user and order; the order following them is its own notice', async () => {
    const { order, positions } = await pricedOrder(['Кружка', 'Ложка', 'Вилка']);
    for (const p of positions)
      expect(
        await w.call('client_order_position_action', { id: p.id, action: 'buyout_done' }, people.operatorA),
      ).toMatchObject({ ok: true });
    await settled();
    const gathered = await noticesOf((n) => n.item_id === order.id && n.group_key !== null);
    expect(Object.keys(gathered).sort()).toEqual(sorted('clientA', 'clientA2'));
    for (const rows of Object.values(gathered)) {
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        label: 'позиции выкуплены',
        message: `3 позиции из заказа ${order.id}`,
        options: { position_count: 3, new_value: 'buyout_done' },
      });
    }
    expect(await whoHeard('товары заказа выкуплены', order.id)).toEqual(sorted('clientA', 'clientA2'));
  });

  it('a staff change of what the client pays for is told to the client, by whom', async () => {
    const { order } = await pricedOrder();
    await settled();
    const before = await whoHeard('заказ изменён', order.id);
    expect(
      await w.call('client_order_update', { id: order.id, transport_company_rus: 'pec' }, people.operatorA),
    ).toMatchObject({ ok: true });
    await settled();
    expect(before).toEqual([]);
    expect(await whoHeard('заказ изменён', order.id)).toEqual(sorted('clientA', 'clientA2'));
    const [notice] = (await noticesOf((n) => n.label === 'заказ изменён' && n.item_id === order.id)).clientA!;
    expect(notice.message).toBe(`оператор изменил заказ ${order.id}: перевозчик по России — ПЭК`);
  });
});

/** A CDEK status of the order's shipment, written into svc-carriers' outbox as its tracking does. */
async function cdekStatus(orderId: number, vendorStatus: string, statusAt: string) {
  const status: CarrierStatusChanged = {
    shipment_id: 7000 + orderId,
    client_order_id: orderId,
    carrier: 'cdek',
    number: '1700000077',
    uuid: null,
    vendor_status: vendorStatus,
    label: carrierStatusLabel('cdek', vendorStatus),
    stage: stageForCarrierStatus('cdek', vendorStatus),
    status_at: statusAt,
    confirmed_at: new Date().toISOString(),
    city: 'Москва',
    final: vendorStatus === 'DELIVERED',
  };
  const envelope = await w.carriers.db.transaction((trx) =>
    w.carriers.outbox.write(trx, {
      topic: SHIPMENT_TOPIC,
      key: status.shipment_id,
      type: CARRIER_EVENTS.statusChanged,
      actor: null,
      data: status,
    }),
  );
  w.carriers.relay.kick();
  // a status is told where it is applied (the carrier-shipments subscription), with the move it made
  await eventually('the status applied and told', async () =>
    w.orders.db('inbox').where({ event_id: envelope.id, subscription: 'carrier-shipments' }).first(),
  );
  return envelope;
}
const consumer = (name: string) =>
  w.orders.consumers.find(
    (c) => (c as unknown as { subscription: { name: string } }).subscription.name === name,
  )!;

/**
 * The relay sends these events again (as after a crash between sending and marking them sent): the
 * subscription sees them as duplicates and nothing new is made.
 */
async function replayMakesNothing(svc: RunningService, eventIds: string[], subscription: string) {
  await settled();
  const count = (await w.orders.db('notification').count('* as n'))[0]!.n;
  const duplicates = consumer(subscription).duplicates;
  await svc.db('outbox').whereIn('event_id', eventIds).update({ sent_at: null });
  svc.relay.kick();
  await eventually(
    'the replay seen',
    async () => consumer(subscription).duplicates >= duplicates + eventIds.length,
  );
  await settled();
  expect((await w.orders.db('notification').count('* as n'))[0]!.n).toBe(count);
}

describe("a carrier's status", () => {
  it("reaches the order's client and operator users once, however often it comes; a move it makes is the same one notice; a replay makes nothing", async () => {
    const { order } = await orderWithPositions(['Кроссовки']);
    await w.orders.db('client_order').where({ id: order.id }).update({ stage: 'sent_to_ru' });
    await w.orders
      .db('client_order_position')
      .where({ client_order_id: order.id })
      .update({ stage: 'sent_to_ru' });
    const delivered = await cdekStatus(order.id, 'DELIVERED', '2026-11-20T10:15:00.000Z');
    // the carrier reports it again (a webhook and a poll): another event, the same status
    await cdekStatus(order.id, 'DELIVERED', '2026-11-20T10:15:00.000Z');
    await settled();
    const label = `СДЭК: ${carrierStatusLabel('cdek', 'DELIVERED')}`;
    expect(await whoHeard(label, order.id)).toEqual(sorted('clientA', 'clientA2', 'operatorA'));
    const heard = await noticesOf((n) => n.label === label && n.item_id === order.id);
    for (const rows of Object.values(heard)) expect(rows).toHaveLength(1);
    expect(heard.clientA![0]).toMatchObject({
      category: 'delivery_state',
      type: 'success',
      message: `заказ ${order.id}, отправление 1700000077: ${carrierStatusLabel('cdek', 'DELIVERED')} (Москва); заказ перешёл на этап «вручён получателю»`,
      options: {
        transport_company_rus_delivery_state_ru: carrierStatusLabel('cdek', 'DELIVERED'),
        transport_company_rus_order_number: '1700000077',
        modification_type: 'stage',
        new_value: 'client_received',
      },
    });
    // the carrier moved the order: that is the same notice, not a second one about the stage
    expect((await w.stored('client_order', order.id)).stage).toBe('client_received');
    expect(await whoHeard('заказ вручён получателю', order.id)).toEqual([]);
    const aboutOrder = await noticesOf((n) => Number(n.item_id) === order.id);
    for (const rows of Object.values(aboutOrder)) expect(rows).toHaveLength(1);

    await replayMakesNothing(w.carriers, [delivered.id], 'carrier-shipments');
  });

  it('a status that moves nothing is told as it is', async () => {
    const { order } = await orderWithPositions(['Чайник']);
    await w.orders.db('client_order').where({ id: order.id }).update({ stage: 'sent_to_ru' });
    await w.orders
      .db('client_order_position')
      .where({ client_order_id: order.id })
      .update({ stage: 'sent_to_ru' });
    await cdekStatus(order.id, 'ACCEPTED', '2026-11-18T08:00:00.000Z');
    await settled();
    const [told] = (await noticesOf((n) => Number(n.item_id) === order.id)).clientA!;
    expect(told.message).toBe(
      `заказ ${order.id}, отправление 1700000077: ${carrierStatusLabel('cdek', 'ACCEPTED')} (Москва)`,
    );
    expect((await w.stored('client_order', order.id)).stage).toBe('sent_to_ru');
    expect(Object.keys(await noticesOf((n) => Number(n.item_id) === order.id)).sort()).toEqual(
      sorted('clientA', 'clientA2', 'operatorA'),
    );
  });
});

describe('money', () => {
  const http = (path: string, body: unknown, who: Identity = people.clientA) =>
    httpCall(payments, path, body, who);
  async function newWallet() {
    const reply = (
      await callService(
        payments.url,
        'wallet_update',
        { id: -1, title: 'Основной', client_id: w.clientA.id, currency_id: 2 },
        admin,
      )
    ).body as Any;
    expect(reply.ok).toBe(true);
    return reply.result.id as number;
  }
  async function payOnBankPage(url: string, button: 'complete' | 'decline') {
    expect((await fetch(url)).status).toBe(200);
    const res = await fetch(`${url.replace(/\/(sbp|pay)\//, '/pay/')}/${button}`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(res.status).toBeLessThan(400);
  }

  it("a payment credited to an order: the client's and the operator's users hear", async () => {
    const { order } = await pricedOrder();
    await eventually('the order waiting for payment in svc-payments', async () => {
      const r = await payments.db('replica').where({ entity: 'client_order', id: order.id }).first();
      return r?.data.stage === 'buyout_waiting';
    });
    const marked = (
      await callService(
        payments.url,
        'client_order_payment_receive',
        { id: order.id, kind: 'product', type: 'manual' },
        admin,
      )
    ).body as Any;
    expect(marked.ok).toBe(true);
    await settled();
    expect(await whoHeard('оплата получена', order.id)).toEqual(sorted('clientA', 'clientA2', 'operatorA'));
    const [notice] = (await noticesOf((n) => n.label === 'оплата получена' && n.item_id === order.id))
      .operatorA!;
    expect(notice).toMatchObject({
      message: `заказ ${order.id}: оплата товара 2\u00a0500,00\u00a0₽`,
      type: 'success',
    });
  });

  it("a wallet topped up: the client's users hear; a declined payment: the client's users and the admins", async () => {
    const walletId = await newWallet();
    const topUp = await http('modul_sbp_create', {
      type: 'img',
      operation_type: 'wallet',
      wallet_id: walletId,
      amount: '1000',
    });
    expect(topUp.ok).toBe(true);
    await payOnBankPage(topUp.result.sbp_link, 'complete');
    const declined = await http('modul_sbp_create', {
      type: 'card',
      operation_type: 'wallet',
      wallet_id: walletId,
      amount: '500',
    });
    expect(declined.ok).toBe(true);
    await payOnBankPage(declined.result.bill.url, 'decline');
    await eventually('the bank answered both', async () => {
      const rows = await payments.db('acquiring_payment').where({ wallet_id: walletId });
      return rows.every((r: Any) => r.state !== 'pending');
    });
    await settled();
    expect(await whoHeard('баланс пополнен', walletId)).toEqual(sorted('clientA', 'clientA2'));
    expect(await whoHeard('платёж не прошёл', walletId)).toEqual(
      sorted('clientA', 'clientA2', 'admin', 'admin2'),
    );
    const [failed] = (await noticesOf((n) => n.label === 'платёж не прошёл' && n.item_id === walletId))
      .admin!;
    expect(failed).toMatchObject({ table_name: 'wallet', type: 'error' });
    expect(failed.message).toBe(
      'пополнение кошелька на 500,00\u00a0₽ не прошло: платёж отклонён плательщиком',
    );
  });
});

describe('the consolidation check', () => {
  it('tells once per position and date that goods expected at the warehouse have not come', async () => {
    const { order, positions } = await pricedOrder(['Рюкзак']);
    const [p] = positions;
    expect(
      await w.call('client_order_position_action', { id: p.id, action: 'buyout_done' }, people.operatorA),
    ).toMatchObject({ ok: true });
    expect(
      await w.call(
        'client_order_position_action',
        { id: p.id, action: 'warehouse_waiting', receive_date: '2026-11-25' },
        people.operatorA,
      ),
    ).toMatchObject({ ok: true });
    await settled();
    expect(await w.call('notification_check_missing', { date: '2026-11-25' })).toMatchObject({
      ok: true,
      result: { count: 0 },
    });
    const late = await w.call('notification_check_missing', { date: '2026-11-26' });
    expect(late.result.count).toBeGreaterThanOrEqual(1);
    expect(await w.call('notification_check_missing', { date: '2026-11-27' })).toMatchObject({
      ok: true,
      result: { count: 0 },
    });
    const label = 'позиция не поступила на склад консолидации';
    expect(await whoHeard(label, order.id)).toEqual(
      sorted('clientA', 'clientA2', 'operatorA', 'admin', 'admin2'),
    );
    const [notice] = (await noticesOf((n) => n.label === label && n.item_id === order.id)).operatorA!;
    expect(notice).toMatchObject({
      message: `«Рюкзак» из заказа ${order.id} ожидалась на складе консолидации 25-11-2026, но ещё не получена`,
      type: 'warning',
      category: 'consolidation_receive_missing',
    });
    // only an admin runs it by hand
    expect(await w.call('notification_check_missing', {}, people.operatorA)).toEqual(
      refused('действие доступно только администратору'),
    );
  });
});

describe('reading', () => {
  it('each user reads and marks only their own: read state is per user', async () => {
    const { order } = await pricedOrder();
    await settled();
    const mine = await w.call(
      'notification_list',
      { where_param: [{ field: 'item_id', op: '=', value: order.id }] },
      people.clientA,
    );
    expect(mine.ok).toBe(true);
    expect(mine.result.items.map((n: Any) => n.user_table_id)).toEqual([people.clientA.user_id]);
    const notice = mine.result.items[0];
    const theirs = (
      await w.call(
        'notification_list',
        { where_param: [{ field: 'item_id', op: '=', value: order.id }] },
        people.clientA2,
      )
    ).result.items[0];

    // client A's second user cannot mark the first one's, nor can an admin or another client
    for (const who of [people.clientA2, admin, people.clientB])
      expect(await w.call('notification_mark_read', { id: notice.id }, who)).toEqual(
        refused('уведомление не найдено'),
      );
    expect((await w.stored('notification', notice.id)).is_read).toBe(false);
    expect(await w.call('notification_get_by_id', { id: notice.id }, people.clientB)).toEqual(
      refused('запись не найдена'),
    );

    const read = await w.call('notification_mark_read', { id: notice.id }, people.clientA);
    expect(read).toMatchObject({ ok: true, result: { id: notice.id, is_read: true } });
    expect(read.result.read_at).not.toBeNull();
    // marked again (another tab was first): the same answer, nothing changes
    expect(await w.call('notification_mark_read', { id: notice.id }, people.clientA)).toMatchObject({
      ok: true,
      result: { is_read: true },
    });
    expect((await w.stored('notification', theirs.id)).is_read).toBe(false);

    // the event of the read row reaches the recipient's other tabs (the count drops there too)
    const events = await w.orders
      .db('outbox')
      .whereRaw(`event->'data'->>'entity' = 'notification'`)
      .whereRaw(`(event->'data'->>'id')::bigint = ?`, [notice.id])
      .orderBy('id');
    expect(events.map((e: Any) => [e.event.data.op, e.event.data.row.is_read])).toEqual([
      ['created', false],
      ['updated', true],
    ]);

    const unread = async (who: Identity) =>
      (await w.call('notification_list', { where_param: [{ field: 'is_read', op: '=', value: false }] }, who))
        .result.total as number;
    expect(await unread(people.clientA2)).toBeGreaterThan(0);
    const all = await w.call('notification_mark_all_read', {}, people.clientA2);
    expect(all.ok).toBe(true);
    expect(all.result.count).toBeGreaterThan(0);
    expect(await unread(people.clientA2)).toBe(0);
    expect(await unread(people.operatorA)).toBeGreaterThan(0);

    // the admin list shows every user's; another client's list shows none of these
    const adminList = await w.call('notification_list', {
      per_page: 100,
      where_param: [{ field: 'item_id', op: '=', value: order.id }],
    });
    expect(new Set(adminList.result.items.map((n: Any) => n.user_table_id))).toEqual(
      new Set([people.clientA.user_id, people.clientA2.user_id, people.operatorA.user_id]),
    );
    expect(
      (
        await w.call(
          'notification_list',
          { where_param: [{ field: 'item_id', op: '=', value: order.id }] },
          people.clientB,
        )
      ).result.items,
    ).toEqual([]);
  });

  it('nobody writes a notification by hand, not even an admin: refused, nothing changed', async () => {
    const [row] = await w.orders.db('notification').orderBy('id').limit(1);
    for (const params of [
      { id: row.id, message: 'подделка' },
      { id: -1, user_table_id: people.clientA.user_id, label: 'x', message: 'x', category: 'data_update' },
    ])
      expect(await w.call('notification_update', params)).toEqual(
        refused('уведомления создаются только событиями заказов и платежей; изменить их нельзя'),
      );
    expect((await w.stored('notification', row.id)).message).toBe(row.message);
    // and the card offers the admin neither a save nor a delete
    expect((await w.call('notification_get_by_id', { id: row.id })).result._rights).toEqual({
      write: false,
      delete: false,
    });
  });
});

describe('channels', () => {
  it('a user chooses email and Telegram besides the app; new notices carry the choice to the senders', async () => {
    expect(await w.call('notification_channels_get', {}, people.clientA2)).toMatchObject({
      ok: true,
      result: { app: true, email: false, telegram: false },
    });
    expect(await w.call('notification_channels_update', { email: true }, people.clientA2)).toMatchObject({
      ok: true,
      result: { app: true, email: true, telegram: false },
    });
    expect(await w.call('notification_channels_update', { email: 'да' }, people.clientA2)).toMatchObject({
      ok: false,
    });
    expect(await w.call('notification_channels_get', {}, people.clientA2)).toMatchObject({
      result: { email: true, telegram: false },
    });
    // another user's choice is their own
    expect((await w.call('notification_channels_get', {}, people.clientA)).result.email).toBe(false);

    const { order } = await pricedOrder();
    await settled();
    const created = await w.orders
      .db('outbox')
      .where({ topic: 'orders.notification.v1' })
      .whereRaw(`event->>'type' = ?`, [NOTIFICATION_EVENTS.created])
      .whereRaw(`(event->'data'->'notification'->>'item_id')::bigint = ?`, [order.id]);
    const channels = Object.fromEntries(
      created.map((e: Any) => [e.event.data.notification.user_table_id, e.event.data.channels]),
    );
    expect(channels[people.clientA2.user_id]).toEqual(['email']);
    // who chose nothing beyond the app gets no delivery event at all
    expect(channels[people.clientA.user_id]).toBeUndefined();
  });

  it('a user who chose Telegram gets each new notice in their linked chat; a linked user who did not, none', async () => {
    const botSaid = (chat: number) =>
      (bot.chats().find((c) => c.id === chat)?.messages ?? [])
        .filter((m) => m.from === 'bot')
        .map((m) => m.text);
    // both of client A's users link a chat, as on /profile: a code sent to the bot
    const chats = { clientA: 801, clientA2: 802 } as const;
    for (const who of ['clientA', 'clientA2'] as const) {
      const code = await w.call('telegram_link_code_create', {}, people[who]);
      expect(code.ok).toBe(true);
      bot.write(chats[who], `/start ${code.result.code as string}`, `Чат ${chats[who]}`);
      await eventually('the bot linked the chat', async () => botSaid(chats[who]).length > 0);
    }
    expect(await w.call('notification_channels_update', { telegram: true }, people.clientA2)).toMatchObject({
      ok: true,
      result: { telegram: true },
    });
    const before = { clientA: botSaid(chats.clientA).length, clientA2: botSaid(chats.clientA2).length };

    // the operator asks client A to pay: both users hear it in the app, only the second in Telegram
    const { order } = await pricedOrder();
    await settled();
    await eventually('the notice in the chat', async () =>
      botSaid(chats.clientA2).some((text) => text.includes('заказ ожидает оплаты')),
    );
    const told = botSaid(chats.clientA2).slice(before.clientA2);
    expect(told).toContain(
      `Caravan · заказ ожидает оплаты\nзаказ ${order.id} перешёл на этап «ожидает оплаты/выкупа»`,
    );
    expect(botSaid(chats.clientA).slice(before.clientA)).toEqual([]);
    expect(await whoHeard('заказ ожидает оплаты', order.id)).toEqual(sorted('clientA', 'clientA2'));
  });
});

/** svc-orders' outbox events of these rows of an entity's topic (to replay them). */
async function eventIdsOf(entity: 'task' | 'chat_message' | 'client_order_position', ids: number[]) {
  const rows = await w.orders
    .db('outbox')
    .where({ topic: ENTITY_TOPICS[entity] })
    .whereIn('key', ids.map(String))
    .select('event_id');
  return rows.map((r: Any) => r.event_id as string);
}
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe('the work around an order (docs/adr/0029)', () => {
  it('a task given: its responsible hears; finished: its author hears the result and the rate; nobody hears of their own act', async () => {
    const order = await w.draftOrder();
    const task = (fields: Record<string, unknown>, who: Identity) =>
      w.call(
        'task_update',
        {
          id: -1,
          task_type_id: 3,
          table_name: 'client_order',
          table_id: order.id,
          executor_id: people.operatorA.user_id,
          deadline: inDays(2),
          content: 'позвонить клиенту насчёт доставки',
          ...fields,
        },
        who,
      );
    const given = await task({}, people.admin2);
    expect(given.ok).toBe(true);
    // the operator sets one for themselves: nobody is told
    const own = await task({ task_type_id: 6, content: 'для себя' }, people.operatorA);
    expect(own.ok).toBe(true);
    await settled();
    expect(await whoHeard('вам поручена задача', order.id)).toEqual(['operatorA']);
    const [notice] = (await noticesOf((n) => n.label === 'вам поручена задача' && n.item_id === order.id))
      .operatorA!;
    expect(notice).toMatchObject({
      message: `«связаться с клиентом» по заказу ${order.id}: позвонить клиенту насчёт доставки`,
      category: 'data_update',
      table_name: 'client_order',
      type: 'info',
    });

    for (const id of [given.result.id, own.result.id])
      expect(
        await w.call(
          'task_action_to_finished',
          { id, result: 'дозвонились, доставка в пятницу', success_rate: 8 },
          people.operatorA,
        ),
      ).toMatchObject({ ok: true });
    await settled();
    // the author of the first hears; the second's author finished it themselves
    expect(await whoHeard('задача выполнена', order.id)).toEqual(['admin2']);
    const [done] = (await noticesOf((n) => n.label === 'задача выполнена' && n.item_id === order.id)).admin2!;
    expect(done).toMatchObject({
      message: `«связаться с клиентом» по заказу ${order.id}: дозвонились, доставка в пятницу. Оценка успешности: 8`,
      type: 'success',
    });

    await replayMakesNothing(
      w.orders,
      await eventIdsOf('task', [given.result.id, own.result.id]),
      'notifications',
    );
  });

  it("a chat message: the chat's other participants hear, gathered per chat while unread; admins once they take part; strangers never", async () => {
    const order = await w.draftOrder();
    const chat = await w.call(
      'chat_update',
      { id: -1, table_name: 'client_order', table_id: order.id },
      people.clientA,
    );
    expect(chat.ok).toBe(true);
    const say = async (title: string, who: Identity) => {
      const reply = await w.call('chat_message_update', { id: -1, chat_id: chat.result.id, title }, who);
      expect(reply.ok).toBe(true);
      return reply.result.id as number;
    };
    const chatNotices = () =>
      noticesOf((n) => Number(n.item_id) === order.id && n.options.modification_type === 'chat_message');
    const sent = [await say('Здравствуйте! Когда выкупите?', people.clientA)];
    sent.push(await say('И пришлите фото, пожалуйста', people.clientA));
    await settled();
    let heard = await chatNotices();
    // the author, the other operator, another client and the admins (they have not written) hear nothing
    expect(Object.keys(heard).sort()).toEqual(sorted('clientA2', 'operatorA'));
    for (const rows of Object.values(heard)) {
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        label: 'новые сообщения в чате',
        message: `2 новых сообщения в чате заказа ${order.id}`,
        is_read: false,
        options: { message_count: 2 },
      });
    }

    // an admin answers: the client's users hear it; from now on the admin takes part
    sent.push(await say('Выкупим завтра', people.admin));
    await settled();
    heard = await chatNotices();
    expect(Object.keys(heard).sort()).toEqual(sorted('clientA', 'clientA2', 'operatorA'));
    expect(heard.clientA![0]).toMatchObject({
      label: 'новое сообщение в чате',
      message: `${people.admin.fullname} в чате заказа ${order.id}: «Выкупим завтра»`,
    });
    expect(heard.operatorA!.map((n: Any) => n.message)).toEqual([
      `3 новых сообщения в чате заказа ${order.id}`,
    ]);

    // read, the row is done: the next message starts a new one
    expect(
      await w.call('notification_mark_read', { id: heard.clientA![0].id }, people.clientA),
    ).toMatchObject({ ok: true });
    sent.push(await say('Спасибо!', people.clientA2));
    await settled();
    heard = await chatNotices();
    expect(Object.keys(heard).sort()).toEqual(sorted('admin', 'clientA', 'clientA2', 'operatorA'));
    expect(heard.clientA!.map((n: Any) => [n.is_read, n.message])).toEqual([
      [true, `${people.admin.fullname} в чате заказа ${order.id}: «Выкупим завтра»`],
      [false, `${people.clientA2.fullname} в чате заказа ${order.id}: «Спасибо!»`],
    ]);
    expect(heard.admin!.map((n: Any) => n.message)).toEqual([
      `${people.clientA2.fullname} в чате заказа ${order.id}: «Спасибо!»`,
    ]);
    expect(heard.operatorA![0].options).toMatchObject({ message_count: 4, message_ids: sent });

    await replayMakesNothing(w.orders, await eventIdsOf('chat_message', sent), 'notifications');
  });

  it("warehouse photos: the client's users hear, gathered per order; the client's answer: the operator's users hear", async () => {
    const { order, positions } = await pricedOrder(['Кружка', 'Ложка']);
    for (const p of positions)
      expect(
        await w.call(
          'client_order_position_update',
          { id: p.id, warehouse_images: [{ file: `/api/files/${p.id}-1.jpg`, deleted: false }] },
          people.operatorA,
        ),
      ).toMatchObject({ ok: true });
    await settled();
    const photoNotices = () =>
      noticesOf((n) => Number(n.item_id) === order.id && n.label === 'фото со склада');
    const photos = await photoNotices();
    expect(Object.keys(photos).sort()).toEqual(sorted('clientA', 'clientA2'));
    for (const rows of Object.values(photos))
      expect(rows.map((n: Any) => [n.message, n.options.position_count])).toEqual([
        [`новые фото со склада: 2 позиции из заказа ${order.id}`, 2],
      ]);

    // the same photos saved again are no news
    await w.call(
      'client_order_position_update',
      { id: positions[0].id, comment: 'фото приложены' },
      people.operatorA,
    );

    const [cup, spoon] = positions;
    const answer = (id: number, a: 'accepted' | 'more', comment = '') =>
      w.call('client_order_position_photo_review', { id, answer: a, comment }, people.clientA);
    expect(await answer(cup.id, 'accepted')).toMatchObject({ ok: true });
    expect(await answer(spoon.id, 'more', 'снимите гравировку крупно')).toMatchObject({ ok: true });
    await settled();
    expect(await whoHeard('клиент принял фото', order.id)).toEqual(['operatorA']);
    expect(await whoHeard('клиент просит ещё фото', order.id)).toEqual(['operatorA']);
    const toOperator = (await noticesOf((n) => Number(n.item_id) === order.id)).operatorA!;
    // (the task and the answer travel on two topics: either may be told first)
    expect(toOperator.map((n: Any) => [n.label, n.message]).slice(-3)).toEqual(
      expect.arrayContaining([
        ['клиент принял фото', `клиент принял фото позиции «Кружка» из заказа ${order.id}`],
        [
          'клиент просит ещё фото',
          `клиент просит ещё фото позиции «Ложка» из заказа ${order.id}: снимите гравировку крупно`,
        ],
        // and the request is the responsible's task
        [
          'вам поручена задача',
          `«дополнительные фото» по заказу ${order.id}: клиент просит ещё фото позиции «Ложка»: снимите гравировку крупно`,
        ],
      ]),
    );
    expect((await photoNotices()).clientA).toHaveLength(1);

    await replayMakesNothing(
      w.orders,
      await eventIdsOf('client_order_position', [cup.id, spoon.id]),
      'notifications',
    );
  });
});
