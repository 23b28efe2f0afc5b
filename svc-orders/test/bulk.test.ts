import { eventually, startService, type RunningService } from '@caravan/service-kit';
import ExcelJS from 'exceljs';
import { paymentsService } from '../../svc-payments/src/app';
import { admin, ordersWorld, refused, type Any, type OrdersWorld } from './support';

/**
 * Many positions at once (spec orders-payments-calls §2, §4, §5, §7; docs/adr/0010-positions-in-bulk.md):
 * import, paste, bulk edit, bulk stage change, move, consolidation and split, each refusal with its
 * message and nothing changed, and two bulk changes of one order at once.
 */
let w: OrdersWorld;
let payments: RunningService | undefined;
/** Operator A's yuan rate (svc-payments' exchange_rate, replicated into orders): 1 ¥ = 12.50 ₽. */
const YUAN = 12.5;
beforeAll(async () => {
  w = await ordersWorld('orders-bulk');
  // the rate the orders are priced at, so that every price below is a figure and never null
  payments = await startService(
    paymentsService({
      ...process.env,
      KAFKA_TOPIC_PREFIX: `${process.env.KAFKA_TOPIC_PREFIX ?? ''}orders-bulk-`,
    }),
  );
  await payments.bus.ready;
  const rate = await w.create(payments, 'exchange_rate', {
    date: '2026-11-21',
    operator_id: w.opA.id,
    client_sell_rate_cny: String(YUAN),
    client_sell_rate_usd: '95',
  });
  await eventually('the rate replicated into orders', async () =>
    Boolean(await w.orders.db('replica').where({ entity: 'exchange_rate', id: rate.id }).first()),
  );
});
afterAll(async () => {
  await Promise.all([w?.stop(), payments?.stop()]);
});
/** An order's buyout price as stored. */
const buyoutOf = async (orderId: number) => (await w.stored('client_order', orderId)).buyout_price_rur;

const image = [{ file: '/api/files/0b6c1b2e.jpg', deleted: false }];
const newOrder = (fields: Record<string, unknown> = {}, who = w.users.clientA) =>
  w.create(
    w.orders,
    'client_order',
    {
      client_id: w.clientA.id,
      operator_id: w.opA.id,
      logistic_route_id: w.route.id,
      buyout_type: 'operator',
      delivery_type: 'to_door',
      ...fields,
    },
    who,
  );
const newPosition = (order: Any, fields: Record<string, unknown> = {}, who = w.users.clientA) =>
  w.create(
    w.orders,
    'client_order_position',
    {
      client_order_id: order.id,
      title: 'Мягкая игрушка',
      link: 'https://item.taobao.com/1',
      product_images: image,
      type_id: w.toys.id,
      price_cny: '10.00',
      amount: '4',
      ...fields,
    },
    who,
  );
/** Positions of an order as stored, oldest first. */
const positionsOf = (orderId: number) =>
  w.orders.db('client_order_position').where({ client_order_id: orderId, deleted: false }).orderBy('id');
const snapshot = async (...orderIds: number[]) => ({
  orders: await w.orders.db('client_order').whereIn('id', orderIds).orderBy('id'),
  positions: await w.orders.db('client_order_position').whereIn('client_order_id', orderIds).orderBy('id'),
});

/** An order of `n` positions bought out (stage buyout_done), by the machine's own calls. */
async function boughtOut(n: number, fields: Record<string, unknown> = {}) {
  const order = await newOrder();
  const positions = [];
  for (let i = 0; i < n; i++)
    positions.push(await newPosition(order, { title: `Игрушка ${i + 1}`, ...fields }));
  const { operatorA } = w.users;
  expect(await w.call('client_order_created', { id: order.id }, w.users.clientA)).toMatchObject({ ok: true });
  for (const p of positions)
    await w.call('client_order_position_action', { id: p.id, action: 'checked' }, operatorA);
  expect(await w.call('client_order_buyout_waiting', { id: order.id }, operatorA)).toMatchObject({
    ok: true,
  });
  for (const p of positions)
    expect(
      await w.call('client_order_position_action', { id: p.id, action: 'buyout_done' }, operatorA),
    ).toMatchObject({
      ok: true,
    });
  return { order, positions };
}

