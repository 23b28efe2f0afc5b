import { MESSAGES } from '@caravan/contracts';
import { login, startSystem, type System } from './system';

let system: System;
let client1: string;

beforeAll(async () => {
  system = await startSystem();
  client1 = (await login(system.url, 'client@caravan.local', 'caravan123')).result.token;
});
afterAll(() => system?.stop());

const post = (path: string, headers: Record<string, string>, body: string) =>
  fetch(`${system.url}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'auth-token': client1, ...headers },
    body,
  }).then(async (res) => ({ status: res.status, body: (await res.json()) as unknown }));

describe('the Express paths refuse a body they cannot read in words, as call_pg_func does', () => {
  it.each(['client_order_invoice_download', 'modul_sbp_create', 'suggest_address', 'suggest_company'])(
    '%s: an unknown Content-Encoding is a 415, another charset a 415, never a 500',
    async (path) => {
      expect(await post(path, { 'content-encoding': 'zstd-x' }, '{"query":"Москва"}')).toEqual({
        status: 415,
        body: { ok: false, result: null, message: MESSAGES.unsupportedEncoding },
      });
      expect(
        await post(path, { 'content-type': 'application/json; charset=koi8-r' }, '{"query":"x"}'),
      ).toEqual({ status: 415, body: { ok: false, result: null, message: MESSAGES.unsupportedBody } });
    },
  );
});

describe('registration under a burst', () => {
  it('counts parallel sign-ups from one address under one lock: no more pass than the limit', async () => {
    const ip = `10.40.${Date.now() % 250}.${Math.floor(Math.random() * 250)}`;
    const stamp = Date.now();
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${system.url}/api/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
          body: JSON.stringify({
            login: `race-${stamp}-${i}@caravan.local`,
            password: 'Синий-кит-2026',
            passwordRepeat: 'Синий-кит-2026',
            first_name: 'Иван',
            last_name: 'Петров',
          }),
        }).then((r) => r.json() as Promise<{ ok: boolean; message?: string }>),
      ),
    );
    // the test system's limit per address and hour; a refused one may also be the password hasher's queue
    expect(replies.filter((r) => r.ok).length).toBeLessThanOrEqual(10);
    const recorded = await system.gateway.db('registration_attempt').where({ ip }).count({ n: '*' }).first();
    expect(Number(recorded?.n)).toBe(10);
    expect(replies.filter((r) => !r.ok).every((r) => r.message === MESSAGES.tooManyRequests)).toBe(true);
  });
});

describe('the login throttle refuses strangers, not the owner', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const undo of cleanups.splice(0)) await undo();
  });
  const attempt = async (login: string, password: string, ip: string, cookie?: string) => {
    const res = await fetch(`${system.url}/api/login`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': ip,
        ...(cookie ? { cookie } : {}),
      },
      body: JSON.stringify({ login, password }),
    });
    const body = (await res.json()) as { ok: boolean; message?: string };
    return { ...body, cookie: res.headers.get('set-cookie')?.split(';')[0] };
  };
  const attemptsOf = async (email: string) =>
    Number((await system.gateway.db('login_attempt').where({ email }).count({ n: '*' }).first())?.n);

  it('an address over its limit is slowed, but a correct password of another account still signs in', async () => {
    const shared = `10.50.${Date.now() % 250}.${Math.floor(Math.random() * 250)}`;
    // 50 wrong attempts on as many accounts from one shared address (NAT), then the 51st over the API
    await system.gateway.db('login_attempt').insert(
      Array.from({ length: 50 }, (_, i) => ({
        email: `nobody-${i}@caravan.local`,
        ip: shared,
        success: false,
      })),
    );
    expect(await attempt('nobody-51@caravan.local', 'wrong-pass', shared)).toMatchObject({
      ok: false,
      message: MESSAGES.tooManyAttempts,
    });
    expect(await attempt('client2@caravan.local', 'caravan123', shared)).toMatchObject({ ok: true });
    expect(await attempt('client2@caravan.local', 'wrong-pass', shared)).toMatchObject({
      ok: false,
      message: MESSAGES.tooManyAttempts,
    });
  });

  it('a browser that signed in before is never locked out by strangers, and a refused try extends nothing', async () => {
    const owner = 'operator@caravan.local';
    const home = `10.60.${Date.now() % 250}.1`;
    // the demo operator is every other gateway test's too (one system database, a 15-minute window):
    // the strangers' guesses made here are taken back at the end, or they would close the account to them
    cleanups.push(() =>
      system.gateway
        .db('login_attempt')
        .where({ email: owner })
        .where((q) => q.where('ip', 'like', '10.6_.%'))
        .delete(),
    );
    const first = await attempt(owner, 'caravan123', home);
    expect(first.ok).toBe(true);
    expect(first.cookie).toMatch(/^caravan_device=[A-Za-z0-9_-]{16,}$/);
    // strangers at the owner's address and elsewhere guess until the account is closed to them
    for (let i = 0; i < 4; i++) await attempt(owner, `guess-${i}`, home);
    for (let i = 0; i < 6; i++) await attempt(owner, `guess-${i}`, `10.61.${Date.now() % 250}.${i}`);
    const before = await attemptsOf(owner);
    expect(await attempt(owner, 'caravan123', home)).toMatchObject({
      ok: false,
      message: MESSAGES.tooManyAttempts,
    });
    expect(await attemptsOf(owner)).toBe(before); // the refused attempt was not recorded
    // the owner's browser, with its device cookie, still signs in
    expect(await attempt(owner, 'caravan123', home, first.cookie)).toMatchObject({ ok: true });
    expect(await attempt(owner, 'caravan123', '10.62.0.1', first.cookie)).toMatchObject({ ok: true });
  });
});
