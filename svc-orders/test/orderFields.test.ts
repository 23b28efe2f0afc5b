import { admin, refused, ordersWorld, type Any, type OrdersWorld } from './support';

/**
 * Who changes which order field at which stage, the owners of orders and positions, and the row
 * version (docs/access.md 'Order fields by stage and role', docs/adr/0018-order-fields-and-versions.md):
 * each refusal with its message, the rows re-read unchanged.
 */
let w: OrdersWorld;
let call: OrdersWorld['call'];
let create: OrdersWorld['create'];
let stored: OrdersWorld['stored'];
let clientA: Any, clientB: Any, opB: Any, route: Any, toys: Any;
let userA: Any, operatorB: Any;

beforeAll(async () => {
  w = await ordersWorld('orders-fields');
  ({ call, create, stored, clientA, clientB, opB, route, toys } = w);
  ({ clientA: userA, operatorB } = w.users);
});
afterAll(async () => {
  await w?.stop();
});

const kinds = { buyout_type: 'operator', delivery_type: 'to_door' };
const newOrder = (client: Any, who: Any = admin) =>
  create(
    w.orders,
    'client_order',
    { client_id: client.id, operator_id: opB.id, logistic_route_id: route.id, ...kinds },
    who,
  );
const newPosition = (order: Any) =>
  create(w.orders, 'client_order_position', {
    client_order_id: order.id,
    title: 'Мягкая игрушка',
    type_id: toys.id,
    price_cny: '35.50',
    amount: '10',
  });
/** Puts an order at a stage (and its positions along), as the stage moves would have: the test's own records. */
async function atStage(order: Any, stage: string, extra: Record<string, unknown> = {}) {
  await w.orders
    .db('client_order')
    .where({ id: order.id })
    .update({ stage, ...extra });
  const positionStage = stage === 'draft' ? 'draft' : stage;
  await w.orders
    .db('client_order_position')
    .where({ client_order_id: order.id })
    .update({ stage: positionStage });
}
const sumOfPaid = async (clientId: number) =>
  (
    await w.orders
      .db('client_order')
      .where({ client_id: clientId, deleted: false })
      .sum({ s: w.orders.db.raw('coalesce(product_paid_rur, 0)') })
      .first()
  )?.s as string;

describe('the order of a position and the client of an order change only through the procedures that check them', () => {
  it("refuses moving a paid position into another client's order by the generic update, for staff and admins", async () => {
    const paid = await newOrder(clientA);
    const position = await newPosition(paid);
    await atStage(paid, 'buyout_waiting', { product_paid_rur: '3550.00', product_payment_state: 'paid' });
    const other = await newOrder(clientB);
    await atStage(other, 'buyout_waiting');
    const paidA = await sumOfPaid(clientA.id);

    for (const who of [operatorB, admin])
      expect(
        await call('client_order_position_update', { id: position.id, client_order_id: other.id }, who),
      ).toEqual(refused('позиция переходит в другой заказ только переносом позиций (кнопка «перенести»)'));
    expect(await stored('client_order_position', position.id)).toMatchObject({
      client_order_id: paid.id,
      client_id: clientA.id,
    });
    expect(await sumOfPaid(clientA.id)).toBe(paidA);
    // the move itself refuses it with its reason
    expect(
      await call('client_order_position_move', { ids: [position.id], client_order_id: other.id }, operatorB),
    ).toEqual(refused('ошибка при переносе позиций: заказ принадлежит другому клиенту'));
  });

  it("refuses handing a client's draft order to another client", async () => {
    const draft = await newOrder(clientA, userA);
    await newPosition(draft);
    for (const who of [operatorB, userA, admin])
      expect(await call('client_order_update', { id: draft.id, client_id: clientB.id }, who)).toEqual(
        refused(
          'клиент заказа не меняется: для другого клиента создайте новый заказ и перенесите в него позиции',
        ),
      );
    expect((await stored('client_order', draft.id)).client_id).toBe(clientA.id);
    const owners = await w.orders
      .db('client_order_position')
      .where({ client_order_id: draft.id })
      .pluck('client_id');
    expect(owners.map(Number)).toEqual([clientA.id]);
  });
});

describe('order fields by stage and role', () => {
  it("refuses a client changing the carrier in Russia once the order has left for Russia; staff's shipment fields once received", async () => {
    const order = await newOrder(clientA, userA);
    await newPosition(order);
    await atStage(order, 'created');
    expect(
      await call('client_order_update', { id: order.id, transport_company_rus: 'pec' }, userA),
    ).toMatchObject({ ok: true, result: { transport_company_rus: 'pec' } });

    await atStage(order, 'client_confirmed', { state: 'done' });
    expect(await call('client_order_update', { id: order.id, transport_company_rus: 'cdek' }, userA)).toEqual(
      refused("на этапе «принят получателем» поле 'перевозчик по РФ' меняет только администратор"),
    );
    expect(await call('client_order_update', { id: order.id, weight: '3', volume: '1' }, operatorB)).toEqual(
      refused("на этапе «принят получателем» поля 'вес, кг', 'объём, м³' меняет только администратор"),
    );
    expect(await stored('client_order', order.id)).toMatchObject({
      transport_company_rus: 'pec',
      weight: null,
    });
    // notes stay the staff's; the admin changes everything
    expect(await call('client_order_update', { id: order.id, comment: 'закрыт' }, operatorB)).toMatchObject({
      ok: true,
    });
    expect(await call('client_order_update', { id: order.id, transport_company_rus: 'cdek' })).toMatchObject({
      ok: true,
    });
  });
});

describe('two staff pressing «отправлен в РФ» at once', () => {
  it('sends the order once; the second write, based on the same version, is told the order is already sent', async () => {
    const order = await newOrder(clientA);
    await newPosition(order);
    await atStage(order, 'warehouse_received');
    const { version } = await stored('client_order', order.id);
    const dialog = (shipment_article: string, weight: string) => ({
      id: order.id,
      version,
      stage: 'sent_to_ru',
      send_date: '2026-03-10',
      volume: '0.08',
      weight,
      amount: 2,
      shipment_article,
      to_ru_delivery_price: '45',
    });
    const replies = await Promise.all([
      call('client_order_update', dialog('ART-1', '12.5'), operatorB),
      call('client_order_update', dialog('ART-2', '20'), admin),
    ]);
    const first = replies.findIndex((r) => r.ok);
    expect(first).toBeGreaterThanOrEqual(0);
    expect(replies[1 - first]).toEqual(refused('заказ уже отправлен в РФ'));
    const row = await stored('client_order', order.id);
    expect(row).toMatchObject({
      stage: 'sent_to_ru',
      shipment_article: first === 0 ? 'ART-1' : 'ART-2',
      weight: first === 0 ? '12.500' : '20.000',
    });
    expect(row.version).toBeGreaterThan(version);

    // a later press, with or without the version it read, is refused the same way
    expect(await call('client_order_update', dialog('ART-3', '30'), operatorB)).toEqual(
      refused('заказ уже отправлен в РФ'),
    );
    const { version: _v, ...unversioned } = dialog('ART-3', '30');
    expect(await call('client_order_update', unversioned, operatorB)).toEqual(
      refused('заказ уже отправлен в РФ'),
    );
    // any other write based on an old reading is told to reload
    expect(await call('client_order_update', { id: order.id, version, comment: 'x' }, operatorB)).toEqual(
      refused('заказ изменён другим пользователем, пока открыта эта форма; обновите страницу и повторите'),
    );
    expect(await stored('client_order', order.id)).toMatchObject({
      shipment_article: row.shipment_article,
      comment: '',
    });
  });
});
