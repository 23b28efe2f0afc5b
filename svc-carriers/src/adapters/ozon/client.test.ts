import { createLogger } from '@caravan/service-kit';
import { carrierError, describeVendorFailures, localServer, sandboxCall } from '../contract.testkit';
import { OzonClient } from './client';
import { createOzon } from './index';
import { OZON_SANDBOX_ACCOUNT, startOzonSandbox, type OzonSandbox } from './sandbox';

/** The real client against the real sandbox server (and, where the sandbox cannot misbehave so, a small local server). */

let sandbox: OzonSandbox;
let slept: number[];
let client: OzonClient;
const account = OZON_SANDBOX_ACCOUNT;
const seenAt = new Date('2026-11-24T12:00:00Z');

const control = (path: string, body: unknown = {}) => sandboxCall(sandbox.url, `/sandbox/${path}`, body);

const clientAt = (baseUrl: string, timeoutMs = 10_000) =>
  new OzonClient({
    baseUrl,
    timeoutMs,
    sleep: async (ms) => {
      slept.push(ms);
    },
    now: () => seenAt,
  });

beforeAll(async () => {
  sandbox = await startOzonSandbox({ port: 0 });
});
afterAll(() => sandbox.stop());
beforeEach(() => {
  slept = [];
  client = clientAt(sandbox.url);
});

describeVendorFailures({
  name: 'Ozon',
  account,
  newShipment: async () => String((await control('shipments')).body.posting_number),
  ask: async (number, { credentials = account, serverUrl = sandbox.url, timeoutMs } = {}) =>
    (await clientAt(serverUrl, timeoutMs).getPosting(credentials, number)).posting_number,
  failNext: (mode, times) => control('fail', { mode, times }),
  waits: () => slept,
  retryAfterMs: 1000,
  words: {
    wrongKey: 'Ozon: неверные данные api (Client-Id, Api-Key): Invalid Api-Key, please contact support',
    rateLimited: 'Ozon: слишком много запросов, повторите через 1 с',
    timeout: 'сервис Ozon не ответил: нет ответа за 0,2 с',
    serverError: 'сервис Ozon не ответил: ошибка HTTP 500',
    malformed: 'сервис Ozon не ответил: непонятный ответ',
    refused: 'сервис Ozon не ответил: нет связи (ECONNREFUSED)',
  },
});

describe('a posting through the sandbox', () => {
  it('reads the products with prices in rubles and the weight summed in kg (grams × quantity)', async () => {
    await control('shipments', {
      number: '0123456789-0001-1',
      products: [
        { name: 'Лампа', sku: 111, offer_id: 'L-1', quantity: 2, price: '1390.0000', weight: '650' },
        { name: 'Чехол', sku: 222, offer_id: 'C-1', quantity: 1, price: '490.5000', weight: '60' },
      ],
    });

    const posting = await client.getPosting(account, '  0123456789-0001-1 ');

    expect(posting).toEqual({
      posting_number: '0123456789-0001-1',
      status: 'awaiting_packaging',
      delivering_date: null,
      weight: '1.360',
      products: [
        { name: 'Лампа', sku: 111, offer_id: 'L-1', quantity: 2, price: '1390.00', currency_code: 'RUB' },
        { name: 'Чехол', sku: 222, offer_id: 'C-1', quantity: 1, price: '490.50', currency_code: 'RUB' },
      ],
    });
  });

  it('a posting made without products gets one to three of them', async () => {
    const made = await control('shipments', {});
    const posting = await client.getPosting(account, String(made.body.posting_number));
    expect(posting.products.length).toBeGreaterThanOrEqual(1);
    expect(posting.products.length).toBeLessThanOrEqual(3);
    expect(posting.weight).toMatch(/^\d+\.\d{3}$/);
  });

  it('follows awaiting_packaging → awaiting_deliver → delivering → delivered, with the stages of §4', async () => {
    await control('shipments', { number: '0000000001-0001-1' });
    const seen: string[] = [];
    for (let step = 0; step < 4; step++) {
      const [state] = await client.getStatuses(account, ['0000000001-0001-1']);
      seen.push(state!.statuses[0]!.vendor_status);
      if (step < 3) await control('shipments/0000000001-0001-1/advance');
    }
    expect(seen).toEqual(['awaiting_packaging', 'awaiting_deliver', 'delivering', 'delivered']);
    expect(seen.map((s) => client.stageFor(s))).toEqual([null, null, 'sent_to_door', 'client_received']);
    expect(await control('shipments/0000000001-0001-1/advance')).toMatchObject({ status: 409 });
  });

  it('a status answer carries the posting for the card and the time Ozon confirmed it', async () => {
    await control('shipments', { number: '0000000002-0001-1' });
    await control('shipments/0000000002-0001-1/advance', { status: 'delivering' });
    const [state] = await client.getStatuses(account, ['0000000002-0001-1']);
    expect(state).toMatchObject({
      number: '0000000002-0001-1',
      uuid: null,
      statuses: [{ vendor_status: 'delivering', status_at: seenAt.toISOString(), city: null }],
      details: { posting: { posting_number: '0000000002-0001-1', status: 'delivering' } },
    });
    const posting = (state!.details as { posting: { delivering_date: string | null } }).posting;
    expect(posting.delivering_date).not.toBeNull();
  });

  it('leaves out of a status answer the postings Ozon does not know', async () => {
    expect(await client.getStatuses(account, ['9999999999-0001-1'])).toEqual([]);
  });
});