describe('import and paste (client_order_position_import)', () => {
  it('creates every row in one go, joins the invoice number and answers the spec notice', async () => {
    const order = await newOrder({ order_number: 'A-1' }, admin);
    const reply = await w.call(
      'client_order_position_import',
      {
        client_order_id: order.id,
        order_number: '77',
        positions: [
          { title: 'Кружка', amount: '12', sell_price_no_nds_rur: '100.00', sell_price_nds_rur: '120.00' },
          { title: 'Ложка', amount: '3.5' },
        ],
      },
      w.users.clientA,
    );
    expect(reply).toEqual({
      ok: true,
      result: { count: 2, message: 'позиции успешно импортированы' },
      message: undefined,
    });
    const rows = await positionsOf(order.id);
    expect(
      rows.map((r) => [r.title, r.amount, r.sell_price_no_nds_rur, r.sell_price_nds_rur, r.stage]),
    ).toEqual([
      ['Кружка', '12.00', '100.00', '120.00', 'draft'],
      ['Ложка', '3.50', null, null, 'draft'],
    ]);
    expect((await w.stored('client_order', order.id)).order_number).toBe('A-1, 77');
  });

  it('pastes positions with their waybills and type: добавлено позиций из буфера обмена: N', async () => {
    const order = await newOrder();
    const reply = await w.call(
      'client_order_position_import',
      {
        client_order_id: order.id,
        source: 'clipboard',
        positions: [
          { title: 'Кроссовки', waybill: 'YT123456', type_id: w.shoes.id },
          { title: 'Мяч', waybill: 'SF998877', type_id: w.toys.id },
        ],
      },
      w.users.clientA,
    );
    expect(reply.result.message).toBe('добавлено позиций из буфера обмена: 2');
    expect((await positionsOf(order.id)).map((r) => [r.waybill, r.type_id])).toEqual([
      ['YT123456', w.shoes.id],
      ['SF998877', w.toys.id],
    ]);
  });

  it('refuses the whole import for one bad row, a formed order and another client, creating nothing', async () => {
    const order = await newOrder();
    await newPosition(order);
    const before = await snapshot(order.id);
    expect(
      await w.call(
        'client_order_position_import',
        { client_order_id: order.id, positions: [{ title: 'Кружка' }, { title: 'Тип', type_id: 999999 }] },
        w.users.clientA,
      ),
    ).toEqual(refused("неверное значение поля 'тип товара': запись не найдена"));
    expect(
      await w.call(
        'client_order_position_import',
        { client_order_id: order.id, positions: [{ title: 'Кружка' }] },
        w.users.clientB,
      ),
    ).toEqual(refused('запись не найдена'));
    expect(
      await w.call(
        'client_order_position_import',
        { client_order_id: order.id, positions: [{ title: '   ' }] },
        w.users.clientA,
      ),
    ).toMatchObject({ ok: false, message: expect.stringContaining('название') });
    await w.call('client_order_created', { id: order.id }, w.users.clientA);
    const formed = await snapshot(order.id);
    expect(
      await w.call(
        'client_order_position_import',
        { client_order_id: order.id, positions: [{ title: 'Кружка' }] },
        w.users.operatorA,
      ),
    ).toEqual(refused('импорт позиций возможен только в новый заказ'));
    expect((await snapshot(order.id)).positions).toEqual(formed.positions);
    expect(before.positions).toHaveLength(1);
  });
});

