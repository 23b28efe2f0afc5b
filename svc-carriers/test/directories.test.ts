import { callService, identityOf, startService, type RunningService } from '@caravan/service-kit';
import { carriersService } from '../src/app';
import { specCountries } from './fixtures';

const admin = identityOf({ user_id: 1, roles: ['admin'], fullname: 'Администратор' });
const client = identityOf({ user_id: 30, roles: ['client'], client_ids: [1] });
let svc: RunningService;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const call = async (method: string, params: unknown, who = admin) =>
  (await callService(svc.url, method, params, who)).body as { ok: boolean; result: Any; message?: string };
async function create(entity: string, fields: Record<string, unknown>, who = admin) {
  const reply = await call(`${entity}_update`, { id: -1, ...fields }, who);
  if (!reply.ok) throw new Error(`${entity}: ${reply.message}`);
  return reply.result as Any;
}
const ids = (reply: { result: { items: { id: number }[] } }) => reply.result.items.map((r) => r.id);

let china: number;
let russia: number;
let guangzhou: number;
let moscow: number;
let operatorA: Any;
let operatorB: Any;
let consolidation: Any;
let arrival: Any;
const operatorUser = () => identityOf({ user_id: 20, roles: ['operator'], operator_ids: [operatorA.id] });

beforeAll(async () => {
  svc = await startService(carriersService());
  ({ china, russia } = await specCountries(svc, admin));
  await create('city', { title: 'не указан', country_id: china });
  guangzhou = (await create('city', { title: 'Гуанчжоу', title_en: 'Guangzhou', country_id: china })).id;
  moscow = (await create('city', { title: 'Москва', title_en: 'Moscow', country_id: russia })).id;
  operatorA = await create('operator', { title: 'Восточный экспресс' });
  operatorB = await create('operator', { title: 'Шёлковый путь' });
  consolidation = await create('warehouse_point', {
    title: 'Байюнь',
    type: 'consolidation',
    city_id: guangzhou,
  });
  arrival = await create('warehouse_point', { title: 'Южные ворота', type: 'arrival', city_id: moscow });
});
afterAll(() => svc?.stop());