describe('refusals in the user words', () => {
  it('an unknown posting number: not_found, «отправление Ozon … не найдено»', async () => {
    const error = await carrierError(client.getPosting(account, ' 8888888888-0001-1 '));
    expect(error.kind).toBe('not_found');
    expect(error.message).toBe('отправление Ozon 8888888888-0001-1 не найдено');
  });

  it('no Client-Id: auth', async () => {
    const error = await carrierError(
      client.getPosting({ client_id: '', access_token: 'x' }, '0123456789-0001-1'),
    );
    expect(error.kind).toBe('auth');
    expect(error.message).toContain('Client-Id and Api-Key headers are required');
  });

  it('a blank posting number is refused before any call', async () => {
    const error = await carrierError(client.getPosting(account, '   '));
    expect(error).toMatchObject({ kind: 'refused', message: 'укажите номер отправления Ozon' });
  });

  it('Ozon invalid-argument refusal (400, code 3): refused with its message', async () => {
    const fake = await localServer((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 3, message: 'invalid posting_number format', details: [] }));
    });
    try {
      const error = await carrierError(clientAt(fake.url).getPosting(account, 'abc'));
      expect(error).toMatchObject({ kind: 'refused', message: 'Ozon: invalid posting_number format' });
    } finally {
      await fake.close();
    }
  });
});

describe('when Ozon misbehaves', () => {
  it('the sandbox own budget: over OZON_SANDBOX_RPS, 429; a wait over 5 s is left to the sync', async () => {
    // one request per 100 s: the second call is over budget whatever the machine's speed
    const strict = await startOzonSandbox({ rps: 0.01 });
    try {
      await fetch(`${strict.url}/sandbox/shipments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ number: 'R-1' }),
      });
      const c = clientAt(strict.url);
      await c.getPosting(account, 'R-1');
      const error = await carrierError(c.getPosting(account, 'R-1'));
      expect(error).toMatchObject({ kind: 'rate_limited', retryAfterMs: 100_000 });
      expect(slept).toEqual([]);
    } finally {
      await strict.stop();
    }
  });

  it('a dropped connection is tried once more', async () => {
    let calls = 0;
    const flaky = await localServer((req, res) => {
      calls += 1;
      if (calls === 1) return req.socket.destroy();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ result: { posting_number: 'F-1', status: 'delivered', products: [] } }));
    });
    try {
      expect(await clientAt(flaky.url).getPosting(account, 'F-1')).toMatchObject({
        status: 'delivered',
        weight: null,
      });
      expect(calls).toBe(2);
    } finally {
      await flaky.close();
    }
  });
});

describe('createOzon and the tester page', () => {
  const log = createLogger('test', 'silent');

  it('without OZON_URL starts the sandbox; the page moves a posting on with its button', async () => {
    const setup = await createOzon({ OZON_URL: '' }, log);
    try {
      expect(setup.sandbox).not.toBeNull();
      const url = setup.sandbox!.url;
      await fetch(`${url}/sandbox/shipments`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'number=P-77',
      });
      const page = await (await fetch(url)).text();
      expect(page).toContain('P-77');
      expect(page).toContain('ожидает упаковки');
      expect(page).toContain('следующий статус');
      const pressed = await fetch(`${url}/sandbox/shipments/P-77/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
        redirect: 'manual',
      });
      expect(pressed.status).toBe(303);
      expect(await (await fetch(url)).text()).toContain('ожидает отгрузки');
      expect((await setup.adapter.getPosting(OZON_SANDBOX_ACCOUNT, 'P-77')).status).toBe('awaiting_deliver');
    } finally {
      await setup.sandbox?.stop();
    }
  });

  it('with OZON_URL talks to it and starts nothing', async () => {
    const setup = await createOzon({ OZON_URL: 'https://api-seller.ozon.ru' }, log);
    expect(setup.sandbox).toBeNull();
    expect(setup.adapter.vendor).toBe('ozon');
    expect(setup.adapter.rateLimit.requestsPerSecond).toBe(10);
  });

  it('paces the sync by OZON_RPS: the budget is configuration, not a constant', async () => {
    const setup = await createOzon({ OZON_URL: 'https://api-seller.ozon.ru', OZON_RPS: '25' }, log);
    expect(setup.adapter.rateLimit.requestsPerSecond).toBe(25);
    await expect(
      createOzon({ OZON_URL: 'https://api-seller.ozon.ru', OZON_RPS: '0' }, log),
    ).rejects.toThrow();
  });
});
