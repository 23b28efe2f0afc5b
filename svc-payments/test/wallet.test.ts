import { IDENTITY_HEADER } from '@caravan/contracts';
import {
  callService,
  identityOf,
  signIdentity,
  startService,
  type RunningService,
} from '@caravan/service-kit';
import { paymentsService } from '../src/app';

const admin = identityOf({ user_id: 1, roles: ['admin'] });
const clientA = identityOf({ user_id: 10, roles: ['client'], client_ids: [101] });
const clientB = identityOf({ user_id: 11, roles: ['client'], client_ids: [102] });
const operatorA = identityOf({ user_id: 12, roles: ['operator'], operator_ids: [7] });
let svc: RunningService;
let walletA: number;
let walletB: number;

beforeAll(async () => {
  svc = await startService(paymentsService());
  const create = async (client_id: number, operator_id: number) =>
    (
      (
        await callService(
          svc.url,
          'wallet_update',
          { id: -1, title: 'Основной', client_id, operator_id },
          admin,
        )
      ).body.result as { id: number }
    ).id;
  walletA = await create(101, 7);
  walletB = await create(102, 8);
});
afterAll(() => svc?.stop());

describe('identity token', () => {
  it('refuses a request without a token, with a forged one and with an expired one', async () => {
    expect((await callService(svc.url, 'wallet_list', {}, null)).status).toBe(401);
    const forged = await callService(
      svc.url,
      'wallet_list',
      {},
      admin,
      'not-the-gateway-secret-but-long-enough-000',
    );
    expect(forged).toEqual({
      status: 401,
      body: { ok: false, result: null, message: 'запрос не подписан шлюзом' },
    });
    const res = await fetch(`${svc.url}/rpc`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [IDENTITY_HEADER]: signIdentity(
          admin,
          process.env.IDENTITY_TOKEN_SECRET ?? 'caravan-local-development-identity-secret-0001',
          -5,
        ),
      },
      body: JSON.stringify({ method: 'wallet_list', params: {} }),
    });
    expect(res.status).toBe(401);
  });
});

/** A row of another client or operator does not exist for the caller (spec: 'запись не найдена'). */
const NOT_FOUND = { ok: false, message: 'запись не найдена' };

