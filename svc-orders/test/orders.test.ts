import { admin, refused, ordersWorld, type Any, type OrdersWorld } from './support';

/**
 * The order's life on the server (spec orders-payments-calls §4, §5; docs/adr/0008-orders.md): each
 * stage move and each refusal, the refusal's message and the row unchanged; who reaches an order with
 * two clients and two operators (docs/access.md).
 */
let w: OrdersWorld;
let orders: OrdersWorld['orders'];
let call: OrdersWorld['call'];
let create: OrdersWorld['create'];
let stored: OrdersWorld['stored'];
let clientA: Any, clientB: Any, opA: Any, opB: Any, route: Any, toys: Any, shoes: Any;
let userA: Any, userB: Any, operatorA: Any, operatorB: Any;

beforeAll(async () => {
  w = await ordersWorld('orders-orders');
  ({ orders, call, create, stored, clientA, clientB, opA, opB, route, toys, shoes } = w);
  ({ clientA: userA, clientB: userB, operatorA, operatorB } = w.users);
});
afterAll(async () => {
  await w?.stop();
});

const image = [{ file: '/api/files/0b6c1b2e.jpg', deleted: false }];
async function newOrder(who = userA, fields: Record<string, unknown> = {}) {
  return create(
    orders,
    'client_order',
    {
      client_id: clientA.id,
      operator_id: opA.id,
      logistic_route_id: route.id,
      buyout_type: 'operator',
      delivery_type: 'to_door',
      ...fields,
    },
    who,
  );
}
const newPosition = (order: Any, fields: Record<string, unknown> = {}, who = userA) =>
  create(
    orders,
    'client_order_position',
    {
      client_order_id: order.id,
      title: 'Мягкая игрушка',
      link: 'https://item.taobao.com/1',
      product_images: image,
      type_id: toys.id,
      price_cny: '35.50',
      amount: '10',
      ...fields,
    },
    who,
  );
const kinds = { buyout_type: 'operator', delivery_type: 'to_door' };
const action = (id: number, act: string, extra: Record<string, unknown> = {}, who = operatorA) =>
  call('client_order_position_action', { id, action: act, ...extra }, who);

