import { callService, eventually, identityOf, startService, type RunningService } from '@caravan/service-kit';
import { carriersService } from '../../svc-carriers/src/app';
import { specCountries, specCurrencies } from '../../svc-carriers/test/fixtures';
import { paymentsService } from '../../svc-payments/src/app';
import { ordersService } from '../src/app';

/**
 * (Rates are dated from 2026-11-21: svc-payments' finance test counts the shared database's rates before
 * 2026-11-20.)
 *
 * Prices the service keeps (spec §9; contracts' derivedPrices): an order's buyout, deliveries,
 * package, tariff and total follow its positions and its own measures, at the operator's rate until
 * the order waits for payment, then at the rate it was fixed at; nobody but an admin's adjustment sets
 * them by hand. Figures are worked out by hand in the comments.
 */
const admin = identityOf({ user_id: 1, roles: ['admin'] });
const ISOLATED = {
  ...process.env,
  KAFKA_TOPIC_PREFIX: `${process.env.KAFKA_TOPIC_PREFIX ?? ''}orders-pricing-`,
};
let carriers: RunningService;
let orders: RunningService;
let payments: RunningService;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
type Reply = { ok: boolean; result: Any; message?: string };

const call = async (method: string, params: unknown, who = admin) =>
  (await callService(orders.url, method, params, who)).body as Reply;
async function create(svc: RunningService, entity: string, fields: Record<string, unknown>, who = admin) {
  const reply = (await callService(svc.url, `${entity}_update`, { id: -1, ...fields }, who)).body as Reply;
  if (!reply.ok) throw new Error(`${entity}: ${reply.message}`);
  return reply.result as Any;
}
const order = (id: number) => orders.db('client_order').where({ id }).first();
const positionsOf = (id: number) =>
  orders.db('client_order_position').where({ client_order_id: id }).orderBy('id');

let client: Any, operator: Any, route: Any, toys: Any, pack: Any, clientUser: Any, operatorUser: Any;

beforeAll(async () => {
  [carriers, orders, payments] = await Promise.all([
    startService(carriersService(ISOLATED)),
    startService(ordersService(ISOLATED)),
    startService(paymentsService(ISOLATED)),
  ]);
  await Promise.all([carriers.bus.ready, orders.bus.ready, payments.bus.ready]);
  client = await create(orders, 'client', { title: 'ООО «Цены»', type: 'company' });
  const { china } = await specCountries(carriers, admin);
  await specCurrencies(carriers);
  const from = await create(carriers, 'city', { title: 'Гуанчжоу-цены', country_id: china });
  operator = await create(carriers, 'operator', { title: 'Оператор цен', client_list: [{ id: client.id }] });
  toys = await create(carriers, 'logistic_product_type', { title: 'Игрушки (цены)' });
  route = await create(carriers, 'logistic_route', {
    title: 'Авто Гуанчжоу — Москва',
    type: 'truck',
    operator_id: operator.id,
    from_city_id: from.id,
    // $3.20 per kg from 100 kg/m³
    density_table: [{ density_from: '100', density_to: null, price: '3.20', unit: 'kg' }],
  });
  await create(carriers, 'logistic_route_logistic_product_type_link', {
    logistic_route_id: route.id,
    logistic_product_type_id: toys.id,
  });
  const bag = await create(carriers, 'package_description', { title: 'Мешок + скотч', title_cn: '袋子' });
  pack = await create(carriers, 'extra_service', {
    title: 'Мешок + скотч',
    package_description_id: bag.id,
    type: 'package',
    operator_id: operator.id,
    unit: 'kg',
    client_price_currency_id: 2,
    client_price_from: '10',
  });
  await create(payments, 'exchange_rate', {
    date: '2026-11-21',
    operator_id: operator.id,
    client_sell_rate_cny: '12.5',
    client_sell_rate_usd: '95',
  });
  await eventually('the replicas', async () => {
    const rows = await orders
      .db('replica')
      .whereIn('entity', ['operator', 'logistic_route', 'extra_service', 'exchange_rate'])
      .where((q) => q.where({ entity: 'operator', id: operator.id }).orWhereNot({ entity: 'operator' }));
    return (
      rows.some((r) => r.entity === 'operator' && r.id === operator.id) &&
      rows.some((r) => r.entity === 'logistic_route' && r.id === route.id) &&
      rows.some((r) => r.entity === 'extra_service' && r.id === pack.id) &&
      rows.some((r) => r.entity === 'exchange_rate' && r.data.operator_id === operator.id)
    );
  });
  clientUser = identityOf({ user_id: 601, roles: ['client'], client_ids: [client.id] });
  operatorUser = identityOf({ user_id: 602, roles: ['operator'], operator_ids: [operator.id] });
});
afterAll(async () => {
  await Promise.all([carriers?.stop(), orders?.stop(), payments?.stop()]);
});