describe('generic list, through one directory', () => {
  beforeAll(async () => {
    for (let i = 1; i <= 23; i++)
      await create('city', {
        title: `Город ${String(i).padStart(2, '0')}`,
        title_en: `Town ${i}`,
        country_id: i % 2 ? china : russia,
      });
  });

  it('pages by 10, newest first, with the total', async () => {
    const where = { where_param: [{ field: 'title', op: 'like', value: 'Город' }] };
    const page1 = await call('city_list', where);
    const page3 = await call('city_list', { ...where, page: 3 });
    expect(page1.result).toMatchObject({ total: 23, per_page: 10, page: 1 });
    expect(page1.result.items.map((c: Any) => c.title).slice(0, 2)).toEqual(['Город 23', 'Город 22']);
    expect(page3.result.items).toHaveLength(3);
  });

  it('sorts by any visible column, including the title of a reference', async () => {
    const byTitle = await call('city_list', { order_by: 'title asc', search: 'Город', per_page: 3 });
    expect(byTitle.result.items.map((c: Any) => c.title)).toEqual(['Город 01', 'Город 02', 'Город 03']);
    const byCountry = await call('city_list', {
      order_by: 'country_title asc',
      search: 'Город',
      per_page: 30,
    });
    const countries = byCountry.result.items.map((c: Any) => c.country_title);
    expect(countries.indexOf('Россия')).toBeGreaterThan(countries.lastIndexOf('Китай'));
  });

  it('searches, and filters by numbers with >, = and <, by a reference and by a list', async () => {
    expect((await call('city_list', { search: 'town 1' })).result.total).toBe(11); // 1, 10–19
    const first = (await call('city_list', { search: 'Город 01' })).result.items[0].id;
    const above = await call('city_list', {
      search: 'Город',
      where_param: [{ field: 'id', op: '>', value: first + 20 }],
    });
    expect(above.result.total).toBe(2);
    const exact = await call('city_list', { where_param: [{ field: 'id', op: '=', value: first }] });
    expect(ids(exact)).toEqual([first]);
    const below = await call('city_list', {
      search: 'Город',
      where_param: [{ field: 'id', op: '<', value: first + 2 }],
    });
    expect(below.result.total).toBe(2);
    expect((await call('city_list', { search: 'Город', country_id: russia })).result.total).toBe(11);
    expect(
      (
        await call('city_list', {
          search: 'Город',
          where_param: [{ field: 'country_title', op: 'like', value: 'росс' }],
        })
      ).result.total,
    ).toBe(11);
  });

  it('filters by dates', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const created = await call('city_list', {
      where_param: [{ field: 'created_at', op: '>=', value: today }],
    });
    expect(created.result.total).toBeGreaterThanOrEqual(23);
    const future = await call('city_list', {
      where_param: [{ field: 'created_at', op: '>', value: '2050-01-01' }],
    });
    expect(future.result.total).toBe(0);
  });

  it('soft-deletes and restores: a deleted row lists only under the deleted toggle', async () => {
    const [city] = (await call('city_list', { search: 'Город 05' })).result.items;
    await call('city_update', { id: city.id, deleted: true });
    expect((await call('city_list', { search: 'Город 05' })).result.total).toBe(0);
    expect(ids(await call('city_list', { search: 'Город 05', deleted: true }))).toEqual([city.id]);
    await call('city_update', { id: city.id, deleted: false });
    expect((await call('city_list', { search: 'Город 05' })).result.total).toBe(1);
  });

  it('refuses a bad filter with a clear message, and the admin raw box only for admins', async () => {
    expect(await call('city_list', { where_param: [{ field: 'secret', op: '=', value: 1 }] })).toMatchObject({
      ok: false,
      message: "поле 'secret' недоступно для фильтра и сортировки",
    });
    expect(await call('city_list', { where_raw: "title = 'x' or 1=1" })).toMatchObject({
      ok: false,
      message: 'ошибка в условии фильтра: OR не поддерживается: условия соединяются только через AND',
    });
    expect(await call('city_list', { where_raw: "title like 'Город 1'" }, client)).toMatchObject({
      ok: false,
      message: 'действие доступно только администратору',
    });
    const raw = await call('city_list', { where_raw: "title like 'Город 1' and country_id = 2" });
    expect(raw.result.total).toBe(5); // 10, 12, 14, 16, 18
    expect(await call('city_list', { order_by: 'title; drop table city' })).toMatchObject({ ok: false });
    expect((await call('city_list', { search: 'Город' })).result.total).toBe(23);
  });

  it('records the history of every change: who, when, which field, old and new', async () => {
    const city = await create('city', { title: 'Шэньчжэн', country_id: china });
    await call('city_update', { id: city.id, title: 'Шэньчжэнь', title_en: 'Shenzhen' });
    const history = (await call('city_history', { id: city.id })).result;
    expect(history.map((h: Any) => [h.type_ru, h.old_value, h.new_value]).slice(0, 2)).toEqual(
      expect.arrayContaining([
        ['название', 'Шэньчжэн', 'Шэньчжэнь'],
        ['название (англ.)', '', 'Shenzhen'],
      ]),
    );
    expect(history[0]).toMatchObject({ user_full_name: 'Администратор' });
    // a creation keeps what the row was created with: its filled fields, not the empty ones, its id or times
    const created = history.at(-1);
    expect(created).toMatchObject({ type: 'created', new_value: { title: 'Шэньчжэн', country_id: china } });
    expect(Object.keys(created.new_value)).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/^(title_en|id|created_at|updated_at|deleted)$/)]),
    );
    // saving the same values again is no change
    await call('city_update', { id: city.id, title: 'Шэньчжэнь' });
    expect((await call('city_history', { id: city.id })).result).toHaveLength(history.length);
  });

  it('blocks a save with an empty required field, naming it, and changes nothing', async () => {
    expect(await call('city_update', { id: -1, title: '', country_id: china })).toMatchObject({
      ok: false,
      message: "не заполнено поле 'название'",
    });
    expect(await call('city_update', { id: -1, title: 'Ухань' })).toMatchObject({
      ok: false,
      message: "не заполнено поле 'страна'",
    });
    expect((await call('city_list', { search: 'Ухань' })).result.total).toBe(0);
  });
});