describe('forming an order (client_order_created)', () => {
  it('refuses an operator-buyout order with the counts of positions lacking a link and a screenshot, then forms it', async () => {
    const order = await newOrder();
    expect(order.title).toBe(`заказ ${order.id}`);
    const bare = await newPosition(order, { link: '', product_images: [] });
    await newPosition(order);
    expect(await call('client_order_created', { id: order.id }, userA)).toEqual(
      refused('позиций без ссылки / wechat продавца: 1; позиций без скриншота/файла: 1'),
    );
    expect((await stored('client_order', order.id)).stage).toBe('draft');
    expect((await stored('client_order_position', bare.id)).stage).toBe('draft');

    await call(
      'client_order_position_update',
      { id: bare.id, link: 'wechat: shop88', type_id: shoes.id },
      userA,
    );
    await call('client_order_position_update', { id: bare.id, files: image }, userA);
    expect(await call('client_order_created', { id: order.id }, userA)).toEqual(
      refused('в заказе есть товары разных типов; типы товаров позиций не совпадают с типами товаров тарифа'),
    );
    expect((await stored('client_order', order.id)).stage).toBe('draft');

    await call('client_order_position_update', { id: bare.id, type_id: toys.id }, userA);
    const formed = await call(
      'client_order_created',
      { id: order.id, product_payment_state: 'in_caravan', is_working: true },
      userA,
    );
    expect(formed).toMatchObject({
      ok: true,
      result: { stage: 'created', product_payment_state: 'in_caravan' },
    });
    const positions = await orders.db('client_order_position').where({ client_order_id: order.id });
    expect(positions.map((p: Any) => p.stage)).toEqual(['verification', 'verification']);
    const history = await call('client_order_history', { id: order.id }, userA);
    expect(history.result.find((h: Any) => h.type === 'stage')).toMatchObject({
      type: 'stage',
      type_ru: 'этап',
      new_value: 'created',
    });
    const events = await orders
      .db('outbox')
      .where('topic', 'like', '%orders.client_order.v1')
      .where({ key: String(order.id) });
    expect(events.length).toBeGreaterThanOrEqual(2);

    expect(await call('client_order_created', { id: order.id }, userA)).toEqual(
      refused('заказ нельзя перевести из этапа «сформирован» в «сформирован»'),
    );
  });

  it('refuses a self-buyout order whose positions lack waybills and types, with the warning', async () => {
    const order = await newOrder(userA, { buyout_type: 'self' });
    await newPosition(order, { waybill: '' });
    await newPosition(order, { waybill: 'none', type_id: null });
    expect(await call('client_order_created', { id: order.id }, userA)).toEqual(
      refused(
        'позиций без waybill: 2; позиций без типа: 1; указан "самовыкуп". у всех позиций должны быть указаны [waybill] и [тип товара]',
      ),
    );
    expect((await stored('client_order', order.id)).stage).toBe('draft');
  });

  it('refuses forming by a plain update, and locks a formed order and its positions for the client', async () => {
    const order = await newOrder();
    const position = await newPosition(order);
    expect(await call('client_order_update', { id: order.id, stage: 'created' }, userA)).toEqual(
      refused('этап «сформирован» ставится кнопкой на странице заказа, а не правкой поля'),
    );
    expect(await call('client_order_created', { id: order.id }, userA)).toMatchObject({ ok: true });
    expect(await call('client_order_update', { id: order.id, comment: 'быстрее' }, userA)).toEqual(
      refused("на этапе «сформирован» поле 'комментарий' меняет только оператор или администратор"),
    );
    expect(await call('client_order_update', { id: order.id, operator_id: opB.id }, userA)).toEqual(
      refused('клиента и оператора сформированного заказа меняет только администратор'),
    );
    expect(await call('client_order_position_update', { id: position.id, amount: '99' }, userA)).toEqual(
      refused('данные позиций сформированного заказа меняет только оператор или администратор'),
    );
    expect(
      await call(
        'client_order_position_update',
        { id: -1, client_order_id: order.id, title: 'Ещё' },
        operatorA,
      ),
    ).toEqual(refused('в сформированный заказ нельзя добавить позиции'));
    expect(
      await call('client_order_position_update', { id: position.id, stage: 'buyout_done' }, operatorA),
    ).toEqual(refused('этап и состояние выкупа позиции меняются кнопками действий'));
    const row = await stored('client_order', order.id);
    expect([row.comment, row.operator_id]).toEqual(['', opA.id]);
    expect((await stored('client_order_position', position.id)).amount).toBe('10.00');
    expect(await orders.db('client_order_position').where({ client_order_id: order.id })).toHaveLength(1);
    // staff may still fix the data of a formed order's positions
    expect(
      await call('client_order_position_update', { id: position.id, amount: '12' }, operatorA),
    ).toMatchObject({
      ok: true,
      result: { amount: '12.00' },
    });
  });
});