const newOrder = (fields: Record<string, unknown> = {}) =>
  create(
    orders,
    'client_order',
    {
      client_id: client.id,
      operator_id: operator.id,
      logistic_route_id: route.id,
      buyout_type: 'operator',
      delivery_type: 'to_door',
      ...fields,
    },
    clientUser,
  );
const newPosition = (orderId: number, fields: Record<string, unknown>) =>
  create(
    orders,
    'client_order_position',
    {
      client_order_id: orderId,
      title: 'Мягкая игрушка',
      link: 'https://item.taobao.com/1',
      product_images: [{ file: '/api/files/a.jpg', deleted: false }],
      type_id: toys.id,
      ...fields,
    },
    clientUser,
  );

describe('prices follow the positions and the order', () => {
  it('a position priced in yuan gives its buyout in rubles, and the order its buyout and total', async () => {
    const o = await newOrder();
    // 10 × ¥20 = ¥200 × 12.5 = ₽2500.00; 4 × ¥50 = ¥200 → ₽2500.00
    await newPosition(o.id, { price_cny: '20', amount: '10', weight: '2' });
    const b = await newPosition(o.id, { price_cny: '50', amount: '4', weight: '5' });
    expect(b.buyout_price_rur).toBe('2500.00');
    expect(await order(o.id)).toMatchObject({ buyout_price_rur: '5000.00', total_price_rur: '5000.00' });

    // the client changes a price in the draft: ¥60 × 4 = ¥240 → ₽3000; order 5500
    const changed = await call('client_order_position_update', { id: b.id, price_cny: '60' }, clientUser);
    expect(changed.ok).toBe(true);
    expect(await order(o.id)).toMatchObject({ buyout_price_rur: '5500.00', total_price_rur: '5500.00' });

    // deleting a position takes it out of the sum
    await call('client_order_position_update', { id: b.id, deleted: true }, clientUser);
    expect(await order(o.id)).toMatchObject({ buyout_price_rur: '2500.00', total_price_rur: '2500.00' });
  });

  it('the order measures price the tariff, the package and the deliveries shared to the positions', async () => {
    const o = await newOrder({ package_id: pack.id });
    const a = await newPosition(o.id, { price_cny: '20', amount: '10', weight: '2' });
    const b = await newPosition(o.id, { price_cny: '50', amount: '4', weight: '5' });
    // staff enter what the warehouse weighed: 40 kg, 0.2 m³ (density 200), $100 to Russia, ₽600 within
    const reply = await call(
      'client_order_update',
      {
        id: o.id,
        weight: '40',
        volume: '0.2',
        to_ru_delivery_price: '100',
        to_ru_delivery_currency_id: 3,
        to_door_delivery_price_rur: '600',
      },
      operatorUser,
    );
    expect(reply.message).toBeUndefined();
    // tariff $3.20 × 40 = $128.00; package ₽10 × 40 kg = ₽400; to Russia $100 × 95 = ₽9500
    // total = 5000 + 9500 + 600 + 400 = 15500.00
    expect(await order(o.id)).toMatchObject({
      logistic_route_price_usd: '128.00',
      package_price_rur: '400.00',
      to_ru_delivery_price_rur: '9500.00',
      total_price_rur: '15500.00',
    });
    // both positions weigh 20 kg: ₽9500 / 12.5 = ¥760 → ¥380 each; ₽600 → ₽300 each
    const rows = await positionsOf(o.id);
    expect(rows.map((r) => [r.id, r.to_ru_delivery_price_cny, r.to_door_delivery_price_rur])).toEqual([
      [a.id, '380.00', '300.00'],
      [b.id, '380.00', '300.00'],
    ]);
  });

  it('nobody writes a derived price by hand: the refusal names the field and changes nothing', async () => {
    const o = await newOrder();
    const p = await newPosition(o.id, { price_cny: '20', amount: '10' });
    const before = await order(o.id);
    expect(await call('client_order_update', { id: o.id, total_price_rur: '1' }, operatorUser)).toEqual({
      ok: false,
      result: null,
      message:
        "поле 'итого, ₽' рассчитывается автоматически; цены заказа меняет администратор через корректировку цен",
    });
    expect(
      (await call('client_order_position_update', { id: p.id, buyout_price_rur: '1' }, operatorUser)).message,
    ).toBe(
      "поле 'цена выкупа, ₽' рассчитывается автоматически; цены заказа меняет администратор через корректировку цен",
    );
    expect(await order(o.id)).toEqual(before);
  });

  it("an admin's adjusted prices stand while the positions change", async () => {
    const o = await newOrder();
    const p = await newPosition(o.id, { price_cny: '20', amount: '10' });
    const adjusted = await call('client_order_update', {
      id: o.id,
      buyout_price_rur: '2800.00',
      total_price_rur: '2800.00',
      options: { receiver_str: '', price_info: { manually_adjusted: true, adjusted_by: 1 } },
    });
    expect(adjusted.ok).toBe(true);
    await call('client_order_position_update', { id: p.id, amount: '20' }, clientUser);
    expect(await order(o.id)).toMatchObject({ buyout_price_rur: '2800.00', total_price_rur: '2800.00' });
    // the position itself is repriced: 20 × ¥20 × 12.5
    expect((await positionsOf(o.id))[0].buyout_price_rur).toBe('5000.00');
  });

  it('the rate is fixed when the order waits for payment; a newer rate moves only open orders', async () => {
    const fixed = await newOrder();
    const open = await newOrder();
    for (const o of [fixed, open]) await newPosition(o.id, { price_cny: '20', amount: '10' });
    expect(await call('client_order_created', { id: fixed.id }, clientUser)).toMatchObject({ ok: true });
    const [position] = await positionsOf(fixed.id);
    await call(
      'client_order_position_action',
      { id: position.id, action: 'verification_done' },
      operatorUser,
    );
    const waiting = await call('client_order_buyout_waiting', { id: fixed.id }, operatorUser);
    expect(waiting.message).toBeUndefined();
    const rateId = (await order(fixed.id)).rate_id;
    expect(rateId).not.toBeNull();

    const newer = await create(payments, 'exchange_rate', {
      date: '2026-11-22',
      operator_id: operator.id,
      client_sell_rate_cny: '13',
      client_sell_rate_usd: '97',
    });
    await eventually('the new rate replicated', async () =>
      Boolean(await orders.db('replica').where({ entity: 'exchange_rate', id: newer.id }).first()),
    );
    // any write reprices: the open order goes to ¥200 × 13 = 2600, the fixed one stays at 2500
    await call('client_order_update', { id: open.id, comment: 'пересчёт' }, clientUser);
    await call('client_order_update', { id: fixed.id, comment: 'пересчёт' }, operatorUser);
    expect(await order(open.id)).toMatchObject({ buyout_price_rur: '2600.00', rate_id: null });
    expect(await order(fixed.id)).toMatchObject({ buyout_price_rur: '2500.00', rate_id: rateId });
  });

  it("a position's event names its order's client and operator (the gateway's streams filter by them)", async () => {
    const o = await newOrder();
    const p = await newPosition(o.id, { price_cny: '1', amount: '1' });
    const events = await orders
      .db('outbox')
      .whereRaw(`event->'data'->>'entity' = 'client_order_position' and (event->'data'->>'id')::bigint = ?`, [
        p.id,
      ]);
    expect(events.length).toBeGreaterThan(0);
    for (const e of events)
      expect(e.event.data.row).toMatchObject({
        client_order_id: o.id,
        client_id: client.id,
        operator_id: operator.id,
      });
  });
});

