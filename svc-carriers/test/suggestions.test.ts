import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IDENTITY_HEADER } from '@caravan/contracts';
import {
  DEV_IDENTITY_SECRET,
  identityOf,
  signIdentity,
  readRequestBody,
  startService,
  type RunningService,
} from '@caravan/service-kit';
import { carriersService } from '../src/app';

/** A local server speaking the DaData suggestions API (POST JSON, `Authorization: Token …`). */
type Seen = { path: string; auth: string | undefined; body: Record<string, unknown> };
const seen: Seen[] = [];
let fake: Server;
let failNext = false;

const readBody = (req: IncomingMessage) => readRequestBody(req, Infinity);

const ANSWERS: Record<string, unknown> = {
  '/suggestions/api/4_1/rs/suggest/address': {
    suggestions: [
      {
        value: 'г Москва, ул Тверская, д 7',
        unrestricted_value: '125009, г Москва, ул Тверская, д 7',
        data: {
          postal_code: '125009',
          country: 'Россия',
          region_with_type: 'г Москва',
          area_with_type: null,
          city: 'Москва',
          settlement_with_type: null,
          street_with_type: 'ул Тверская',
          house: '7',
          geo_lat: '55.7587',
          geo_lon: '37.6111',
          fias_id: 'not-read-by-us',
        },
      },
    ],
  },
  '/suggestions/api/4_1/rs/findById/party': {
    suggestions: [
      {
        value: 'ООО «РОМАШКА»',
        unrestricted_value: 'ООО «РОМАШКА»',
        data: {
          inn: '7725012341',
          kpp: '772501001',
          ogrn: '1027700000000',
          hid: 'a1b2c3',
          type: 'LEGAL',
          opf: { code: '12300', full: 'Общество с ограниченной ответственностью', short: 'ООО' },
          name: {
            full_with_opf: 'ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ «РОМАШКА»',
            short_with_opf: 'ООО «РОМАШКА»',
          },
          management: { name: 'Смирнова Ирина Викторовна', post: 'ГЕНЕРАЛЬНЫЙ ДИРЕКТОР' },
          state: { status: 'LIQUIDATING', actuality_date: 1700000000000 },
          address: { value: 'г Москва, ул Тверская, д 7, офис 12', data: {} },
        },
      },
    ],
  },
  '/suggestions/api/4_1/rs/suggest/bank': {
    suggestions: [
      {
        value: 'ПАО Сбербанк',
        data: {
          bic: '044525225',
          swift: 'SABRRUMM',
          correspondent_account: '30101810400000000225',
          name: { payment: 'ПАО Сбербанк', full: null, short: 'СБЕРБАНК' },
          address: { value: 'г Москва, ул Вавилова, д 19' },
        },
      },
    ],
  },
};

const admin = identityOf({ user_id: 1, roles: ['admin'] });
let real: RunningService;
let sandbox: RunningService;

async function suggest(svc: RunningService, what: string, body: unknown) {
  const res = await fetch(`${svc.url}/api/suggest_${what}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [IDENTITY_HEADER]: signIdentity(admin, process.env.IDENTITY_TOKEN_SECRET ?? DEV_IDENTITY_SECRET),
    },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { ok: boolean; result: any; message?: string }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

beforeAll(async () => {
  fake = createServer(async (req, res) => {
    const body = JSON.parse((await readBody(req)) || '{}');
    seen.push({ path: req.url ?? '', auth: req.headers.authorization, body });
    if (failNext) {
      failNext = false;
      res.writeHead(403, { 'content-type': 'application/json' }).end('{"message":"Forbidden"}');
      return;
    }
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(ANSWERS[req.url ?? ''] ?? { suggestions: [] }));
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/suggestions/api/4_1/rs`;
  [real, sandbox] = await Promise.all([
    startService(carriersService({ ...process.env, DADATA_API_KEY: 'test-key', DADATA_URL: base })),
    startService(carriersService({ ...process.env, DADATA_API_KEY: '' })),
  ]);
});
afterAll(async () => {
  await Promise.all([real?.stop(), sandbox?.stop()]);
  fake?.close();
});

describe('DaData client against a server speaking its format', () => {
  it('sends the key and the query, and turns an address into the spec address', async () => {
    const reply = await suggest(real, 'address', { query: 'москва тверская 7' });
    expect(seen.at(-1)).toEqual({
      path: '/suggestions/api/4_1/rs/suggest/address',
      auth: 'Token test-key',
      body: { query: 'москва тверская 7', count: 10 },
    });
    expect(reply.result).toEqual([
      {
        full: '125009, г Москва, ул Тверская, д 7',
        geo_lat: '55.7587',
        geo_lon: '37.6111',
        source: {
          city: 'Москва',
          region: 'г Москва',
          area: null,
          street: 'ул Тверская',
          postal_code: '125009',
          house: '7',
          place: null,
        },
      },
    ]);
  });

  it('looks a company up by INN with findById and keeps its status', async () => {
    const reply = await suggest(real, 'company', { query: '7725012341', count: 1 });
    expect(seen.at(-1)?.path).toBe('/suggestions/api/4_1/rs/findById/party');
    expect(reply.result[0]).toMatchObject({
      value: 'ООО «РОМАШКА»',
      data: {
        inn: '7725012341',
        kpp: '772501001',
        state: { status: 'LIQUIDATING' },
        management: { name: 'Смирнова Ирина Викторовна' },
      },
    });
    await suggest(real, 'company', { query: 'ромашка' });
    expect(seen.at(-1)?.path).toBe('/suggestions/api/4_1/rs/suggest/party');
  });

  it('finds a bank by BIK', async () => {
    const reply = await suggest(real, 'bank', { query: '044525225' });
    expect(reply.result[0].data).toEqual({
      bic: '044525225',
      correspondent_account: '30101810400000000225',
      name: { payment: 'ПАО Сбербанк', short: 'СБЕРБАНК' },
      address: { value: 'г Москва, ул Вавилова, д 19' },
    });
  });

  it('tells the user when the vendor refuses, and refuses an empty query without calling it', async () => {
    failNext = true;
    expect(await suggest(real, 'bank', { query: '0445' })).toMatchObject({
      ok: false,
      message: 'сервис подсказок недоступен, заполните поля вручную (HTTP 403)',
    });
    const calls = seen.length;
    expect(await suggest(real, 'address', { query: '  ' })).toMatchObject({ ok: false });
    expect(seen).toHaveLength(calls);
  });
});

describe('the built-in sandbox', () => {
  it('answers offline with realistic data', async () => {
    const calls = seen.length;
    const address = await suggest(sandbox, 'address', { query: 'казань баумана' });
    expect(address.result[0]).toMatchObject({
      full: expect.stringContaining('г Казань, ул Баумана'),
      geo_lat: '55.7921',
    });
    const company = await suggest(sandbox, 'company', { query: '5032123452' });
    expect(company.result[0].data.state.status).toBe('LIQUIDATING');
    const bank = await suggest(sandbox, 'bank', { query: '044525974' });
    expect(bank.result[0].data.correspondent_account).toBe('30101810145250000974');
    expect(seen).toHaveLength(calls);
  });
});