describe('an operator takes the order through every stage', () => {
  it('verifies, asks for payment, buys out, ships to and receives at the warehouse, sends to Russia and the door; the client receives and confirms', async () => {
    const order = await newOrder();
    const p1 = await newPosition(order, { amount: null });
    const p2 = await newPosition(order, { title: 'Конструктор' });
    expect(await call('client_order_created', { id: order.id }, userA)).toMatchObject({ ok: true });

    // verification
    expect(await action(p1.id, 'verification_done', {}, userA)).toEqual(
      refused('действие доступно только администратору или оператору'),
    );
    expect(await action(p1.id, 'checked')).toEqual(refused('не указано кол-во'));
    expect((await stored('client_order_position', p1.id)).stage).toBe('verification');
    await call('client_order_position_update', { id: p1.id, amount: '4' }, operatorA);
    expect(await action(p1.id, 'checked')).toEqual({ ok: true, result: 'готово', message: undefined });
    expect(await action(p2.id, 'verification_done')).toMatchObject({ ok: true });

    // waiting for payment: staff only
    expect(await call('client_order_buyout_waiting', { id: order.id }, userA)).toEqual(
      refused('действие доступно только администратору или оператору'),
    );
    expect(await call('client_order_buyout_waiting', { id: order.id }, operatorA)).toMatchObject({
      ok: true,
      result: { stage: 'buyout_waiting' },
    });

    // buyout
    expect(await action(p1.id, 'warehouse_waiting', { receive_date: '2026-03-05' })).toEqual(
      refused('действие «отправлено на склад консолидации» недоступно для позиции на этапе «ожидает оплаты»'),
    );
    expect(await action(p1.id, 'buyout_done_part')).toMatchObject({ ok: true });
    expect(await stored('client_order_position', p1.id)).toMatchObject({
      stage: 'buyout_done',
      buyout_state: 'done_part',
    });
    expect((await stored('client_order', order.id)).stage).toBe('buyout_waiting');
    expect(await action(p1.id, 'buyout_done')).toMatchObject({ ok: true });
    expect(await action(p1.id, 'buyout_done')).toEqual(refused('позиция уже выкуплена'));
    expect(await action(p2.id, 'buyout_done')).toMatchObject({ ok: true });
    expect((await stored('client_order', order.id)).stage).toBe('buyout_done');

    // to the consolidation warehouse: a waybill first
    expect(await action(p1.id, 'warehouse_waiting', { receive_date: '2026-03-05' })).toEqual(
      refused('укажите waybill'),
    );
    expect((await stored('client_order_position', p1.id)).stage).toBe('buyout_done');
    expect(
      await call(
        'client_order_position_update',
        { id: p1.id, to_consolidation_warehouse_delivery_date: '2026-03-06' },
        operatorA,
      ),
    ).toEqual(
      refused(
        'дату доставки на склад консолидации можно указать только у позиции на этапе «отправлена на склад консолидации»',
      ),
    );
    for (const [p, waybill] of [
      [p1, 'YT7712345'],
      [p2, 'SF9988776'],
    ] as const) {
      await call('client_order_position_update', { id: p.id, waybill }, operatorA);
      expect(await action(p.id, 'warehouse_waiting', { receive_date: '2026-03-05' })).toMatchObject({
        ok: true,
      });
    }
    expect(await stored('client_order_position', p1.id)).toMatchObject({
      stage: 'warehouse_waiting',
      to_consolidation_warehouse_delivery_date: '2026-03-05',
    });
    expect((await stored('client_order', order.id)).stage).toBe('warehouse_waiting');
    expect(
      await call(
        'client_order_position_update',
        { id: p1.id, to_consolidation_warehouse_delivery_date: '2026-03-07' },
        userA,
      ),
    ).toEqual(refused('данные позиций сформированного заказа меняет только оператор или администратор'));

    // received: a box count and a date; records appended under max id + 1
    expect(await action(p1.id, 'warehouse_received', { receive_record: { date: '2026-03-07' } })).toEqual(
      refused('не указано кол-во коробок'),
    );
    expect((await stored('client_order_position', p1.id)).stage).toBe('warehouse_waiting');
    await call(
      'client_order_position_update',
      { id: p2.id, consolidation_receive_table: [{ id: 3, date: '2026-03-06', amount: 1 }] },
      operatorA,
    );
    const record = { date: '2026-03-07', amount: 2, transporter: 'ZTO', cost: '15.00', comment: '' };
    expect(await action(p1.id, 'warehouse_received', { receive_record: record })).toMatchObject({ ok: true });
    expect(await action(p2.id, 'warehouse_received', { receive_record: record })).toMatchObject({ ok: true });
    expect((await stored('client_order_position', p1.id)).consolidation_receive_table).toEqual([
      { id: 1, ...record },
    ]);
    expect(
      (await stored('client_order_position', p2.id)).consolidation_receive_table.map((r: Any) => r.id),
    ).toEqual([3, 4]);
    expect(await stored('client_order_position', p2.id)).toMatchObject({
      stage: 'warehouse_received',
      to_consolidation_warehouse_delivery_date: '2026-03-07',
    });
    expect((await stored('client_order', order.id)).stage).toBe('warehouse_received');

    // to Russia: staff, with the dialog's fields
    const toRu = {
      id: order.id,
      stage: 'sent_to_ru',
      send_date: '2026-03-10',
      weight: '12.5',
      volume: '0.08',
      shipment_article: 'ART-1',
      to_ru_delivery_price: '45',
    };
    expect(await call('client_order_update', { ...toRu, amount: 2 }, userA)).toEqual(
      refused('действие доступно только администратору или оператору'),
    );
    expect(await call('client_order_update', toRu, operatorA)).toEqual(
      refused("не заполнено поле 'кол-во мест'"),
    );
    expect(await stored('client_order', order.id)).toMatchObject({
      stage: 'warehouse_received',
      weight: null,
    });
    expect(await call('client_order_update', { ...toRu, amount: 2 }, operatorA)).toMatchObject({
      ok: true,
      result: { stage: 'sent_to_ru', weight: '12.500' },
    });
    expect((await stored('client_order_position', p1.id)).stage).toBe('sent_to_ru');

    // received straight from sent_to_ru only for delivery to Russia
    expect(await call('client_order_update', { id: order.id, stage: 'client_received' }, userA)).toEqual(
      refused('вручение получателю на этапе «отправлен в РФ» возможно только при доставке до РФ'),
    );
    expect(
      await call(
        'client_order_update',
        {
          id: order.id,
          stage: 'sent_to_door',
          to_ru_delivery_date: '2026-03-25',
          transport_company_rus_order_number: '10 2030 4050',
        },
        userA,
      ),
    ).toMatchObject({
      ok: true,
      result: { stage: 'sent_to_door', transport_company_rus_order_number: '1020304050' },
    });
    expect(await call('client_order_update', { id: order.id, stage: 'client_confirmed' }, userA)).toEqual(
      refused('заказ нельзя перевести из этапа «отправлен по адресу в РФ» в «принят получателем»'),
    );
    expect(
      await call('client_order_update', { id: order.id, stage: 'client_received' }, userA),
    ).toMatchObject({
      ok: true,
    });
    expect(
      await call('client_order_update', { id: order.id, stage: 'client_confirmed' }, userA),
    ).toMatchObject({
      ok: true,
      result: { stage: 'client_confirmed', state: 'done' },
    });
    const positions = await orders.db('client_order_position').where({ client_order_id: order.id });
    expect(positions.map((p: Any) => p.stage)).toEqual(['client_confirmed', 'client_confirmed']);
    const stages = (await call('client_order_history', { id: order.id }, userA)).result
      .filter((h: Any) => h.type === 'stage')
      .map((h: Any) => h.new_value)
      .reverse();
    expect(stages).toEqual([
      'created',
      'buyout_waiting',
      'buyout_done',
      'warehouse_waiting',
      'warehouse_received',
      'sent_to_ru',
      'sent_to_door',
      'client_received',
      'client_confirmed',
    ]);
  });
});