describe('the Excel endpoint (/api/client_order_excel_import)', () => {
  const invoice = async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Счет');
    ws.addRow(['ООО «Поставщик»']);
    ws.addRow(['Счет на оплату № 451 от 20 ноября 2026 г.']);
    ws.addRow([]);
    ws.addRow(['№', 'Товары (работы, услуги)', 'Кол-во', 'Ед.', 'Цена', 'Сумма']);
    ws.addRow([1, 'Термокружка 350 мл', '1 200', 'шт', '250,00', '300 000,00']);
    ws.addRow([2, 'Крышка', 10, 'шт', 15.5, 155]);
    ws.addRow(['', 'Итого:', '', '', '', '300 155,00']);
    return Buffer.from(await wb.xlsx.writeBuffer());
  };

  it('reads a supplier invoice into rows and its number, storing nothing', async () => {
    const order = await newOrder();
    const reply = await w.upload(
      'client_order_excel_import',
      [await invoice(), 'счёт.xlsx'],
      { type: 'invoice', orderId: String(order.id) },
      w.users.clientA,
    );
    expect(reply.ok).toBe(true);
    expect(reply.result.number).toBe('451');
    expect(reply.result.rows.map((r: Any) => [r.title, r.amount, r.unit])).toEqual([
      ['Термокружка 350 мл', '1200', 'шт'],
      ['Крышка', '10', 'шт'],
    ]);
    expect(await positionsOf(order.id)).toHaveLength(0);
  });

  it('refuses another extension, another client and a formed order', async () => {
    const order = await newOrder();
    const form = { type: 'invoice', orderId: String(order.id) };
    expect(
      await w.upload('client_order_excel_import', [Buffer.from('a;b'), 'счёт.csv'], form, w.users.clientA),
    ).toEqual(refused('допустимы только файлы с раширением: xlsx, xls'));
    expect(
      await w.upload('client_order_excel_import', [await invoice(), 'a.xlsx'], form, w.users.clientB),
    ).toEqual(refused('запись не найдена'));
    await newPosition(order);
    await w.call('client_order_created', { id: order.id }, w.users.clientA);
    expect(
      await w.upload('client_order_excel_import', [await invoice(), 'a.xlsx'], form, w.users.clientA),
    ).toEqual(refused('импорт позиций возможен только в новый заказ'));
  });
});

describe('bulk edit (client_order_position_bulk_update)', () => {
  it('sets only the non-empty fields on every selected position: данные N позиций изменены', async () => {
    const order = await newOrder();
    const [a, b] = [
      await newPosition(order, { waybill: 'KEEP1' }),
      await newPosition(order, { waybill: 'KEEP2' }),
    ];
    const provider = await w.create(w.orders, 'provider', {
      name_str: 'Фабрика Иу',
      client_id: w.clientA.id,
    });
    const reply = await w.call(
      'client_order_position_bulk_update',
      { ids: [a.id, b.id], fields: { waybill: '', type_id: w.shoes.id, provider_id: provider.id } },
      w.users.clientA,
    );
    expect(reply.result.message).toBe('данные 2 позиций изменены');
    expect((await positionsOf(order.id)).map((r) => [r.waybill, r.type_id, r.provider_id])).toEqual([
      ['KEEP1', w.shoes.id, provider.id],
      ['KEEP2', w.shoes.id, provider.id],
    ]);
  });

  it("refuses another client's supplier, a client's formed order and an empty change, changing nothing", async () => {
    const order = await newOrder();
    const p = await newPosition(order);
    const foreign = await w.create(w.orders, 'provider', { name_str: 'Чужой', client_id: w.clientB.id });
    expect(
      await w.call(
        'client_order_position_bulk_update',
        { ids: [p.id], fields: { provider_id: foreign.id } },
        w.users.clientA,
      ),
    ).toEqual(refused("неверное значение поля 'поставщик': запись не найдена"));
    expect(
      await w.call(
        'client_order_position_bulk_update',
        { ids: [p.id], fields: { link: ' ' } },
        w.users.clientA,
      ),
    ).toEqual(refused('укажите хотя бы одно поле для изменения'));
    expect(
      await w.call(
        'client_order_position_bulk_update',
        { ids: [p.id], fields: { link: 'x' } },
        w.users.clientB,
      ),
    ).toEqual(refused('запись не найдена'));
    await w.call('client_order_created', { id: order.id }, w.users.clientA);
    const before = await w.stored('client_order_position', p.id);
    expect(
      await w.call(
        'client_order_position_bulk_update',
        { ids: [p.id], fields: { waybill: 'NEW' } },
        w.users.clientA,
      ),
    ).toEqual(refused('данные позиций сформированного заказа меняет только оператор или администратор'));
    expect(await w.stored('client_order_position', p.id)).toEqual(before);
  });
});

