import {
  CARRIER_EVENTS,
  carrierStatusLabel,
  PHOTO_REVIEW_MESSAGES,
  SHIPMENT_TOPIC,
  stageForCarrierStatus,
  type CarrierStatusChanged,
  type Identity,
  type WaybillTracked,
} from '@caravan/contracts';
import { eventually } from '@caravan/service-kit';
import { ordersWorld, refused, type Any, type OrdersWorld } from './support';

/**
 * A carrier's statuses reach the order (issue 18): svc-carriers writes them into its outbox, its relay
 * publishes them on carriers.shipment.v1, svc-orders' inbox applies them. Each test reads the result in
 * the database as a user would see it on the order card.
 */
let w: OrdersWorld;
let shipmentId = 9000;

beforeAll(async () => {
  w = await ordersWorld('orders-carrier-status');
});
afterAll(async () => {
  await w?.stop();
});

const image = [{ file: '/api/files/0b6c1b2e.jpg', deleted: false }];

/** An order of client A with two positions, put at `stage` (with its positions) as staff would have moved it. */
async function orderAt(stage: string, positionStage: string, waybills: [string, string] = ['', '']) {
  const order = await w.draftOrder();
  const positions: Any[] = [];
  for (const waybill of waybills)
    positions.push(
      await w.create(
        w.orders,
        'client_order_position',
        {
          client_order_id: order.id,
          title: 'Мягкая игрушка',
          link: 'https://item.taobao.com/1',
          product_images: image,
          type_id: w.toys.id,
          price_cny: '35.50',
          amount: '10',
          waybill,
        },
        w.users.clientA,
      ),
    );
  await w.orders
    .db('client_order_position')
    .where({ client_order_id: order.id })
    .update({ stage: positionStage });
  await w.orders.db('client_order').where({ id: order.id }).update({ stage });
  return { order, positions, shipment: ++shipmentId };
}

/** A CDEK status of the order's shipment, as svc-carriers' tracking would publish it. */
function cdekStatus(
  orderId: number,
  shipment: number,
  vendorStatus: string,
  statusAt: string,
): CarrierStatusChanged {
  return {
    shipment_id: shipment,
    client_order_id: orderId,
    carrier: 'cdek',
    number: '1700000001',
    uuid: '72753031-6b2b-4d7b-a6b5-3f9b1e3b3c01',
    vendor_status: vendorStatus,
    label: carrierStatusLabel('cdek', vendorStatus),
    stage: stageForCarrierStatus('cdek', vendorStatus),
    status_at: statusAt,
    confirmed_at: new Date().toISOString(),
    city: 'Москва',
    final: vendorStatus === 'DELIVERED',
  };
}

/** Writes the event into svc-carriers' outbox (its relay publishes it) and waits until svc-orders handled it. */
async function publish(type: string, key: string | number, data: CarrierStatusChanged | WaybillTracked) {
  const envelope = await w.carriers.db.transaction((trx) =>
    w.carriers.outbox.write(trx, { topic: SHIPMENT_TOPIC, key, type, actor: null, data }),
  );
  w.carriers.relay.kick();
  await eventually(`${type} handled`, async () =>
    Boolean(
      await w.orders.db('inbox').where({ event_id: envelope.id, subscription: 'carrier-shipments' }).first(),
    ),
  );
}
const statusChanged = (status: CarrierStatusChanged) =>
  publish(CARRIER_EVENTS.statusChanged, status.shipment_id, status);

const historyOf = (orderId: number) =>
  w.orders.db('client_order_carrier_status').where({ client_order_id: orderId }).orderBy('status_at');
const stageMoves = (orderId: number) =>
  w.orders.db('history').where({ table_name: 'client_order', item_id: orderId, field: 'stage' });

