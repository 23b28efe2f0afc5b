import { IDENTITY_HEADER } from '@caravan/contracts';
import {
  callService,
  DEV_IDENTITY_SECRET,
  eventually,
  identityOf,
  signIdentity,
  startService,
  type RunningService,
} from '@caravan/service-kit';
import { carriersService } from '../../svc-carriers/src/app';
import { specCountries } from '../../svc-carriers/test/fixtures';
import { ordersService } from '../src/app';

const admin = identityOf({ user_id: 1, roles: ['admin'] });
let carriers: RunningService;
let orders: RunningService;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const call = async (svc: RunningService, method: string, params: unknown, who = admin) =>
  (await callService(svc.url, method, params, who)).body as { ok: boolean; result: Any; message?: string };
const create = async (svc: RunningService, entity: string, fields: Record<string, unknown>, who = admin) => {
  const reply = await call(svc, `${entity}_update`, { id: -1, ...fields }, who);
  if (!reply.ok) throw new Error(`${entity}: ${reply.message}`);
  return reply.result as Any;
};
const replica = (entity: string, id: number) => orders.db('replica').where({ entity, id }).first();

let clientA: Any;
let clientB: Any;
const clientUser = () => identityOf({ user_id: 10, roles: ['client'], client_ids: [clientA.id] });

beforeAll(async () => {
  [carriers, orders] = await Promise.all([startService(carriersService()), startService(ordersService())]);
  clientA = await create(orders, 'client', { title: 'ООО «Ромашка»', type: 'company' });
  clientB = await create(orders, 'client', { title: 'ИП Соколов' });
});
afterAll(async () => {
  await Promise.all([carriers?.stop(), orders?.stop()]);
});

describe('reference data kept in svc-orders', () => {
  it('replicates an operator with its client list, and the operator then sees exactly those clients', async () => {
    const op = await create(carriers, 'operator', {
      title: 'Восточный экспресс',
      client_list: [{ id: clientA.id, title: 'ООО «Ромашка»', identifier: 'VE-001', discount_delivery: 5 }],
      transport_company_data: [{ type: 'cdek', api_data: { client_id: 'id', access_token: 'secret-token' } }],
    });
    const operatorUser = identityOf({ user_id: 20, roles: ['operator'], operator_ids: [op.id] });
    const stranger = identityOf({ user_id: 21, roles: ['operator'], operator_ids: [op.id + 1000] });
    const copy = await eventually('the operator replica', () => replica('operator', op.id));
    expect(copy.data.client_list).toEqual([
      expect.objectContaining({ id: clientA.id, discount_delivery: 5 }),
    ]);
    expect(JSON.stringify(copy.data)).not.toContain('secret-token');

    const seen = await call(orders, 'client_list', {}, operatorUser);
    expect(seen.result.items.map((c: Any) => c.id)).toEqual([clientA.id]);
    expect(await call(orders, 'client_get_by_id', { id: clientB.id }, operatorUser)).toMatchObject({
      ok: false,
    });
    expect((await call(orders, 'client_list', {}, stranger)).result.total).toBe(0);

    // the client list changes in svc-carriers; svc-orders follows
    await call(carriers, 'operator_update', {
      id: op.id,
      client_list: [
        { id: clientA.id, identifier: 'VE-001' },
        { id: clientB.id, identifier: 'VE-002' },
      ],
    });
    await eventually(
      'the new client list',
      async () => (await call(orders, 'client_list', {}, operatorUser)).result.total === 2,
    );
  });

  it('replicates routes with their links, warehouses, extra services and product types', async () => {
    const { china, russia } = await specCountries(carriers, admin);
    const from = await create(carriers, 'city', { title: 'Гуанчжоу', country_id: china });
    const to = await create(carriers, 'city', { title: 'Москва', country_id: russia });
    const op = await create(carriers, 'operator', { title: 'Шёлковый путь' });
    const warehouse = await create(carriers, 'warehouse_point', {
      title: 'Склад',
      type: 'arrival',
      city_id: to.id,
    });
    const type = await create(carriers, 'logistic_product_type', { title: 'Игрушки' });
    const route = await create(carriers, 'logistic_route', {
      title: 'Авиа',
      type: 'plane',
      operator_id: op.id,
      from_city_id: from.id,
    });
    const link = await create(carriers, 'logistic_route_warehouse_point_link', {
      logistic_route_id: route.id,
      warehouse_point_id: warehouse.id,
    });
    const rub = await create(carriers, 'currency', { title: 'RUB', symbol: '₽' });
    const service = await create(carriers, 'extra_service', {
      title: 'До двери',
      type: 'transfer',
      operator_id: op.id,
      warehouse_point_id: warehouse.id,
      client_price_currency_id: rub.id,
      cost_price_currency_id: rub.id,
    });
    for (const [entity, id] of [
      ['logistic_route', route.id],
      ['logistic_route_warehouse_point_link', link.id],
      ['warehouse_point', warehouse.id],
      ['extra_service', service.id],
      ['logistic_product_type', type.id],
      ['city', to.id],
    ] as const)
      await eventually(`the ${entity} replica`, () => replica(entity, id));
    expect((await replica('logistic_route', route.id)).data).toMatchObject({
      title: 'Авиа',
      operator_id: op.id,
      state: 'draft',
    });
  });
});