describe('who reaches an order: two clients, two operators', () => {
  let order: Any;
  let position: Any;
  beforeAll(async () => {
    order = await newOrder();
    position = await newPosition(order);
  });

  it("shows an order to its client's users, its operator's users and admins only", async () => {
    for (const who of [userA, operatorA, admin])
      expect(await call('client_order_get_by_id', { id: order.id }, who)).toMatchObject({
        ok: true,
        result: { client_title: 'ООО «Ромашка»', operator_title: 'Восточный экспресс', children: [] },
      });
    for (const who of [userB, operatorB]) {
      expect(await call('client_order_get_by_id', { id: order.id }, who)).toEqual(
        refused('запись не найдена'),
      );
      expect(await call('client_order_position_get_by_id', { id: position.id }, who)).toEqual(
        refused('запись не найдена'),
      );
      const listed = await call('client_order_list', { per_page: 500 }, who);
      expect(listed.result.items.map((o: Any) => o.id)).not.toContain(order.id);
      const items = await call('client_order_position_list', { client_order_id: order.id }, who);
      expect(items.result.items).toEqual([]);
    }
    const mine = await call(
      'client_order_list',
      { client_id: clientA.id, where_param: [{ field: 'stage', op: '=', value: 'draft' }], per_page: 500 },
      operatorA,
    );
    expect(mine.result.items.map((o: Any) => o.id)).toContain(order.id);
    expect(mine.result.items.every((o: Any) => o.stage === 'draft' && o.operator_id === opA.id)).toBe(true);
  });

  it('refuses writes from outside, and moving an order out of the writer’s reach', async () => {
    expect(await call('client_order_update', { id: order.id, comment: 'чужой' }, userB)).toEqual(
      refused('запись не найдена'),
    );
    expect(await call('client_order_update', { id: order.id, comment: 'чужой' }, operatorB)).toEqual(
      refused('запись не найдена'),
    );
    expect(await action(position.id, 'checked', {}, operatorB)).toEqual(refused('запись не найдена'));
    // a client hands their order to another client (never: the client of an order is fixed, ADR 0018); an operator to another operator
    expect(await call('client_order_update', { id: order.id, client_id: clientB.id }, userA)).toEqual(
      refused(
        'клиент заказа не меняется: для другого клиента создайте новый заказ и перенесите в него позиции',
      ),
    );
    expect(await call('client_order_update', { id: order.id, operator_id: opB.id }, operatorA)).toEqual(
      refused('недостаточно прав для этого действия'),
    );
    const row = await stored('client_order', order.id);
    expect([row.client_id, row.operator_id, row.comment]).toEqual([clientA.id, opA.id, '']);
    // nor can a client order for another client, or from an operator not serving them
    expect(
      await call(
        'client_order_update',
        { id: -1, client_id: clientB.id, operator_id: opB.id, logistic_route_id: route.id, ...kinds },
        userA,
      ),
    ).toEqual(refused('недостаточно прав для этого действия'));
    expect(
      await call(
        'client_order_update',
        { id: -1, client_id: clientB.id, operator_id: opA.id, logistic_route_id: route.id, ...kinds },
        operatorA,
      ),
    ).toEqual(refused('этот оператор не обслуживает клиента заказа'));
    // the client may switch their draft to an operator serving them; then operator B reaches it, A no more
    expect(await call('client_order_update', { id: order.id, operator_id: opB.id }, userA)).toMatchObject({
      ok: true,
    });
    expect(await call('client_order_get_by_id', { id: order.id }, operatorB)).toMatchObject({ ok: true });
    expect(await call('client_order_get_by_id', { id: order.id }, operatorA)).toEqual(
      refused('запись не найдена'),
    );
    // an admin moves it back
    expect(await call('client_order_update', { id: order.id, operator_id: opA.id })).toMatchObject({
      ok: true,
    });
  });

  it('lets nobody mark an order paid by hand: paid amounts and states come from payments', async () => {
    const byPayments = refused(
      'оплаченные суммы и состояния оплаты меняются только платежами (окно оплаты заказа)',
    );
    expect(await call('client_order_update', { id: order.id, product_payment_state: 'paid' }, userA)).toEqual(
      byPayments,
    );
    expect(await call('client_order_update', { id: order.id, product_paid_rur: '100' }, operatorA)).toEqual(
      byPayments,
    );
    expect(await call('client_order_update', { id: order.id, delivery_paid_rur: '100' }, admin)).toEqual(
      byPayments,
    );
    expect((await stored('client_order', order.id)).product_payment_state).toBe('not_paid');
  });
});