describe('a carrier status of an order sent to Russia', () => {
  it('CDEK DELIVERED hands the order and its positions to the recipient, once however often it comes', async () => {
    const { order, positions, shipment } = await orderAt('sent_to_ru', 'sent_to_ru');
    const delivered = cdekStatus(order.id, shipment, 'DELIVERED', '2026-11-20T10:15:00.000Z');
    await statusChanged(delivered);
    await statusChanged({ ...delivered, confirmed_at: new Date().toISOString() });

    expect(await historyOf(order.id)).toHaveLength(1);
    expect(await w.stored('client_order', order.id)).toMatchObject({
      stage: 'client_received',
      transport_company_rus_delivery_state: 'DELIVERED',
      transport_company_rus_order_number: '1700000001',
      transport_company_rus_order_uuid: '72753031-6b2b-4d7b-a6b5-3f9b1e3b3c01',
      to_door_delivery_date: '2026-11-20',
    });
    const moves = await stageMoves(order.id);
    expect(moves).toHaveLength(1);
    expect(moves[0]).toMatchObject({ user_full_name: 'изменено перевозчиком СДЭК' });
    for (const p of positions)
      expect((await w.stored('client_order_position', p.id)).stage).toBe('client_received');
    // the open order card updates live: the order's changed event carries the new stage
    const events = await w.orders
      .db('outbox')
      .where({ key: String(order.id) })
      .whereRaw(`event->'data'->>'entity' = 'client_order'`)
      .whereRaw(`event->'data'->'row'->>'stage' = 'client_received'`);
    expect(events.length).toBeGreaterThan(0);
  });

  it('an older status arriving after DELIVERED is kept in the history but moves nothing back', async () => {
    const { order, shipment } = await orderAt('sent_to_ru', 'sent_to_ru');
    await statusChanged(cdekStatus(order.id, shipment, 'DELIVERED', '2026-11-20T10:15:00.000Z'));
    await statusChanged(cdekStatus(order.id, shipment, 'TAKEN_BY_COURIER', '2026-11-20T08:00:00.000Z'));

    expect((await historyOf(order.id)).map((r) => r.vendor_status)).toEqual([
      'TAKEN_BY_COURIER',
      'DELIVERED',
    ]);
    expect(await w.stored('client_order', order.id)).toMatchObject({
      stage: 'client_received',
      transport_company_rus_delivery_state: 'DELIVERED',
    });
    expect(await stageMoves(order.id)).toHaveLength(1);
  });

  it('a courier status moves the order to delivery to the door', async () => {
    const { order, shipment } = await orderAt('sent_to_ru', 'sent_to_ru');
    await statusChanged(cdekStatus(order.id, shipment, 'TAKEN_BY_COURIER', '2026-11-20T08:00:00.000Z'));
    expect(await w.stored('client_order', order.id)).toMatchObject({
      stage: 'sent_to_door',
      transport_company_rus_delivery_state: 'TAKEN_BY_COURIER',
    });
  });
});

describe('a carrier status arriving while staff change the order', () => {
  it('waits for the staff change and moves on from where staff left the order', async () => {
    const { order, shipment } = await orderAt('sent_to_ru', 'sent_to_ru');
    const staff = await w.orders.db.transaction();
    await staff('client_order').where({ id: order.id }).forUpdate().first('id');
    await staff('client_order').where({ id: order.id }).update({ stage: 'sent_to_door' });
    const handled = statusChanged(cdekStatus(order.id, shipment, 'DELIVERED', '2026-11-20T10:15:00.000Z'));
    // the carrier's handler is waiting for the order's row the staff change holds
    await eventually('the handler to wait for the order', async () => {
      const { rows } = (await w.orders.db.raw(
        `select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`,
      )) as { rows: { n: number }[] };
      return rows[0]!.n > 0;
    });
    await staff.commit();
    await handled;

    expect((await w.stored('client_order', order.id)).stage).toBe('client_received');
    expect(await stageMoves(order.id)).toEqual([
      expect.objectContaining({ old_value: 'sent_to_door', new_value: 'client_received' }),
    ]);
  });
});

describe('a carrier status of an order not yet sent to Russia', () => {
  it('is stored in the history; the order stays where staff put it', async () => {
    const { order, positions, shipment } = await orderAt('warehouse_received', 'warehouse_received');
    await statusChanged(cdekStatus(order.id, shipment, 'DELIVERED', '2026-11-20T10:15:00.000Z'));

    expect(await historyOf(order.id)).toHaveLength(1);
    expect((await w.stored('client_order', order.id)).stage).toBe('warehouse_received');
    expect(await stageMoves(order.id)).toHaveLength(0);
    expect((await w.stored('client_order_position', positions[0].id)).stage).toBe('warehouse_received');
  });
});

describe('the shipment history on the order card', () => {
  it('is read with the order by whoever may read it, and by nobody else', async () => {
    const { order, shipment } = await orderAt('sent_to_ru', 'sent_to_ru');
    await statusChanged(cdekStatus(order.id, shipment, 'TAKEN_BY_COURIER', '2026-11-20T08:00:00.000Z'));
    await statusChanged(cdekStatus(order.id, shipment, 'DELIVERED', '2026-11-20T10:15:00.000Z'));

    const own = await w.call('client_order_get_by_id', { id: order.id }, w.users.clientA);
    expect(own.ok).toBe(true);
    expect(own.result.carrier_statuses).toEqual([
      {
        carrier: 'cdek',
        vendor_status: 'TAKEN_BY_COURIER',
        label: carrierStatusLabel('cdek', 'TAKEN_BY_COURIER'),
        status_at: '2026-11-20T08:00:00.000Z',
        city: 'Москва',
      },
      {
        carrier: 'cdek',
        vendor_status: 'DELIVERED',
        label: 'вручён',
        status_at: '2026-11-20T10:15:00.000Z',
        city: 'Москва',
      },
    ]);

    const other = await w.call('client_order_get_by_id', { id: order.id }, w.users.clientB);
    expect(other.ok).toBe(false);
    expect(other.result).toBeNull();
    expect(JSON.stringify(other)).not.toContain('DELIVERED');

    const list = await w.call('client_order_list', { page: 1, per_page: 50 }, w.users.clientA);
    expect(list.ok).toBe(true);
    expect(list.result.items.find((o: Any) => o.id === order.id)).not.toHaveProperty('carrier_statuses');
  });
});

