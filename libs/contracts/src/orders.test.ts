import {
  operatorHoursNotice,
  appendReceiveRecord,
  buyoutWaitingProblems,
  checkedProblems,
  clientOrder,
  clientOrderPosition,
  CONSOLIDATION_STAGES,
  describeIssues,
  movableOrderStagesFor,
  ORDER_OWNER_FIXED_FIELDS,
  orderEditableFields,
  positionDataEditable,
  ORDER_MESSAGES,
  orderCreatedProblems,
  orderStageFromPositions,
  orderTransition,
  positionAction,
  positionWarnings,
  receiveRecordProblem,
  waybillsMissingProblem,
  type PositionFacts,
} from './index';

const client = { roles: ['client' as const] };
const operator = { roles: ['operator' as const] };

const position = (over: Partial<PositionFacts> = {}): PositionFacts => ({
  title: 'Кроссовки',
  stage: 'verification',
  buyout_state: 'not_done',
  price_cny: '120.00',
  amount: '2',
  type_id: 7,
  waybill: 'SF1234567890',
  link: 'https://item.taobao.com/1',
  files: [],
  product_images: [{ deleted: false }],
  ...over,
});

describe('the order stage machine', () => {
  const order = { stage: 'draft' as const, delivery_type: 'to_door' as const };

  it('forms a draft by client_order_created, for the client too', () => {
    expect(orderTransition(order, 'created', 'client_order_created', client)).toMatchObject({ ok: true });
  });

  it('refuses forming it by a plain update, and a jump over stages', () => {
    expect(orderTransition(order, 'created', 'client_order_update', client)).toEqual({
      ok: false,
      message: 'этап «сформирован» ставится кнопкой на странице заказа, а не правкой поля',
    });
    expect(orderTransition(order, 'sent_to_ru', 'client_order_update', operator)).toEqual({
      ok: false,
      message: 'заказ нельзя перевести из этапа «новый» в «отправлен в РФ»',
    });
  });

  it('lets only staff ask for payment and send to Russia; anyone who sees the card receive it', () => {
    const created = { ...order, stage: 'created' as const };
    expect(orderTransition(created, 'buyout_waiting', 'client_order_buyout_waiting', client)).toEqual({
      ok: false,
      message: 'действие доступно только администратору или оператору',
    });
    expect(orderTransition(created, 'buyout_waiting', 'client_order_buyout_waiting', operator)).toMatchObject(
      { ok: true, transition: { success: 'заказ ожидает оплаты от клиента' } },
    );
    const received = { ...order, stage: 'warehouse_received' as const };
    expect(orderTransition(received, 'sent_to_ru', 'client_order_update', client).ok).toBe(false);
    expect(orderTransition(received, 'sent_to_ru', 'client_order_update', operator)).toMatchObject({
      ok: true,
      // spec §5: the sent-to-RU dialog's fields, the currency aside (it defaults to USD)
      transition: {
        required: ['send_date', 'shipment_article', 'volume', 'weight', 'amount', 'to_ru_delivery_price'],
      },
    });
    const atDoor = { ...order, stage: 'sent_to_door' as const };
    expect(orderTransition(atDoor, 'client_received', 'client_order_update', client).ok).toBe(true);
  });

  it('hands an order to the recipient straight from sent_to_ru only when it goes to Russia only', () => {
    const inRu = { stage: 'sent_to_ru' as const, delivery_type: 'to_door' as const };
    expect(orderTransition(inRu, 'client_received', 'client_order_update', client)).toEqual({
      ok: false,
      message: 'вручение получателю на этапе «отправлен в РФ» возможно только при доставке до РФ',
    });
    expect(
      orderTransition({ ...inRu, delivery_type: 'to_ru' }, 'client_received', 'client_order_update', client)
        .ok,
    ).toBe(true);
  });

  it('follows its positions to buyout_done, warehouse_waiting and warehouse_received, never back', () => {
    expect(orderStageFromPositions('buyout_waiting', ['buyout_done', 'warehouse_waiting'])).toBe(
      'buyout_done',
    );
    expect(orderStageFromPositions('buyout_done', ['warehouse_received', 'warehouse_waiting'])).toBe(
      'warehouse_waiting',
    );
    expect(orderStageFromPositions('created', ['warehouse_received'])).toBe('warehouse_received');
    expect(orderStageFromPositions('buyout_waiting', ['buyout_done', 'created'])).toBeNull();
    expect(orderStageFromPositions('warehouse_received', ['warehouse_waiting'])).toBeNull();
    expect(orderStageFromPositions('draft', ['buyout_done'])).toBeNull();
    expect(orderStageFromPositions('sent_to_ru', ['warehouse_received'])).toBeNull();
  });
});

