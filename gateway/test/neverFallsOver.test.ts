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
    const ip = '10.40.0.1';
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
