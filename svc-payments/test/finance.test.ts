import { exchangeRate, LIST_MESSAGES } from '@caravan/contracts';
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
    // other test files of the run add entities too: only these two are looked at
    const ofOperators = itemIds(await call('legal_entity_list', { type: 'operator', per_page: 100 }));
    const ofClients = itemIds(await call('legal_entity_list', { type: 'client', per_page: 100 }));
    expect(ofOperators).toContain(operatorEntity.id);
    expect(ofOperators).not.toContain(clientEntity.id);
    expect(ofClients).toContain(clientEntity.id);
    expect(ofClients).not.toContain(operatorEntity.id);
    expect((await call('legal_entity_get_by_id', { id: operatorEntity.id })).result.bank_account_id).toEqual([
      account.result.id,
    ]);
    expect(await call('legal_entity_list', { type: 'bank' })).toMatchObject({
      ok: false,
      message: "неверное значение поля 'тип': выберите значение из списка",
    });
  });

  it("keeps each owner's entities and accounts to themselves", async () => {
    expect(itemIds(await call('legal_entity_list', {}, client))).toEqual([clientEntity.id]);
    expect(await call('legal_entity_get_by_id', { id: clientEntity.id }, otherClient)).toMatchObject({
      ok: false,
      message: 'запись не найдена',
    });
    expect(
      await call('legal_entity_update', { id: clientEntity.id, title: 'моё' }, otherClient),
    ).toMatchObject({ ok: false, message: 'запись не найдена' });
    expect(await call('legal_entity_update', { id: clientEntity.id, client_id: 52 }, client)).toMatchObject({
      ok: false,
      message: 'недостаточно прав для этого действия',
    });
    expect((await call('bank_account_list', {}, client)).result.total).toBe(0);
    // other test files of the run add accounts of their own: the operator sees theirs, and only theirs
    const operatorAccounts: { legal_entity_id: number }[] = (
      await call('bank_account_list', { per_page: 100 }, operator)
    ).result.items;
    const operatorEntities = itemIds(await call('legal_entity_list', { per_page: 100 }, operator));
    expect(operatorAccounts.map((a) => a.legal_entity_id)).toContain(operatorEntity.id);
    expect(operatorAccounts.every((a) => operatorEntities.includes(a.legal_entity_id))).toBe(true);
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

describe("another operator's confidential columns", () => {
  const stranger = identityOf({ user_id: 5, roles: ['operator'], operator_ids: [42] });
  const INCOMING = [
    'incoming_buy_rate_cny',
    'incoming_buy_rate_usd',
    'incoming_sell_rate_cny',
    'incoming_sell_rate_usd',
  ];
  let rate: Any;

  beforeAll(async () => {
    rate = (
      await call(
        'exchange_rate_update',
        {
          id: -1,
          date: '2026-11-21',
          operator_id: 41,
          client_sell_rate_cny: '11.80',
          client_sell_rate_usd: '84.50',
          incoming_buy_rate_cny: '11.1234',
          incoming_sell_rate_cny: '10.9876',
        },
        operator,
      )
    ).result;
    await call('exchange_rate_update', { id: rate.id, incoming_buy_rate_usd: '80.5000' }, operator);
  });

  it("hides an operator's incoming rates from another operator and from clients, not from the owner", async () => {
    expect((await call('exchange_rate_get_by_id', { id: rate.id }, operator)).result).toMatchObject({
      incoming_buy_rate_cny: '11.1234',
      incoming_sell_rate_cny: '10.9876',
      incoming_buy_rate_usd: '80.5000',
    });
    for (const who of [stranger, client]) {
      const seen = (await call('exchange_rate_get_by_id', { id: rate.id }, who)).result;
      expect(seen).toMatchObject({ client_sell_rate_cny: '11.8000' });
      for (const column of INCOMING) expect(seen[column]).toBeNull();
      const listed = (await call('exchange_rate_list', { operator_id: 41, per_page: 100 }, who)).result.items;
      expect(listed.find((r: Any) => r.id === rate.id)).toMatchObject({
        incoming_buy_rate_cny: null,
        incoming_sell_rate_cny: null,
      });
    }
    expect((await call('exchange_rate_get_by_id', { id: rate.id })).result.incoming_buy_rate_cny).toBe(
      '11.1234',
    );
  });

  it('leaks nothing through a filter, a sort or the history', async () => {
    expect(
      await call(
        'exchange_rate_list',
        { where_param: [{ field: 'incoming_buy_rate_cny', op: '>', value: 5 }] },
        stranger,
      ),
    ).toEqual({
      ok: false,
      result: null,
      message: LIST_MESSAGES.unavailableField(exchangeRate.labels.incoming_buy_rate_cny),
    });
    expect(
      await call('exchange_rate_list', { order_by: 'incoming_sell_rate_cny asc' }, stranger),
    ).toMatchObject({
      ok: false,
      message: LIST_MESSAGES.unavailableField(exchangeRate.labels.incoming_sell_rate_cny),
    });
    expect(
      await call('exchange_rate_list', { filters: { incoming_buy_rate_cny: '11.1234' } }, client),
    ).toMatchObject({
      ok: false,
      message: LIST_MESSAGES.unavailableField(exchangeRate.labels.incoming_buy_rate_cny),
    });
    const history = JSON.stringify((await call('exchange_rate_history', { id: rate.id }, stranger)).result);
    expect(history).toContain('11.8');
    expect(history).not.toMatch(/incoming|11\.1234|10\.9876|80\.5/);
    expect(JSON.stringify((await call('exchange_rate_history', { id: rate.id }, operator)).result)).toContain(
      '80.5',
    );
  });

  it("refuses saving another operator's rate, shows it read-only, and keeps it unchanged", async () => {
    expect(await call('exchange_rate_update', { id: rate.id, incoming_buy_rate_cny: '1' }, stranger)).toEqual(
      {
        ok: false,
        result: null,
        message: 'недостаточно прав для этого действия',
      },
    );
    expect((await call('exchange_rate_get_by_id', { id: rate.id }, stranger)).result._rights).toEqual({
      write: false,
      delete: false,
    });
    expect((await call('exchange_rate_get_by_id', { id: rate.id }, operator)).result._rights).toEqual({
      write: true,
      delete: true,
    });
    expect((await call('exchange_rate_get_by_id', { id: rate.id })).result.incoming_buy_rate_cny).toBe(
      '11.1234',
    );
  });
});