describe('order-created checks (spec §5)', () => {
  it('needs a route first', () => {
    expect(
      orderCreatedProblems({ buyout_type: 'operator', logistic_route_id: null }, [position()], [7]),
    ).toEqual(['не указан тариф']);
  });

  it('counts self-buyout positions without waybill and without type, with the warning', () => {
    const problems = orderCreatedProblems(
      { buyout_type: 'self', logistic_route_id: 1 },
      [position({ waybill: '' }), position({ waybill: 'none', type_id: null }), position()],
      [7],
    );
    expect(problems).toEqual([
      'позиций без waybill: 2',
      'позиций без типа: 1',
      'указан "самовыкуп". у всех позиций должны быть указаны [waybill] и [тип товара]',
    ]);
  });

  it('counts operator-buyout positions without link and without screenshot or file', () => {
    const problems = orderCreatedProblems(
      { buyout_type: 'operator', logistic_route_id: 1 },
      [
        position({ link: ' ' }),
        position({ product_images: [{ deleted: true }] }),
        position({ product_images: [], files: [{ deleted: false }] }),
      ],
      [7],
    );
    expect(problems).toEqual(['позиций без ссылки / wechat продавца: 1', 'позиций без скриншота/файла: 1']);
  });

  it('refuses mixed types and types the route does not carry', () => {
    const order = { buyout_type: 'operator' as const, logistic_route_id: 1 };
    expect(orderCreatedProblems(order, [position(), position({ type_id: 8 })], [7, 8])).toEqual([
      'в заказе есть товары разных типов',
    ]);
    expect(orderCreatedProblems(order, [position({ type_id: 9 })], [7])).toEqual([
      'типы товаров позиций не совпадают с типами товаров тарифа',
    ]);
    expect(orderCreatedProblems(order, [position()], [7])).toEqual([]);
  });
});

describe('position actions (spec §4, §5)', () => {
  it("'checked' needs price, amount and a type of the route", () => {
    expect(checkedProblems({ price_cny: null, amount: '', type_id: 3 }, [7])).toEqual([
      'не указано кол-во',
      'не указана цена',
      'тип товара не совпадают с типами товаров тарифа',
    ]);
    expect(positionAction(position({ amount: null }), 'checked', [7])).toEqual({
      ok: false,
      message: 'не указано кол-во',
    });
    expect(positionAction(position(), 'verification_done', [7])).toEqual({
      ok: true,
      move: { stage: 'created' },
    });
  });

  it('buys out fully or partly, and a partly bought one later fully', () => {
    expect(positionAction(position({ stage: 'created' }), 'buyout_done_part', [])).toEqual({
      ok: true,
      move: { stage: 'buyout_done', buyout_state: 'done_part' },
    });
    expect(
      positionAction(position({ stage: 'buyout_done', buyout_state: 'done_part' }), 'buyout_done', []),
    ).toEqual({ ok: true, move: { stage: 'buyout_done', buyout_state: 'done' } });
    expect(
      positionAction(position({ stage: 'buyout_done', buyout_state: 'done' }), 'buyout_done', []),
    ).toEqual({
      ok: false,
      message: 'позиция уже выкуплена',
    });
    expect(positionAction(position(), 'buyout_done', [])).toEqual({
      ok: false,
      message: 'действие «выкуплено» недоступно для позиции на этапе «на проверке»',
    });
  });

  it("sends to the consolidation warehouse only with a waybill: 'укажите waybill'", () => {
    const bought = position({ stage: 'buyout_done', buyout_state: 'done', waybill: 'none' });
    expect(positionAction(bought, 'warehouse_waiting', [], { receive_date: '2026-03-05' })).toEqual({
      ok: false,
      message: 'укажите waybill',
    });
    expect(
      positionAction({ ...bought, waybill: 'YT123' }, 'warehouse_waiting', [], {
        receive_date: '2026-03-05',
      }),
    ).toEqual({ ok: true, move: { stage: 'warehouse_waiting' } });
    expect(waybillsMissingProblem([bought, { waybill: '' }, { waybill: 'X1' }])).toBe(
      'необходимо указать waybill в 2 позициях',
    );
  });

  it('receives at the warehouse with a box count and a date, appending record id max+1', () => {
    const waiting = position({ stage: 'warehouse_waiting' });
    expect(
      positionAction(waiting, 'warehouse_received', [], { receive_record: { date: '2026-03-05' } }),
    ).toEqual({
      ok: false,
      message: 'не указано кол-во коробок',
    });
    expect(receiveRecordProblem({ amount: 3, date: null })).toBe('не указана дата');
    const table = [
      { id: 1, date: '2026-03-01', amount: 1 },
      { id: 4, date: '2026-03-02', amount: 2 },
    ];
    expect(appendReceiveRecord(table, { date: '2026-03-05', amount: 3 }).at(-1)).toEqual({
      id: 5,
      date: '2026-03-05',
      amount: 3,
    });
    expect(appendReceiveRecord<(typeof table)[number]>([], { date: '2026-03-05', amount: 3 })[0]!.id).toBe(1);
  });
});