describe('a waybill tracked in China', () => {
  it('shows the tracker news on the positions with that waybill and marks them tracked', async () => {
    const { order, positions } = await orderAt('warehouse_waiting', 'warehouse_waiting', [
      'YT7788990011',
      'SF1234567890',
    ]);
    const tracked: WaybillTracked = {
      waybill: 'yt7788990011',
      client_order_id: order.id,
      status: 'Delivered',
      label: 'доставлено',
      event: 'Посылка прибыла на склад',
      city: 'Иу',
      event_at: '2026-11-19T06:30:00.000Z',
      arrived: true,
    };
    await publish(CARRIER_EVENTS.waybillTracked, 'YT7788990011', tracked);

    const matched = await w.stored('client_order_position', positions[0].id);
    expect(matched).toMatchObject({
      is_waybill_tracking: true,
      warehouse_cnt_data: {
        status: 'Delivered',
        label: 'доставлено',
        event: 'Посылка прибыла на склад',
        city: 'Иу',
        event_at: '2026-11-19T06:30:00.000Z',
        arrived: true,
      },
    });
    expect(matched.options.cnt_data.number).toBe('yt7788990011');
    expect(await w.stored('client_order_position', positions[1].id)).toMatchObject({
      is_waybill_tracking: false,
      warehouse_cnt_data: null,
    });
  });
});

