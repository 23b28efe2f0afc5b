import { callService, identityOf, startService, type RunningService } from '@caravan/service-kit';
import { paymentsService } from '../src/app';

const admin = identityOf({ user_id: 1, roles: ['admin'] });
const operator = identityOf({ user_id: 2, roles: ['operator'], operator_ids: [41] });
const client = identityOf({ user_id: 3, roles: ['client'], client_ids: [51] });
const otherClient = identityOf({ user_id: 4, roles: ['client'], client_ids: [52] });
let svc: RunningService;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const call = async (method: string, params: unknown, who = admin) =>
  (await callService(svc.url, method, params, who)).body as { ok: boolean; result: Any; message?: string };
const itemIds = (reply: { result: { items: { id: number }[] } }) => reply.result.items.map((r) => r.id);

beforeAll(async () => {
  svc = await startService(paymentsService());
});
afterAll(() => svc?.stop());

describe('legal entities and bank accounts', () => {
  let operatorEntity: Any;
  let clientEntity: Any;

  beforeAll(async () => {
    operatorEntity = (
      await call(
        'legal_entity_update',
        { id: -1, title: 'ООО «Восточный экспресс»', inn: '7728041125', kpp: '772801001', operator_id: 41 },
        operator,
      )
    ).result;
    clientEntity = (
      await call(
        'legal_entity_update',
        { id: -1, title: 'ИП Соколов', type: 'self', inn: '771234567859', client_id: 51 },
        client,
      )
    ).result;
  });

  it('checks the INN, KPP, BIK and account numbers, and saves nothing wrong', async () => {
    expect(
      await call('legal_entity_update', { id: -1, title: 'Фирма', inn: '7728041126', client_id: 51 }, client),
    ).toMatchObject({
      ok: false,
      message: 'некорректный ИНН: 10 или 12 цифр с верными контрольными цифрами',
    });
    expect(await call('legal_entity_update', { id: clientEntity.id, kpp: '12345' }, client)).toMatchObject({
      ok: false,
      message: 'КПП: 9 цифр',
    });
    expect(
      await call(
        'bank_account_update',
        {
          id: -1,
          title: 'Счёт',
          legal_entity_id: clientEntity.id,
          account_number: '4080',
          bank_bik: '04452',
        },
        client,
      ),
    ).toMatchObject({ ok: false, message: 'номер счёта: 20 цифр; БИК: 9 цифр' });
    expect((await call('legal_entity_list', { search: 'Фирма' })).result.total).toBe(0);
  });

  it('lists the entities of operators or of clients, with their bank accounts', async () => {
    const account = await call(
      'bank_account_update',
      {
        id: -1,
        title: 'Сбер',
        legal_entity_id: operatorEntity.id,
        account_number: '40702810938000012345',
        bank_bik: '044525225',
      },
      operator,
    );
    expect(account.result).toMatchObject({ legal_entity_title: 'ООО «Восточный экспресс»' });
    expect(itemIds(await call('legal_entity_list', { type: 'operator' }))).toEqual([operatorEntity.id]);
    expect(itemIds(await call('legal_entity_list', { type: 'client' }))).toEqual([clientEntity.id]);
    expect((await call('legal_entity_get_by_id', { id: operatorEntity.id })).result.bank_account_id).toEqual([
      account.result.id,
    ]);
    expect(await call('legal_entity_list', { type: 'bank' })).toMatchObject({ ok: false });
  });

  it("keeps each owner's entities and accounts to themselves", async () => {
    expect(itemIds(await call('legal_entity_list', {}, client))).toEqual([clientEntity.id]);
    expect(await call('legal_entity_get_by_id', { id: clientEntity.id }, otherClient)).toMatchObject({
      ok: false,
    });
    expect(
      await call('legal_entity_update', { id: clientEntity.id, title: 'моё' }, otherClient),
    ).toMatchObject({ ok: false });
    expect(await call('legal_entity_update', { id: clientEntity.id, client_id: 52 }, client)).toMatchObject({
      ok: false,
      message: 'недостаточно прав для этого действия',
    });
    expect((await call('bank_account_list', {}, client)).result.total).toBe(0);
    expect((await call('bank_account_list', {}, operator)).result.total).toBe(1);
    expect(
      await call(
        'bank_account_update',
        {
          id: -1,
          title: 'Чужой',
          legal_entity_id: operatorEntity.id,
          account_number: '40702810938000099999',
          bank_bik: '044525225',
        },
        client,
      ),
    ).toMatchObject({ ok: false, message: 'недостаточно прав для этого действия' });
    expect(
      await call('legal_entity_update', { id: -1, title: 'Наше юрлицо', inn: '7725012341' }, operator),
    ).toMatchObject({
      ok: false,
    });
  });
});

describe('exchange rates', () => {
  it("lets everyone read rates, an operator write their own, and nobody a rate of another's", async () => {
    const own = await call(
      'exchange_rate_update',
      {
        id: -1,
        date: '2026-11-20',
        operator_id: 41,
        client_sell_rate_cny: '11.7512',
        client_sell_rate_usd: 84.1,
      },
      operator,
    );
    expect(own.result).toMatchObject({
      date: '2026-11-20',
      client_sell_rate_cny: '11.7512',
      client_sell_rate_usd: '84.1000',
    });
    expect(
      await call(
        'exchange_rate_update',
        { id: -1, date: '2026-11-20', operator_id: 42, client_sell_rate_cny: 11, client_sell_rate_usd: 84 },
        operator,
      ),
    ).toMatchObject({ ok: false, message: 'недостаточно прав для этого действия' });
    expect(
      await call(
        'exchange_rate_update',
        { id: -1, date: '2026-11-20', client_sell_rate_cny: 11, client_sell_rate_usd: 84 },
        client,
      ),
    ).toMatchObject({ ok: false, message: 'действие доступно только администратору или оператору' });
    expect(
      await call('exchange_rate_update', {
        id: -1,
        date: '31-02-2026',
        client_sell_rate_cny: 11,
        client_sell_rate_usd: 84,
      }),
    ).toMatchObject({ ok: false, message: expect.stringContaining('ожидается дата') });
    const latest = await call(
      'exchange_rate_list',
      { operator_id: 41, order_by: 'date desc', per_page: 1 },
      client,
    );
    expect(latest.result.items[0]).toMatchObject({ id: own.result.id, client_sell_rate_cny: '11.7512' });
    const ranged = await call('exchange_rate_list', {
      where_param: [{ field: 'date', op: '<', value: '2026-11-20' }],
    });
    expect(ranged.result.total).toBe(0);
  });
});