describe('wallet access', () => {
  it('shows a client only the wallets of their clients', async () => {
    const list = await callService(svc.url, 'wallet_list', { per_page: 100 }, clientA);
    const ids = (list.body.result as { items: { id: number }[] }).items.map((w) => w.id);
    expect(ids).toContain(walletA);
    expect(ids).not.toContain(walletB);
  });

  it("does not let a client read, rename, delete or take over another client's wallet", async () => {
    expect((await callService(svc.url, 'wallet_get_by_id', { id: walletB }, clientA)).body).toMatchObject({
      ok: false,
      message: 'запись не найдена',
    });
    expect((await callService(svc.url, 'wallet_history', { id: walletB }, clientA)).body).toMatchObject(
      NOT_FOUND,
    );
    expect(
      (await callService(svc.url, 'wallet_update', { id: walletB, title: 'моё' }, clientA)).body,
    ).toMatchObject(NOT_FOUND);
    expect(
      (await callService(svc.url, 'wallet_update', { id: walletB, deleted: true }, clientA)).body,
    ).toMatchObject(NOT_FOUND);
    expect(
      (await callService(svc.url, 'wallet_update', { id: walletA, client_id: 102 }, clientA)).body,
    ).toMatchObject({
      ok: false,
      message: 'клиента кошелька меняет только администратор, и только у пустого кошелька',
    });
    expect(
      (await callService(svc.url, 'wallet_update', { id: -1, title: 'чужой', client_id: 102 }, clientA)).body,
    ).toMatchObject({ ok: false, message: 'недостаточно прав для этого действия' });
    const untouched = (await callService(svc.url, 'wallet_get_by_id', { id: walletB }, clientB)).body.result;
    expect(untouched).toMatchObject({ title: 'Основной', deleted: false, client_id: 102 });
  });

  it("shows an operator the wallets of their operator and not another operator's", async () => {
    expect((await callService(svc.url, 'wallet_get_by_id', { id: walletA }, operatorA)).body.ok).toBe(true);
    expect((await callService(svc.url, 'wallet_get_by_id', { id: walletB }, operatorA)).body).toMatchObject(
      NOT_FOUND,
    );
    expect(
      (await callService(svc.url, 'wallet_update', { id: walletB, title: 'чужой' }, operatorA)).body,
    ).toMatchObject(NOT_FOUND);
    expect(
      (await callService(svc.url, 'wallet_update', { id: walletA, operator_id: 8 }, operatorA)).body,
    ).toMatchObject({
      ok: false,
      message: 'этот оператор не обслуживает клиента кошелька',
    });
    expect((await svc.db('wallet').where({ id: walletA }).first()).operator_id).toBe(7);
  });

  it('lets the owner rename a wallet and records who changed what', async () => {
    const renamed = await callService(
      svc.url,
      'wallet_update',
      { id: walletA, title: 'Для заказов' },
      clientA,
    );
    expect(renamed.body).toMatchObject({ ok: true, result: { title: 'Для заказов', amount: '0.00' } });
    const history = (await callService(svc.url, 'wallet_history', { id: walletA }, clientA)).body
      .result as Record<string, unknown>[];
    expect(history[0]).toMatchObject({
      type: 'title',
      type_ru: 'название',
      old_value: 'Основной',
      new_value: 'Для заказов',
      user_id: 10,
    });
  });

  it('never lets the balance be written through the generic update', async () => {
    const res = await callService(svc.url, 'wallet_update', { id: walletA, amount: '1000000.00' }, admin);
    expect(res.body).toMatchObject({ ok: false, message: "неизвестное поле 'amount'" });
    expect((await svc.db('wallet').where({ id: walletA }).first()).amount).toBe('0.00');
  });
});

describe('generic list', () => {
  it("takes the admin's raw where box as a structured filter, and nobody else's", async () => {
    const raw = await callService(
      svc.url,
      'wallet_list',
      { where_raw: "client_id in (101, 102) and title like 'заказ'" },
      admin,
    );
    expect((raw.body.result as { items: { id: number }[] }).items.map((w) => w.id)).toEqual([walletA]);
    expect(
      (await callService(svc.url, 'wallet_list', { where_raw: 'client_id = 102' }, clientA)).body,
    ).toMatchObject({
      ok: false,
      message: 'действие доступно только администратору',
    });
    expect(
      (await callService(svc.url, 'wallet_list', { where_raw: 'amount > 0; delete from wallet' }, admin))
        .body,
    ).toMatchObject({
      ok: false,
      message: "ошибка в условии фильтра: недопустимый символ ';' (позиция 11)",
    });
    expect(await svc.db('wallet').whereIn('client_id', [101, 102]).count({ n: '*' }).first()).toEqual({
      n: 2,
    });
  });

  it('soft-deletes and restores, and a bad filter field is a clear error that changes nothing', async () => {
    await callService(svc.url, 'wallet_update', { id: walletB, deleted: true }, admin);
    const deleted = await callService(svc.url, 'wallet_list', { deleted: true }, admin);
    expect((deleted.body.result as { items: { id: number }[] }).items.map((w) => w.id)).toContain(walletB);
    await callService(svc.url, 'wallet_update', { id: walletB, deleted: false }, admin);
    const bad = await callService(
      svc.url,
      'wallet_list',
      { where_param: [{ field: 'password', op: '=', value: 1 }] },
      admin,
    );
    expect(bad.body).toMatchObject({
      ok: false,
      message: "поле 'password' недоступно для фильтра и сортировки",
    });
    const search = await callService(
      svc.url,
      'wallet_list',
      { search: 'заказ', where_param: [{ field: 'client_id', op: 'in', value: [101, 102] }] },
      admin,
    );
    expect((search.body.result as { total: number }).total).toBe(1);
  });
});