describe('searching positions', () => {
  const ids = (reply: Any) => reply.result.items.map((p: Any) => p.id).sort((a: number, b: number) => a - b);

  it('finds a whole tracking number by the waybill alone, and a part of one everywhere', async () => {
    const stamp = String(Date.now()).slice(-8);
    const whole = `YT${stamp}01`;
    const order = await newOrder();
    const exact = await newPosition(order, { waybill: whole });
    const longer = await newPosition(order, { waybill: `${whole}22` });
    const named = await newPosition(order, { title: `Кружка ${whole}` });

    // any case, spaces around it: the parcel itself, not the positions that merely contain the number
    const found = await call('client_order_position_list', { search: ` ${whole.toLowerCase()} ` }, userA);
    expect(ids(found)).toEqual([exact.id]);
    expect(found.result).toMatchObject({ total: 1, total_exact: true });

    // a part of a number is no whole waybill: every field is searched
    const part = await call('client_order_position_list', { search: whole.slice(0, -1) }, userA);
    expect(ids(part)).toEqual([exact.id, longer.id, named.id]);

    // the exact path keeps the reader's reach
    for (const who of [userB, operatorB])
      expect((await call('client_order_position_list', { search: whole }, who)).result).toMatchObject({
        items: [],
        total: 0,
      });
  });

  it('counts more than a thousand matches exactly, and pages through them in order', async () => {
    const word = `Бренд${String(Date.now()).slice(-6)}`;
    const order = await newOrder();
    const positions = Array.from({ length: 1_200 }, (_, i) => ({ title: `${word} товар ${i + 1}` }));
    await call('client_order_position_import', { client_order_id: order.id, positions }, userA);

    const seen: number[] = [];
    let reply = await call('client_order_position_list', { search: word, per_page: 500 }, userA);
    expect(reply.result).toMatchObject({ total: 1_200, total_exact: true });
    for (;;) {
      seen.push(...reply.result.items.map((p: Any) => p.id));
      if (!reply.result.next_cursor) break;
      reply = await call(
        'client_order_position_list',
        { search: word, cursor: reply.result.next_cursor },
        userA,
      );
      expect(reply.result).toMatchObject({ total: 1_200, total_exact: true });
    }
    // newest first (the list's default order), each once
    expect(seen).toHaveLength(1_200);
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
  });
});