describe('directory rules', () => {
  it('lets anyone add a city but only admins change one', async () => {
    const city = await create(
      'city',
      { title: 'Иу', title_ru: 'Иу', title_en: 'Yiwu', country_id: china },
      client,
    );
    expect(await call('city_update', { id: city.id, title: 'Иу!' }, client)).toMatchObject({
      ok: false,
      message: 'действие доступно только администратору',
    });
    expect(await call('country_update', { id: -1, title: 'Атлантида' }, client)).toMatchObject({ ok: false });
    expect(await call('logistic_product_type_update', { id: -1, title: 'Оружие' }, client)).toMatchObject({
      ok: false,
      message: 'действие доступно только администратору',
    });
  });

  it('keeps warehouses in the right country and never in city 1', async () => {
    expect(
      await call('warehouse_point_update', { id: -1, title: 'Склад', type: 'arrival', city_id: guangzhou }),
    ).toMatchObject({
      ok: false,
      message: 'склад прибытия должен быть в России',
    });
    expect(
      await call('warehouse_point_update', {
        id: -1,
        title: 'Склад',
        type: 'consolidation',
        city_id: moscow,
      }),
    ).toMatchObject({
      ok: false,
      message: 'склад консолидации должен быть в Китае',
    });
    expect(
      await call('warehouse_point_update', { id: -1, title: 'Склад', type: 'provider', city_id: 1 }),
    ).toMatchObject({
      ok: false,
      message: 'этот город нельзя выбрать для склада',
    });
    expect(await call('warehouse_point_update', { id: arrival.id, type: 'consolidation' })).toMatchObject({
      ok: false,
    });
    expect((await call('warehouse_point_get_by_id', { id: arrival.id })).result).toMatchObject({
      type: 'arrival',
      city_title: 'Москва',
    });
  });

  it('lets a client create only a provider warehouse, and an operator change only their own ones', async () => {
    expect(
      await call(
        'warehouse_point_update',
        { id: -1, title: 'Мой', type: 'arrival', city_id: moscow },
        client,
      ),
    ).toMatchObject({
      ok: false,
      message: 'недостаточно прав для этого действия',
    });
    const provider = await create(
      'warehouse_point',
      { title: 'Фабрика', type: 'provider', city_id: guangzhou },
      client,
    );
    expect(
      await call('warehouse_point_update', { id: provider.id, title: 'Моя фабрика' }, client),
    ).toMatchObject({ ok: true, result: { client_id: 1 } });
    expect(
      await call('warehouse_point_update', { id: consolidation.id, comment: 'x' }, operatorUser()),
    ).toMatchObject({
      ok: false,
    });
    await create(
      'operator_warehouse_point_link',
      { operator_id: operatorA.id, warehouse_point_id: consolidation.id },
      operatorUser(),
    );
    // a link lets the operator use the admin's warehouse, not change it (svc-carriers/test/access.test.ts)
    expect(
      await call('warehouse_point_update', { id: consolidation.id, comment: 'с 9 до 20' }, operatorUser()),
    ).toMatchObject({ ok: false, message: 'недостаточно прав для этого действия' });
    const own = await create(
      'warehouse_point',
      { title: 'Наш склад', type: 'consolidation', city_id: guangzhou },
      operatorUser(),
    );
    expect(
      await call('warehouse_point_update', { id: own.id, comment: 'с 9 до 20' }, operatorUser()),
    ).toMatchObject({ ok: true, result: { operator_id: operatorA.id } });
    expect(
      await call(
        'operator_warehouse_point_link_update',
        { id: -1, operator_id: operatorB.id, warehouse_point_id: arrival.id },
        operatorUser(),
      ),
    ).toMatchObject({ ok: false, message: 'недостаточно прав для этого действия' });
    expect(
      await call('operator_warehouse_point_link_update', {
        id: -1,
        operator_id: operatorA.id,
        warehouse_point_id: consolidation.id,
      }),
    ).toMatchObject({ ok: false, message: 'такая запись уже существует' });
  });

  it("refuses a discount of 101 and a malformed phone with the spec's messages, changing nothing", async () => {
    const entry = { id: 1, title: 'ООО «Ромашка»', identifier: 'VE-001' };
    expect(
      await call('operator_update', { id: operatorA.id, client_list: [{ ...entry, discount_buyout: 101 }] }),
    ).toMatchObject({ ok: false, message: 'скидка не может быть больше 100%' });
    expect(
      await call('operator_update', { id: operatorA.id, client_list: [{ ...entry, discount_delivery: -1 }] }),
    ).toMatchObject({ ok: false, message: 'скидка не может быть меньше 0%' });
    expect(await call('operator_update', { id: operatorA.id, phone: '+89161234567' })).toMatchObject({
      ok: false,
      message: 'введите корректный номер',
    });
    expect(
      await call('warehouse_point_contact_update', {
        id: -1,
        title: 'Приёмка',
        contact_name: 'Иван',
        phone: '8 916 123',
        operator_id: operatorA.id,
        warehouse_point_id: arrival.id,
      }),
    ).toMatchObject({ ok: false, message: 'введите корректный номер' });
    expect((await call('operator_get_by_id', { id: operatorA.id })).result).toMatchObject({
      client_list: [],
      phone: null,
    });
    const saved = await call('operator_update', {
      id: operatorA.id,
      phone: '+79161234567',
      client_list: [{ ...entry, discount_buyout: 100, discount_delivery: 0 }],
      working_hours: { mon: { from: '09:00', to: '18:00' } },
    });
    expect(saved.result).toMatchObject({
      phone: '+79161234567',
      client_list: [{ id: 1, discount_buyout: 100 }],
      working_hours: { mon: { from: '09:00', to: '18:00' }, sun: null },
    });
  });

  it('shows a client operators without their client lists and API keys, and lets an operator edit only their own', async () => {
    await call('operator_update', {
      id: operatorA.id,
      transport_company_data: [{ type: 'cdek', api_data: { client_id: 'abc', access_token: 'secret' } }],
    });
    const seen = (await call('operator_get_by_id', { id: operatorA.id }, client)).result;
    expect(seen.title).toBe('Восточный экспресс');
    expect(seen).not.toHaveProperty('client_list');
    expect(seen).not.toHaveProperty('transport_company_data');
    expect(
      await call(
        'operator_list',
        { where_param: [{ field: 'transport_company_data', op: 'like', value: 'secret' }] },
        client,
      ),
    ).toMatchObject({
      ok: false,
    });
    expect(
      JSON.stringify((await call('operator_history', { id: operatorA.id }, client)).result),
    ).not.toContain('secret');
    expect(await call('operator_update', { id: operatorA.id, title: 'x' }, client)).toMatchObject({
      ok: false,
    });

    expect(
      await call('operator_update', { id: operatorA.id, comment: 'работаем' }, operatorUser()),
    ).toMatchObject({ ok: true });
    expect(await call('operator_get_by_id', { id: operatorB.id }, operatorUser())).toMatchObject({
      ok: false,
      message: 'запись не найдена',
    });
    expect(await call('operator_update', { id: operatorB.id, comment: 'x' }, operatorUser())).toMatchObject({
      ok: false,
    });
    expect(await call('operator_update', { id: -1, title: 'Новый' }, operatorUser())).toMatchObject({
      ok: false,
      message: 'действие доступно только администратору',
    });
  });
});