describe('the order timeline (client_order_timeline)', () => {
  it("tells the client the carrier's statuses, the stage it moved and the warehouse's photos; another client reads nothing", async () => {
    const { order, positions, shipment } = await orderAt('sent_to_ru', 'sent_to_ru');
    await w.call('client_order_position_update', {
      id: positions[0].id,
      warehouse_images: [{ file: '/api/files/3f1c0e1a.jpg', deleted: false }],
    });
    await statusChanged(cdekStatus(order.id, shipment, 'DELIVERED', '2026-11-20T10:15:00.000Z'));
    // the order's chat: the operator asks, the client answers with a file
    const chat = await w.call(
      'chat_update',
      { id: -1, table_name: 'client_order', table_id: order.id },
      w.users.clientA,
    );
    const say = (who: Identity, title: string, files: unknown[] = []) =>
      w.call('chat_message_update', { id: -1, chat_id: chat.result.id, title, files }, who);
    expect(await say(w.users.operatorA, 'Посылка у вас? Пришлите фото')).toMatchObject({ ok: true });
    const uploaded = await w.upload('upload_file', [Buffer.from('фото'), 'посылка.jpg'], {}, w.users.clientA);
    expect(uploaded.ok).toBe(true);
    const [file] = uploaded.result as { file: string; name: string }[];
    expect(await say(w.users.clientA, '', [{ file: file!.file, name: file!.name }])).toMatchObject({
      ok: true,
    });

    const timeline = await w.call('client_order_timeline', { id: order.id }, w.users.clientA);
    expect(timeline.ok).toBe(true);
    const lines = timeline.result.map((e: Any) => [e.kind, e.text, e.who]);
    expect(lines).toContainEqual(['carrier', 'СДЭК: вручён, Москва', 'СДЭК']);
    expect(lines).toContainEqual(['stage', 'заказ: вручён получателю', 'СДЭК']);
    expect(lines).toContainEqual(['stage', '2 позиции: вручена получателю', 'СДЭК']);
    const photos = timeline.result.find((e: Any) => e.kind === 'photos');
    expect(photos).toMatchObject({
      text: '1 фото со склада: позиция «Мягкая игрушка»',
      who: 'оператор', // a client reads no staff member's name
      images: ['/api/files/3f1c0e1a.jpg'],
      positions: [{ id: positions[0].id, title: 'Мягкая игрушка' }],
    });
    // the chat's messages: the author as the chat names them, the files by name; the newest on top
    const messages = timeline.result.filter((e: Any) => e.kind === 'message');
    expect(messages.map((e: Any) => [e.text, e.who, e.files])).toEqual([
      ['1 файл в чате', 'вы', [{ name: 'посылка.jpg', file: file!.file }]],
      ['Посылка у вас? Пришлите фото', w.users.operatorA.fullname, []],
    ]);
    expect(timeline.result[0].kind).toBe('message');
    // newest first
    const times = timeline.result.map((e: Any) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    expect(await w.call('client_order_timeline', { id: order.id }, w.users.clientB)).toMatchObject({
      ok: false,
      result: null,
    });
    expect(await w.call('client_order_timeline', { id: 0 }, w.users.clientA)).toMatchObject({ ok: false });
  });
});

describe("the client's answer to the warehouse photos (client_order_position_photo_review)", () => {
  it('is the order client’s to give, for photos that exist; a request for more names what; the story tells it', async () => {
    const { order, positions } = await orderAt('warehouse_received', 'warehouse_received');
    const [withPhotos, bare] = positions;
    const photo = { file: '/api/files/5a0d9a4e.jpg', deleted: false };
    await w.call('client_order_position_update', { id: withPhotos.id, warehouse_images: [photo] });
    const review = (id: number, answer: string, comment = '', who = w.users.clientA) =>
      w.call('client_order_position_photo_review', { id, answer, comment }, who);
    const optionsOf = async (id: number) => (await w.stored('client_order_position', id)).options;

    expect(await review(bare.id, 'accepted')).toEqual(refused('у позиции нет фото со склада'));
    expect(await review(withPhotos.id, 'more', '  ')).toMatchObject({
      ok: false,
      message: 'напишите, какие фото нужны',
    });
    expect(await review(withPhotos.id, 'accepted', '', w.users.operatorA)).toEqual(
      refused('принять фото или попросить ещё может клиент этого заказа'),
    );
    expect(await review(withPhotos.id, 'accepted', '', w.users.clientB)).toMatchObject({ ok: false });
    expect((await optionsOf(withPhotos.id)).photo_review).toBeUndefined();

    // operator A's user as the gateway's identity events leave them in svc-orders' replica
    const replicaRow = (entity: string, id: number, data: Record<string, unknown>) => ({
      entity,
      id,
      data: { id, deleted: false, ...data },
      occurred_at: new Date(),
      event_id: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    });
    await w.orders
      .db('replica')
      .insert([
        replicaRow('user', 503, { roles: ['operator'], state: 'working', fullname: 'Анна Оператор' }),
        replicaRow('operator_user_link', 95003, { user_table_id: 503, operator_id: w.opA.id }),
      ])
      .onConflict(['entity', 'id'])
      .ignore();
    expect(await review(withPhotos.id, 'more', 'снимите подошву')).toEqual({
      ok: true,
      result: 'просьба о новых фото передана оператору',
    });
    const saved = (await optionsOf(withPhotos.id)).photo_review;
    expect(saved).toMatchObject({
      answer: 'more',
      comment: 'снимите подошву',
      files: [photo.file],
      user_id: 501,
    });

    // the operator's task, due in a day, in the client's words
    const tasks = await w.orders.db('task').where({ table_name: 'client_order', table_id: order.id });
    expect(tasks).toEqual([
      expect.objectContaining({
        task_type_id: 5,
        executor_id: 503,
        author_id: 501,
        content: 'клиент просит ещё фото позиции «Мягкая игрушка»: снимите подошву',
      }),
    ]);
    expect(new Date(tasks[0].deadline).getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
    // asked again about the same photos (the card no longer offers it): refused, no second task for the operator
    for (const answer of ['more', 'accepted'] as const)
      expect(await review(withPhotos.id, answer, 'ещё раз снимите подошву')).toEqual(
        refused(PHOTO_REVIEW_MESSAGES.alreadyAnswered),
      );
    expect((await optionsOf(withPhotos.id)).photo_review).toEqual(saved);
    expect(await w.orders.db('task').where({ table_name: 'client_order', table_id: order.id })).toHaveLength(
      1,
    );

    // a save of the options keeps the answer; no save may forge another
    await w.call('client_order_position_update', {
      id: withPhotos.id,
      options: { unconfirmed_data: ['weight'] },
    });
    expect((await optionsOf(withPhotos.id)).photo_review).toEqual(saved);
    expect(
      await w.call('client_order_position_update', {
        id: withPhotos.id,
        options: { unconfirmed_data: [], photo_review: { ...saved, answer: 'accepted' } },
      }),
    ).toEqual(refused('ответ на фото со склада даётся кнопками «принять фото» и «нужны ещё фото»'));
    expect((await optionsOf(withPhotos.id)).photo_review).toEqual(saved);

    const story = await w.call('client_order_timeline', { id: order.id }, w.users.clientA);
    expect(story.result.map((e: Any) => [e.text, e.who])).toContainEqual([
      'нужны ещё фото позиции «Мягкая игрушка»: снимите подошву',
      'вы',
    ]);
  });
});