describe('bulk stage change (client_order_position_bulk_action)', () => {
  it('sends bought-out positions to the warehouse, then receives them with one shipment record each', async () => {
    const { order, positions } = await boughtOut(3, { waybill: 'YT0001' });
    const ids = positions.map((p) => p.id);
    const { operatorA } = w.users;
    expect(
      await w.call(
        'client_order_position_bulk_action',
        { ids, action: 'warehouse_waiting', receive_date: '2026-11-25' },
        operatorA,
      ),
    ).toMatchObject({ ok: true, result: { count: 3, message: 'этап в 3 позициях изменён' } });
    expect((await w.stored('client_order', order.id)).stage).toBe('warehouse_waiting');
    // one position already has a record: the new one gets the next id
    await w.orders
      .db('client_order_position')
      .where({ id: ids[0] })
      .update({
        consolidation_receive_table: JSON.stringify([
          { id: 4, transporter: '', date: '2026-11-20', amount: 1, cost: null, comment: '' },
        ]),
      });
    expect(
      await w.call(
        'client_order_position_bulk_action',
        { ids, action: 'warehouse_received', receive_record: { date: '2026-11-27' } },
        operatorA,
      ),
    ).toEqual(refused('не указано кол-во коробок'));
    expect(
      await w.call(
        'client_order_position_bulk_action',
        { ids, action: 'warehouse_received', receive_record: { amount: 2 } },
        operatorA,
      ),
    ).toEqual(refused('не указана дата'));
    const reply = await w.call(
      'client_order_position_bulk_action',
      {
        ids,
        action: 'warehouse_received',
        receive_record: { date: '2026-11-27', amount: 2, transporter: 'SF' },
      },
      operatorA,
    );
    expect(reply.result.message).toBe('этап в 3 позициях изменён');
    const rows = await positionsOf(order.id);
    expect(
      rows.map((r) => [
        r.stage,
        r.to_consolidation_warehouse_delivery_date,
        r.consolidation_receive_table.map((x: Any) => x.id),
      ]),
    ).toEqual([
      ['warehouse_received', '2026-11-27', [4, 5]],
      ['warehouse_received', '2026-11-27', [1]],
      ['warehouse_received', '2026-11-27', [1]],
    ]);
    expect((await w.stored('client_order', order.id)).stage).toBe('warehouse_received');
  });

  it('affects only positions in the source stage and refuses missing waybills with their count, changing nothing', async () => {
    const { order, positions } = await boughtOut(3);
    const { operatorA } = w.users;
    await w.call('client_order_position_update', { id: positions[0].id, waybill: 'YT77' }, operatorA);
    const before = await snapshot(order.id);
    expect(
      await w.call(
        'client_order_position_bulk_action',
        { ids: positions.map((p) => p.id), action: 'warehouse_waiting', receive_date: '2026-11-25' },
        operatorA,
      ),
    ).toEqual(refused('необходимо указать waybill в 2 позициях'));
    expect(await snapshot(order.id)).toEqual(before);
    expect(
      await w.call(
        'client_order_position_bulk_action',
        {
          ids: [positions[0].id],
          action: 'warehouse_received',
          receive_record: { date: '2026-11-27', amount: 1 },
        },
        operatorA,
      ),
    ).toEqual(refused('среди выбранных нет позиций на этапе «отправлена на склад консолидации»'));
    expect(
      await w.call(
        'client_order_position_bulk_action',
        { ids: [positions[0].id], action: 'warehouse_waiting', receive_date: '2026-11-25' },
        w.users.clientA,
      ),
    ).toEqual(refused('действие доступно только администратору или оператору'));
    expect(
      await w.call(
        'client_order_position_bulk_action',
        { ids: [positions[0].id], action: 'warehouse_waiting', receive_date: '2026-11-25' },
        w.users.operatorB,
      ),
    ).toEqual(refused('запись не найдена'));
    // a mixed selection: only the bought-out one with a waybill moves
    await w.call(
      'client_order_position_bulk_action',
      { ids: [positions[0].id], action: 'warehouse_waiting', receive_date: '2026-11-25' },
      operatorA,
    );
    const reply = await w.call(
      'client_order_position_bulk_action',
      {
        ids: [positions[0].id, positions[1].id],
        action: 'warehouse_received',
        receive_record: { date: '2026-11-27', amount: 1 },
      },
      operatorA,
    );
    expect(reply.result.message).toBe('этап в 1 позиции изменён');
    expect((await positionsOf(order.id)).map((r) => r.stage)).toEqual([
      'warehouse_received',
      'buyout_done',
      'buyout_done',
    ]);
  });

  it('two operators receiving the same positions at once: one record per position, a consistent order', async () => {
    const { order, positions } = await boughtOut(6, { waybill: 'YT9' });
    const ids = positions.map((p) => p.id);
    const { operatorA } = w.users;
    await w.call(
      'client_order_position_bulk_action',
      { ids, action: 'warehouse_waiting', receive_date: '2026-11-25' },
      operatorA,
    );
    const receive = (part: number[]) =>
      w.call(
        'client_order_position_bulk_action',
        { ids: part, action: 'warehouse_received', receive_record: { date: '2026-11-28', amount: 1 } },
        operatorA,
      );
    const replies = await Promise.all([
      receive(ids.slice(0, 4)),
      receive(ids.slice(2)),
      receive(ids.slice(1, 5)),
    ]);
    const moved = replies.filter((r) => r.ok).reduce((n, r) => n + r.result.count, 0);
    expect(moved).toBe(6);
    const rows = await positionsOf(order.id);
    expect(
      rows.every((r) => r.stage === 'warehouse_received' && r.consolidation_receive_table.length === 1),
    ).toBe(true);
    expect((await w.stored('client_order', order.id)).stage).toBe('warehouse_received');
  });
});