/** A position with the staff's consolidation delivery price (a client may not set it). */
const staffPosition = (orderId: number, fields: Record<string, unknown>) =>
  create(orders, 'client_order_position', {
    client_order_id: orderId,
    title: 'Кукла',
    type_id: toys.id,
    ...fields,
  });

describe('the position table prices and the buyout commission (ADR 0018)', () => {
  it("returns the order's yuan rate and commission to every role, and prices the buyout with the route's commission", async () => {
    const withCommission = await create(carriers, 'logistic_route', {
      title: 'Авто с комиссией за выкуп',
      type: 'truck',
      operator_id: operator.id,
      from_city_id: route.from_city_id,
      buyout_commission: '3',
      density_table: [{ density_from: '100', density_to: null, price: '3.20', unit: 'kg' }],
    });
    await create(carriers, 'logistic_route_logistic_product_type_link', {
      logistic_route_id: withCommission.id,
      logistic_product_type_id: toys.id,
    });
    await eventually('the route replica', async () =>
      Boolean(await orders.db('replica').where({ entity: 'logistic_route', id: withCommission.id }).first()),
    );
    // the operator's latest yuan rate (12.5, or the newer one the test above added)
    const latest = await orders
      .db('replica')
      .where({ entity: 'exchange_rate', deleted: false })
      .whereRaw(`(data->>'operator_id')::bigint = ?`, [operator.id])
      .orderByRaw(`data->>'date' desc, id desc`)
      .first();
    const rate = String(latest.data.client_sell_rate_cny);
    const { positionPricePerUnit, positionPricePerKg, orderBuyoutCommission, toRubles } =
      await import('@caravan/contracts');
    const o = await newOrder({ logistic_route_id: withCommission.id });
    // (¥100 × 1.03 × 10 + ¥50 to the consolidation warehouse) × rate = ¥1080 × rate (₽13500.00 at 12.5)
    const buyout = toRubles('1080', rate);
    const p = await staffPosition(o.id, {
      price_cny: '100',
      amount: '10',
      weight: '2',
      to_consolidation_warehouse_delivery_price_cny: '50',
    });
    expect((await positionsOf(o.id))[0]).toMatchObject({ id: p.id, buyout_price_rur: buyout });
    expect(await order(o.id)).toMatchObject({ buyout_price_rur: buyout, total_price_rur: buyout });

    for (const who of [clientUser, operatorUser, admin]) {
      const seen = await call('client_order_get_by_id', { id: o.id }, who);
      expect(seen.ok).toBe(true);
      expect(Number(seen.result.rate_cny)).toBe(Number(rate));
      expect(Number(seen.result.buyout_commission)).toBe(3);
    }
    // the same pricing gives the table's per-unit price: ¥50 × rate / 10 + ¥100 × 1.03 × rate = ¥108 × rate
    // (62.50 + 1287.50 = ₽1350.00 at 12.5), per 2 kg ¥54 × rate
    const seen = (await call('client_order_get_by_id', { id: o.id }, clientUser)).result;
    const commission = orderBuyoutCommission(seen, seen.buyout_commission);
    expect(positionPricePerUnit(p, seen.rate_cny, commission)).toBe(toRubles('108', rate));
    expect(positionPricePerKg(p, seen.rate_cny, commission)).toBe(toRubles('54', rate));

    // a self buyout carries no commission: ¥1050 × rate
    const self = await newOrder({ logistic_route_id: withCommission.id, buyout_type: 'self' });
    await staffPosition(self.id, {
      price_cny: '100',
      amount: '10',
      to_consolidation_warehouse_delivery_price_cny: '50',
      waybill: 'YT1',
    });
    expect(await order(self.id)).toMatchObject({ buyout_price_rur: toRubles('1050', rate) });
  });
});