describe('hints and warnings', () => {
  it('asks for payment only with checked positions that each have a price or an amount', () => {
    expect(buyoutWaitingProblems([])).toEqual(['в заказе нет позиций']);
    expect(buyoutWaitingProblems([{ price_cny: null, amount: null, stage: 'created' }])).toEqual([
      'не указаны необходимые данные (цена / кол-во) в 1 позиции',
    ]);
    expect(
      buyoutWaitingProblems([
        { price_cny: '1', amount: '1', stage: 'verification' },
        { price_cny: '1', amount: '1', stage: 'created' },
      ]),
    ).toEqual(['позиций на проверке: 1; сначала проверьте их']);
    expect(ORDER_MESSAGES.priceOrAmountMissing(3)).toBe(
      'не указаны необходимые данные (цена / кол-во) в 3 позициях',
    );
    expect(buyoutWaitingProblems([{ price_cny: '1', amount: null, stage: 'created' }])).toEqual([]);
  });

  it('gives the warning icon its reasons by buyout type and role', () => {
    const bare = position({ link: '', product_images: [], waybill: '', type_id: null, price_cny: null });
    expect(positionWarnings(bare, 'operator', client)).toEqual([
      'не прикреплено фото / файл',
      'не указана ссылка / wechat продавца',
    ]);
    expect(positionWarnings(bare, 'self', operator)).toEqual([
      'не указан waybill',
      'не указан тип товара',
      'необходима проверка',
    ]);
    expect(positionWarnings(position(), 'operator', operator)).toEqual([]);
  });
});

describe('the order and position contracts', () => {
  it('strips spaces from the carrier number and names missing required fields by label', () => {
    const parsed = clientOrder.fields.partial().parse({ transport_company_rus_order_number: ' 10 20 30 ' });
    expect(parsed.transport_company_rus_order_number).toBe('102030');
    const bad = clientOrderPosition.fields.safeParse({ client_order_id: 1, title: '', price_cny: 1.234 });
    expect(bad.success).toBe(false);
    const text = describeIssues(bad.error!.issues, { title: '', price_cny: 1.234 }, clientOrderPosition);
    expect(text).toContain('название');
    expect(text).toContain('цена, ¥');
  });
});

describe('the operator working-hours notice (Moscow time)', () => {
  const hours = { mon: { from: '09:00', to: '18:00' }, sat: null };
  it('tells within, before, after the hours and a day off; from inclusive, to exclusive', () => {
    // 2026-11-23 is a Monday; 06:00 UTC = 09:00 in Moscow
    expect(operatorHoursNotice(hours, new Date('2026-11-23T06:00:00Z')).kind).toBe('within');
    expect(operatorHoursNotice(hours, new Date('2026-11-23T05:59:00Z')).kind).toBe('before');
    expect(operatorHoursNotice(hours, new Date('2026-11-23T15:00:00Z'))).toEqual({
      kind: 'after',
      text: 'рабочий день оператора закончился в 18:00 по московскому времени: заказ возьмут в работу на следующий рабочий день',
    });
    // Saturday 2026-11-28, noon in Moscow
    expect(operatorHoursNotice(hours, new Date('2026-11-28T09:00:00Z')).kind).toBe('day_off');
    // Sunday 23:30 UTC is Monday 02:30 in Moscow: before Monday's hours, not Sunday's day off
    expect(operatorHoursNotice(hours, new Date('2026-11-22T23:30:00Z')).kind).toBe('before');
  });
});

describe('order fields by stage and role (one list for the card and the service, ADR 0018)', () => {
  const admin = { roles: ['admin' as const] };

  it('lets a client change the carrier in Russia until the order leaves for Russia, never after', () => {
    expect(orderEditableFields('created', client)).toContain('transport_company_rus');
    expect(orderEditableFields('sent_to_ru', client)).toContain('transport_company_rus');
    expect(orderEditableFields('sent_to_door', client)).not.toContain('transport_company_rus');
    expect(orderEditableFields('client_confirmed', client)).toEqual([]);
  });

  it("keeps staff's shipment facts until the goods are received, notes until the order is confirmed", () => {
    expect(orderEditableFields('client_received', operator)).toContain('weight');
    expect(orderEditableFields('client_confirmed', operator)).not.toContain('weight');
    expect(orderEditableFields('client_confirmed', operator)).toEqual([
      'order_number',
      'warning_arr',
      'comment',
    ]);
    expect(orderEditableFields('created', client)).not.toContain('weight');
    expect(orderEditableFields('client_confirmed', admin)).toBeNull();
    expect(orderEditableFields('draft', operator)).toBeNull();
  });

  it('fixes the client of an order; positions editable in draft or by staff; movable stages by role', () => {
    expect(ORDER_OWNER_FIXED_FIELDS).toEqual(['client_id']);
    expect(positionDataEditable('draft', client)).toBe(true);
    expect(positionDataEditable('created', client)).toBe(false);
    expect(positionDataEditable('sent_to_ru', operator)).toBe(true);
    expect(movableOrderStagesFor(client)).toEqual(['draft']);
    expect(movableOrderStagesFor(operator)).toEqual(CONSOLIDATION_STAGES);
    expect(CONSOLIDATION_STAGES).toContain('warehouse_received');
  });

  it("names the stage an order is already at: 'заказ уже отправлен в РФ'", () => {
    expect(ORDER_MESSAGES.alreadyAt('sent_to_ru')).toBe('заказ уже отправлен в РФ');
  });
});