describe('tariffs and the calculator', () => {
  let route: Any;
  let clothes: number;
  let toys: number;

  beforeAll(async () => {
    clothes = (await create('logistic_product_type', { title: 'Одежда' })).id;
    toys = (await create('logistic_product_type', { title: 'Игрушки' })).id;
    route = await create(
      'logistic_route',
      {
        title: 'Гуанчжоу — Москва, авто',
        type: 'truck',
        operator_id: operatorA.id,
        from_city_id: guangzhou,
        days_from: 18,
        days_to: 25,
        buyout_commission: '3',
        density_table: [
          { density_from: '100', density_to: '200', price: '3.10' },
          { density_from: '0', density_to: '100', price: '280', unit: 'm3' },
          { density_from: '200', density_to: null, price: '2.40' },
        ],
      },
      operatorUser(),
    );
  });

  it('keeps the density table sorted and refuses overlapping rows and backwards days', async () => {
    expect(route.density_table.map((r: Any) => r.density_from)).toEqual(['0', '100', '200']);
    expect(route.from_city_title).toBe('Гуанчжоу');
    expect(
      await call('logistic_route_update', {
        id: route.id,
        density_table: [
          { density_from: '0', density_to: '150', price: '3' },
          { density_from: '100', density_to: null, price: '2' },
        ],
      }),
    ).toMatchObject({ ok: false, message: expect.stringContaining('пересекается с предыдущей') });
    expect(await call('logistic_route_update', { id: route.id, days_from: 30 })).toMatchObject({
      ok: false,
      message: 'срок «до» не может быть меньше срока «от»',
    });
  });

  it('activates a route only with product types and warehouses, then moves it to the archive and back', async () => {
    expect(await call('logistic_route_update', { id: route.id, state: 'active' })).toMatchObject({
      ok: false,
      message: 'чтобы активировать тариф, укажите: типы товаров, склады',
    });
    await create(
      'logistic_route_logistic_product_type_link',
      { logistic_route_id: route.id, logistic_product_type_id: clothes },
      operatorUser(),
    );
    await create(
      'logistic_route_warehouse_point_link',
      { logistic_route_id: route.id, warehouse_point_id: arrival.id },
      operatorUser(),
    );
    expect(
      (await call('logistic_route_update', { id: route.id, state: 'active' }, operatorUser())).result,
    ).toMatchObject({
      state: 'active',
      logistic_product_type_id: [clothes],
      warehouse_point_id: [arrival.id],
    });
    const [link] = (
      await call('logistic_route_logistic_product_type_link_list', { logistic_route_id: route.id })
    ).result.items;
    expect(
      await call('logistic_route_logistic_product_type_link_update', { id: link.id, deleted: true }),
    ).toMatchObject({
      ok: false,
      message: 'у активного тарифа должен остаться хотя бы один тип товара; сначала переведите его в архив',
    });
    expect(await call('logistic_route_update', { id: route.id, state: 'draft' })).toMatchObject({
      ok: false,
      message: 'тариф нельзя перевести из состояния «активен» в «черновик»',
    });
    const routes = await call('logistic_route_list', {
      where_param: [
        { field: 'warehouse_point_id', op: 'contains', value: arrival.id },
        { field: 'state', op: '=', value: 'active' },
      ],
    });
    expect(ids(routes)).toEqual([route.id]);
  });

  it('lets an operator link only their own routes, and a client see only active routes', async () => {
    const other = await create('logistic_route', {
      title: 'Чужой',
      type: 'plane',
      operator_id: operatorB.id,
      from_city_id: guangzhou,
    });
    expect(
      await call(
        'logistic_route_logistic_product_type_link_update',
        { id: -1, logistic_route_id: other.id, logistic_product_type_id: toys },
        operatorUser(),
      ),
    ).toMatchObject({ ok: false, message: 'недостаточно прав для этого действия' });
    expect(await call('logistic_route_get_by_id', { id: other.id }, operatorUser())).toMatchObject({
      ok: false,
    });
    const visible = ids(await call('logistic_route_list', { per_page: 100 }, client));
    expect(visible).toContain(route.id);
    expect(visible).not.toContain(other.id);
  });

  it('finds the route and prices cargo by its density in dollars', async () => {
    const params = {
      from_city_id: guangzhou,
      to_warehouse_id: arrival.id,
      logistic_product_type_id: clothes,
    };
    // 150 kg in 1 m³: 150 kg/m³ → 3.10 $/kg
    const heavy = await call('logistic_route_calculate', { ...params, weight: '150', volume: '1' }, client);
    expect(heavy.result).toEqual([
      expect.objectContaining({
        logistic_route_id: route.id,
        density: '150.00',
        unit: 'kg',
        rate: '3.10',
        price_usd: '465.00',
        days_from: 18,
        days_to: 25,
        buyout_commission: '3.00',
        operator_title: 'Восточный экспресс',
      }),
    ]);
    // 30 kg in 0.5 m³: 60 kg/m³ → 280 $/m³ × 0.5
    const light = await call('logistic_route_calculate', { ...params, weight: '30', volume: '0.5' });
    expect(light.result[0]).toMatchObject({ unit: 'm3', price_usd: '140.00' });
    expect(
      (
        await call('logistic_route_calculate', {
          ...params,
          logistic_product_type_id: toys,
          weight: '1',
          volume: '1',
        })
      ).result,
    ).toEqual([]);
    expect(await call('logistic_route_calculate', { ...params, weight: '0', volume: '1' })).toMatchObject({
      ok: false,
      message: expect.stringContaining('вес должен быть больше 0'),
    });
  });
});