describe('clients and providers', () => {
  const delivery = {
    title: 'Офис',
    transport_company: 'cdek',
    type: 'pvz',
    delivery_point_code: 'MSK123',
    contact_name: 'Ирина',
    contact_phone: '+79161112233',
  };

  it('lets a client keep their delivery data, with its rules, and nothing else of the record', async () => {
    expect(
      await call(
        orders,
        'client_update',
        { id: clientA.id, delivery_data_list: [{ ...delivery, contact_phone: '89161112233' }] },
        clientUser(),
      ),
    ).toMatchObject({ ok: false, message: 'введите корректный номер' });
    expect(
      await call(
        orders,
        'client_update',
        { id: clientA.id, delivery_data_list: [{ ...delivery, delivery_point_code: '' }] },
        clientUser(),
      ),
    ).toMatchObject({ ok: false, message: "не заполнено поле 'код пункта выдачи' или 'адрес'" });
    expect(
      await call(
        orders,
        'client_update',
        { id: clientA.id, delivery_data_list: [{ ...delivery, title: ' ' }] },
        clientUser(),
      ),
    ).toMatchObject({ ok: false, message: "не заполнено поле 'название'" });
    const saved = await call(
      orders,
      'client_update',
      { id: clientA.id, delivery_data_list: [delivery] },
      clientUser(),
    );
    expect(saved.result.delivery_data_list).toEqual([{ ...delivery, city: '', address: '' }]);
    expect(
      await call(orders, 'client_update', { id: clientA.id, title: 'ООО «Лютик»' }, clientUser()),
    ).toMatchObject({
      ok: false,
      message: 'недостаточно прав для этого действия',
    });
    expect(
      await call(orders, 'client_update', { id: clientB.id, delivery_data_list: [delivery] }, clientUser()),
    ).toMatchObject({
      ok: false,
    });
    expect(await call(orders, 'client_update', { id: -1, title: 'Новый' }, clientUser())).toMatchObject({
      ok: false,
    });
  });

  it('lets a client add providers for themselves and not for another client', async () => {
    const own = await create(
      orders,
      'provider',
      { name_str: 'Yiwu Toys', client_id: clientA.id, warehouse_point_id: [5] },
      clientUser(),
    );
    expect(own).toMatchObject({ client_title: 'ООО «Ромашка»', warehouse_point_id: [5] });
    expect(
      await call(
        orders,
        'provider_update',
        { id: -1, name_str: 'Чужой', client_id: clientB.id },
        clientUser(),
      ),
    ).toMatchObject({
      ok: false,
      message: 'недостаточно прав для этого действия',
    });
    expect(
      await call(orders, 'provider_update', { id: -1, name_str: '', client_id: clientA.id }, clientUser()),
    ).toMatchObject({
      ok: false,
      message: "не заполнено поле 'имя / магазин'",
    });
    const byWarehouse = await call(orders, 'provider_list', { warehouse_point_id: 5 }, clientUser());
    expect(byWarehouse.result.items.map((p: Any) => p.id)).toEqual([own.id]);
  });
});

describe('uploads', () => {
  const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  const upload = async (path: string, files: [Buffer, string][], fields: Record<string, string> = {}) => {
    const form = new FormData();
    for (const [data, name] of files) form.append('file', new Blob([new Uint8Array(data)]), name);
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    const res = await fetch(`${orders.url}/api/${path}`, {
      method: 'POST',
      headers: {
        [IDENTITY_HEADER]: signIdentity(admin, process.env.IDENTITY_TOKEN_SECRET ?? DEV_IDENTITY_SECRET),
      },
      body: form,
    });
    return (await res.json()) as { ok: boolean; result: Any; message?: string };
  };

  it('stores several images and serves them back by their links', async () => {
    const reply = await upload('upload_image', [
      [PNG, 'фото товара.png'],
      [PNG, 'second.png'],
    ]);
    expect(reply.result).toEqual([
      expect.objectContaining({ name: 'фото товара.png', mime: 'image/png', size: PNG.length }),
      expect.objectContaining({ name: 'second.png' }),
    ]);
    const served = await fetch(`${orders.url}${reply.result[0].file}`);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it("refuses what is not an image, what is too big and a wrong extension with the spec's messages, storing nothing", async () => {
    const before = await orders.db('file').count({ n: '*' }).first();
    expect(await upload('upload_image', [[Buffer.from('<script>alert(1)</script>'), 'x.png']])).toMatchObject(
      {
        ok: false,
        message: 'данный файл не соответствует ограничениям',
      },
    );
    expect(
      await upload('upload_image', [
        [PNG, 'x.png'],
        [PNG, 'doc.pdf'],
      ]),
    ).toMatchObject({
      ok: false,
      message: 'допустимы только файлы с раширением: jpg, jpeg, png, gif, webp',
    });
    expect(await upload('upload_file', [[Buffer.alloc(10_000_001, 1), 'big.bin']])).toMatchObject({
      ok: false,
      message: 'допустимы только файлы не больше: 10 МБ',
    });
    expect(
      await upload('upload_file', [[Buffer.from('a'), 'notes.txt']], { extensions: 'pdf,docx' }),
    ).toMatchObject({
      ok: false,
      message: 'допустимы только файлы с раширением: pdf, docx',
    });
    expect(await orders.db('file').count({ n: '*' }).first()).toEqual(before);
  });

  it('sends other files as downloads, never as a page of our origin', async () => {
    const reply = await upload('upload_file', [
      [Buffer.from('<html><script>alert(1)</script></html>'), 'page.html'],
    ]);
    const served = await fetch(`${orders.url}${reply.result[0].file}`);
    expect(served.headers.get('content-type')).toBe('application/octet-stream');
    expect(served.headers.get('content-disposition')).toMatch(/^attachment/);
    expect((await fetch(`${orders.url}/api/files/00000000-0000-0000-0000-000000000000.png`)).status).toBe(
      404,
    );
  });
});