describe('move (client_order_position_move)', () => {
  it('moves positions to another order of the client and reprices both', async () => {
    const [from, to] = [await newOrder(), await newOrder()];
    const [a, b] = [await newPosition(from, { price_cny: '10.00', amount: '2' }), await newPosition(from)];
    await newPosition(to);
    // ¥ 10 × 2 + ¥ 10 × 4 = ¥ 60 and ¥ 40, at 12.50 ₽
    expect([await buyoutOf(from.id), await buyoutOf(to.id)]).toEqual(['750.00', '500.00']);
    expect(
      await w.call('client_order_position_move', { ids: [a.id], client_order_id: to.id }, w.users.clientA),
    ).toMatchObject({ ok: true, result: { message: 'перенесено позиций: 1' } });
    expect((await positionsOf(to.id)).map((r) => r.id)).toContain(a.id);
    expect((await positionsOf(from.id)).map((r) => r.id)).toEqual([b.id]);
    // the ¥ 20 went over: ¥ 40 and ¥ 60
    expect([await buyoutOf(from.id), await buyoutOf(to.id)]).toEqual(['500.00', '750.00']);
  });

  it('refuses another client, a formed order for a client and an empty selection, naming the move', async () => {
    const [mine, formed] = [await newOrder(), await newOrder()];
    const p = await newPosition(mine);
    await newPosition(formed);
    await w.call('client_order_created', { id: formed.id }, w.users.clientA);
    const theirs = await newOrder({ client_id: w.clientB.id, operator_id: w.opB.id }, admin);
    const before = await snapshot(mine.id, formed.id, theirs.id);
    expect(await w.call('client_order_position_move', { ids: [p.id], client_order_id: theirs.id })).toEqual(
      refused('ошибка при переносе позиций: заказ принадлежит другому клиенту'),
    );
    expect(
      await w.call(
        'client_order_position_move',
        { ids: [p.id], client_order_id: formed.id },
        w.users.clientA,
      ),
    ).toEqual(
      refused(
        'ошибка при переносе позиций: в сформированный заказ переносит только оператор или администратор',
      ),
    );
    expect(
      await w.call(
        'client_order_position_move',
        { ids: [p.id], client_order_id: theirs.id },
        w.users.clientA,
      ),
    ).toEqual(refused('ошибка при переносе позиций: запись не найдена'));
    expect(await w.call('client_order_position_move', { ids: [], client_order_id: formed.id })).toMatchObject(
      { ok: false },
    );
    expect(await snapshot(mine.id, formed.id, theirs.id)).toEqual(before);
    // staff neither: the orders stand at different stages
    expect(
      await w.call(
        'client_order_position_move',
        { ids: [p.id], client_order_id: formed.id },
        w.users.operatorA,
      ),
    ).toEqual(
      refused(
        'ошибка при переносе позиций: позиции переносятся между заказами на одном этапе: «новый» и «сформирован» — разные',
      ),
    );
    expect(await snapshot(mine.id, formed.id, theirs.id)).toEqual(before);
  });
});

