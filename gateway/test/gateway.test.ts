import { eventually } from '@caravan/service-kit';
import { call, login, openSse, startSystem, type System } from './system';

let system: System;
let admin: string;
let client1: string;
let client2: string;

beforeAll(async () => {
  system = await startSystem();
  admin = (await login(system.url, 'admin@caravan.local', 'caravan-admin')).result.token;
  client1 = (await login(system.url, 'client@caravan.local', 'caravan123')).result.token;
  client2 = (await login(system.url, 'client2@caravan.local', 'caravan123')).result.token;
});
afterAll(() => system?.stop());

describe('login and sessions', () => {
  it('gives the same message for an unknown email and a wrong password, and no token', async () => {
    const unknown = await login(system.url, 'nobody@caravan.local', 'whatever1');
    const wrong = await login(system.url, 'operator@caravan.local', 'wrong-password');
    expect(unknown).toEqual({ ok: false, result: null, message: 'неверный email или пароль' });
    expect(wrong).toEqual(unknown);
  });

  it('locks an account after repeated failures, even for the right password', async () => {
    for (let i = 0; i < 3; i++) await login(system.url, 'waiting@caravan.local', 'bad-password');
    expect(await login(system.url, 'waiting@caravan.local', 'caravan123')).toMatchObject({
      ok: false,
      message: 'слишком много попыток входа, повторите позже',
    });
  });

  it('issues a new random token at each login and revokes it at logout', async () => {
    const a = (await login(system.url, 'operator@caravan.local', 'caravan123')).result.token;
    const b = (await login(system.url, 'operator@caravan.local', 'caravan123')).result.token;
    expect(a).not.toBe(b);
    expect(Buffer.from(a, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect((await call(system.url, a, 'country_list')).body.ok).toBe(true);
    await fetch(`${system.url}/api/logout`, { method: 'POST', headers: { 'auth-token': a } });
    expect(await call(system.url, a, 'country_list')).toEqual({
      status: 401,
      body: { ok: false, result: null, message: 'сессия истекла, войдите снова' },
    });
    expect((await call(system.url, b, 'country_list')).body.ok).toBe(true);
  });

  it('ends a session idle for longer than the idle limit, and any session past its absolute expiry', async () => {
    const idle = (await login(system.url, 'client2@caravan.local', 'caravan123')).result.token;
    const old = (await login(system.url, 'client2@caravan.local', 'caravan123')).result.token;
    const db = system.gateway.db;
    const client2Id = db('user_table').select('id').where({ email: 'client2@caravan.local' });
    // the two newest sessions of client2: `old` then `idle`
    const [second, first] = (await db('session')
      .whereIn('user_id', client2Id)
      .orderBy('id', 'desc')
      .limit(2)) as { id: number }[];
    await db('session')
      .where({ id: first!.id })
      .update({ last_seen_at: db.raw("now() - interval '169 hours'") });
    await db('session')
      .where({ id: second!.id })
      .update({ expires_at: db.raw("now() - interval '1 minute'") });
    expect((await call(system.url, idle, 'country_list')).status).toBe(401);
    expect((await call(system.url, old, 'country_list')).status).toBe(401);
    expect((await call(system.url, client2, 'country_list')).status).toBe(200);
  });

  it('refuses calls without a token', async () => {
    expect((await call(system.url, null, 'country_list')).status).toBe(401);
  });
});

describe('call_pg_func routing', () => {
  it('routes each method to its owning service', async () => {
    expect(
      (await call(system.url, admin, 'country_list')).body.result.items.map(
        (c: { title: string }) => c.title,
      ),
    ).toContain('Китай');
    expect((await call(system.url, admin, 'client_list')).body.result.total).toBeGreaterThanOrEqual(3);
    expect((await call(system.url, admin, 'wallet_list')).body.result.total).toBeGreaterThanOrEqual(3);
    expect((await call(system.url, admin, 'user_current')).body.result).toMatchObject({
      email: 'admin@caravan.local',
      role: ['admin'],
    });
  });

  it('answers an unknown method or bad params with ok:false and a clear message', async () => {
    expect(await call(system.url, admin, 'drop_database')).toEqual({
      status: 200,
      body: { ok: false, result: null, message: "неизвестный метод 'drop_database'" },
    });
    expect((await call(system.url, admin, 'country_list', { page: 0 })).body).toMatchObject({ ok: false });
    expect((await call(system.url, admin, 'country_update', { id: -1, title: '' })).body).toMatchObject({
      ok: false,
      message: "не заполнено поле 'название'",
    });
    const raw = await fetch(`${system.url}/api/call_pg_func`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'auth-token': admin },
      body: '{"method": ',
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({ ok: false });
  });

  it('lets a client call no admin method and see no other client', async () => {
    expect(
      (await call(system.url, client1, 'country_update', { id: -1, title: 'Атлантида' })).body,
    ).toMatchObject({
      ok: false,
      message: 'действие доступно только администратору',
    });
    expect((await call(system.url, client1, 'user_list')).body.ok).toBe(false);
    const clients = (await call(system.url, client1, 'client_list')).body.result.items.map(
      (c: { id: number }) => c.id,
    );
    expect(clients).toEqual([1]);
    expect((await call(system.url, client1, 'client_get_by_id', { id: 2 })).body.ok).toBe(false);
  });

  it('serves the remotes manifest and refuses unknown /api paths', async () => {
    const remotes = (await (await fetch(`${system.url}/api/remotes`)).json()) as {
      result: { name: string; entry: string }[];
    };
    expect(remotes.result.map((r) => r.name)).toEqual(['mf_orders', 'mf_wallet', 'mf_directories']);
    expect(remotes.result[0]!.entry).toMatch(/\/mf-manifest\.json$/);
    const res = await fetch(`${system.url}/api/nothing_here`, { headers: { 'auth-token': admin } });
    expect(res.status).toBe(404);
  });
});

describe('live wallet updates over SSE', () => {
  it('pushes a wallet change to the browser of its client and not to another client', async () => {
    const wallets = (await call(system.url, client1, 'wallet_list')).body.result.items as {
      id: number;
      client_id: number;
    }[];
    const wallet = wallets[0]!;
    const own = openSse(system.url, client1, `&type=wallet_item&param=${wallet.id}`);
    const other = openSse(system.url, client2);
    const watcher = openSse(system.url, admin);
    expect(await own.ready).toBe(200);
    expect(await other.ready).toBe(200);
    await watcher.ready;
    await eventually('three SSE connections', async () => system.gateway.hub.size === 3);

    const renamed = await call(system.url, admin, 'wallet_update', {
      id: wallet.id,
      title: 'Пополнение для SSE',
    });
    expect(renamed.body.ok).toBe(true);

    const event = await eventually('the event in the own browser', async () => own.events[0]);
    expect(event).toMatchObject({
      event: 'wallet_item',
      data: { ok: true, id: wallet.id, item: { title: 'Пополнение для SSE' } },
    });
    await eventually('the event in the admin browser', async () => watcher.events.length > 0);
    expect(other.events).toHaveLength(0);
    own.close();
    other.close();
    watcher.close();
  });

  it('refuses an SSE connection without a valid token', async () => {
    const res = await fetch(`${system.url}/api/sse?authToken=forged`);
    expect(res.status).toBe(401);
  });
});

describe('live order updates over SSE', () => {
  it("pushes an order's position changes to the open card of its client and not to another client", async () => {
    type Row = { id: number; client_list?: { id: number }[]; operator_id?: number; state?: string };
    const list = async (method: string) =>
      (await call(system.url, admin, method, { per_page: 100 })).body.result.items as Row[];
    const operator = (await list('operator_list')).find((o) => o.client_list?.some((c) => c.id === 1))!;
    const route = (await list('logistic_route_list')).find((r) => r.operator_id === operator.id)!;
    const created = await call(system.url, client1, 'client_order_update', {
      id: -1,
      client_id: 1,
      operator_id: operator.id,
      logistic_route_id: route.id,
      title: 'Заказ для SSE',
      buyout_type: 'operator',
      delivery_type: 'to_door',
    });
    expect(created.body.message).toBeUndefined();
    const orderId = created.body.result.id as number;

    const card = openSse(system.url, client1, `&type=client_order_item&param=${orderId}`);
    const stranger = openSse(system.url, client2, '&type=order');
    expect(await card.ready).toBe(200);
    expect(await stranger.ready).toBe(200);
    await eventually('two SSE connections', async () => system.gateway.hub.size === 2);

    const added = await call(system.url, client1, 'client_order_position_update', {
      id: -1,
      client_order_id: orderId,
      title: 'Кроссовки',
      price_cny: '100',
      amount: '2',
    });
    expect(added.body.ok).toBe(true);
    const event = await eventually('the position on the open card', async () =>
      card.events.find((e) => e.data.entity === 'client_order_position'),
    );
    expect(event).toMatchObject({
      event: 'client_order_item',
      data: { ok: true, id: added.body.result.id, item: { title: 'Кроссовки', client_order_id: orderId } },
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(stranger.events).toHaveLength(0);
    card.close();
    stranger.close();
  });
});

describe("a user's own order lists (options.settings)", () => {
  it('keeps favourites and archive per user; the list leaves archived orders out with not_in', async () => {
    const orders = (await call(system.url, client1, 'client_order_list', { per_page: 3, order_by: 'id asc' }))
      .body.result.items as { id: number }[];
    const [a, b] = orders.map((o) => o.id);
    const saved = await call(system.url, client1, 'profile_settings_update', {
      favourite_orders: [a],
      archived_orders: [b],
    });
    expect(saved.body.result.options.settings).toMatchObject({ favourite_orders: [a], archived_orders: [b] });
    // the shell reads the user at start-up: it gets the new lists at once, not after the cache's time
    const shellView = await fetch(`${system.url}/api/user_current`, { headers: { 'Auth-token': client1 } });
    expect((await shellView.json()).result.options.settings).toMatchObject({ archived_orders: [b] });
    // another user's settings are their own
    const other = await call(system.url, client2, 'user_current', {});
    expect(other.body.result.options.settings.archived_orders).toBeUndefined();

    const rest = await call(system.url, client1, 'client_order_list', {
      where_param: [{ field: 'id', op: 'not_in', value: [b] }],
      per_page: 100,
    });
    const ids = (rest.body.result.items as { id: number }[]).map((o) => o.id);
    expect(ids).toContain(a);
    expect(ids).not.toContain(b);

    // a list that is not a list of ids is refused in words and changes nothing
    const refused = await call(system.url, client1, 'profile_settings_update', { archived_orders: ['x'] });
    expect(refused.body.ok).toBe(false);
    expect(refused.body.message).toBe("неверное значение поля 'заказы в архиве №1': ожидается число");
    const again = await call(system.url, client1, 'profile_settings_update', {});
    expect(again.body.result.options.settings).toMatchObject({ favourite_orders: [a], archived_orders: [b] });
  });
});