describe('consolidation (client_order_consolidate)', () => {
  it('moves positions between two orders by the map, recomputing both orders', async () => {
    const [left, right] = [await newOrder(), await newOrder()];
    const l1 = await newPosition(left, { price_cny: '10.00', amount: '1' });
    const l2 = await newPosition(left, { price_cny: '20.00', amount: '1' });
    const r1 = await newPosition(right, { price_cny: '5.00', amount: '1' });
    const reply = await w.call(
      'client_order_consolidate',
      { order_map: { [left.id]: [l1.id], [right.id]: [r1.id, l2.id] } },
      w.users.clientA,
    );
    expect(reply.result.message).toBe('консолидация заказов выполнена');
    expect((await positionsOf(right.id)).map((r) => r.id)).toEqual([l2.id, r1.id].sort((a, b) => a - b));
    // buyout prices follow the positions (¥ × the order's rate): ¥ 10 on the left, ¥ 25 on the right
    expect([await buyoutOf(left.id), await buyoutOf(right.id)]).toEqual(['125.00', '312.50']);
  });

  it('refuses a lonely order, a map that loses a position, and orders of two clients', async () => {
    const [left, right] = [await newOrder(), await newOrder()];
    const l1 = await newPosition(left);
    const r1 = await newPosition(right);
    const before = await snapshot(left.id, right.id);
    expect(
      await w.call('client_order_consolidate', { order_map: { [left.id]: [l1.id, r1.id] } }, w.users.clientA),
    ).toEqual(refused('слишком мало подходящих заказов (1), должно быть больше 2'));
    expect(
      await w.call(
        'client_order_consolidate',
        { order_map: { [left.id]: [], [right.id]: [r1.id] } },
        w.users.clientA,
      ),
    ).toEqual(refused('каждая позиция заказов консолидации должна остаться в одном из них'));
    expect(
      await w.call(
        'client_order_consolidate',
        { order_map: { [left.id]: [l1.id], [right.id]: [r1.id] } },
        w.users.clientA,
      ),
    ).toEqual(refused('выберите позиции для консолидации'));
    const theirs = await newOrder({ client_id: w.clientB.id, operator_id: w.opB.id }, admin);
    expect(
      await w.call('client_order_consolidate', { order_map: { [left.id]: [], [theirs.id]: [l1.id] } }),
    ).toEqual(refused('заказ принадлежит другому клиенту'));
    expect(await snapshot(left.id, right.id)).toEqual(before);
  });
});

describe('split (client_order_split)', () => {
  it('creates a child order with whole positions and part of one, the amounts kept', async () => {
    const master = await newOrder();
    const a = await newPosition(master, { title: 'Кружка', amount: '10' });
    const b = await newPosition(master, { title: 'Ложка', amount: '3' });
    const c = await newPosition(master, { title: 'Вилка', amount: '5' });
    const reply = await w.call(
      'client_order_split',
      {
        master_order_id: master.id,
        position_list: [
          { id: a.id, amount: '2.5' },
          { id: b.id, amount: 3 },
        ],
      },
      w.users.clientA,
    );
    expect(reply).toMatchObject({ ok: true, result: { message: 'дочерний заказ создан' } });
    const child = await w.stored('client_order', reply.result.id);
    expect([child.parent_order_id, child.client_id, child.operator_id, child.stage]).toEqual([
      master.id,
      w.clientA.id,
      w.opA.id,
      'draft',
    ]);
    expect((await positionsOf(master.id)).map((r) => [r.title, r.amount])).toEqual([
      ['Кружка', '7.50'],
      ['Вилка', '5.00'],
    ]);
    expect((await positionsOf(child.id)).map((r) => [r.title, r.amount])).toEqual([
      ['Ложка', '3.00'],
      ['Кружка', '2.50'],
    ]);
    expect(c.id).toBeGreaterThan(0);
    const got = await w.call('client_order_get_by_id', { id: master.id }, w.users.clientA);
    expect(got.result.children.map((x: Any) => x.id)).toEqual([child.id]);
    // a child is not split again
    expect(
      await w.call(
        'client_order_split',
        { master_order_id: child.id, position_list: [{ id: b.id, amount: 1 }] },
        w.users.clientA,
      ),
    ).toEqual(refused('дочерний заказ нельзя разделить ещё раз'));
  });

  it('refuses each §5 mistake and changes nothing', async () => {
    const master = await newOrder();
    const a = await newPosition(master, { amount: '4' });
    await newPosition(master, { amount: '1' });
    const before = await snapshot(master.id);
    const split = (position_list: unknown, who = w.users.clientA) =>
      w.call('client_order_split', { master_order_id: master.id, position_list }, who);
    expect(await split([])).toEqual(refused('выберите хотя бы одну позицию'));
    expect(await split([{ id: a.id, amount: '4.01' }])).toEqual(refused('количество не может быть больше 4'));
    expect(await split([{ id: a.id, amount: 0 }])).toEqual(refused('количество должно быть больше 0'));
    expect(await split([{ id: a.id, amount: '1' }], w.users.clientB)).toEqual(refused('запись не найдена'));
    const all = (await positionsOf(master.id)).map((r) => ({ id: r.id, amount: r.amount }));
    expect(await split(all)).toEqual(refused('в заказе должна остаться хотя бы одна позиция'));
    expect(await snapshot(master.id)).toEqual(before);
    expect(await w.orders.db('client_order').where({ parent_order_id: master.id })).toHaveLength(0);
  });

  it('a split and a move of the same order at once end consistent: every unit in exactly one order', async () => {
    const [master, other] = [await newOrder(), await newOrder()];
    const ps = [];
    for (let i = 0; i < 6; i++) ps.push(await newPosition(master, { title: `П${i}`, amount: '10' }));
    const [split, move] = await Promise.all([
      w.call('client_order_split', {
        master_order_id: master.id,
        position_list: ps.slice(0, 4).map((p) => ({ id: p.id, amount: '4' })),
      }),
      w.call('client_order_position_move', { ids: ps.slice(2).map((p) => p.id), client_order_id: other.id }),
    ]);
    expect([split.ok, move.ok]).toContain(true);
    const family = [master.id, other.id, ...(split.ok ? [split.result.id] : [])];
    const rows = await w.orders
      .db('client_order_position')
      .whereIn('client_order_id', family)
      .where({ deleted: false });
    const total = rows.reduce((n, r) => n + Number(r.amount), 0);
    expect(total).toBe(60);
    // the loser of the race was refused whole: the split moved four, or the move took its four
    const inOther = rows.filter((r) => r.client_order_id === other.id).length;
    expect(inOther === 0 || inOther === 4).toBe(true);
  });
});
