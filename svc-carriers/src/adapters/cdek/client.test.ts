import { CarrierError, type CarrierCredentials, type ShipmentDraft, type WebhookRequest } from '../carrier';
import { carrierError, describeVendorFailures, localServer, type LocalServer } from '../contract.testkit';
import { CdekClient, TOKEN_LEEWAY_MS } from './client';
import { startCdekSandbox, type CdekSandbox } from './sandbox';

/** The real client against the real sandbox server; a local HTTP server stands for our webhook endpoint. */

const ACCOUNT: CarrierCredentials = { client_id: 'operator-a', access_token: 'secret-a' };
const OTHER: CarrierCredentials = { client_id: 'operator-b', access_token: 'secret-b' };

/** Our webhook endpoint: records each request as the service would hand it to verifyWebhook. */
const received: WebhookRequest[] = [];
const answers: number[] = [];
let receiver: LocalServer;
let sandbox: CdekSandbox;
let clock: number;
let waits: number[];
const client = (timeoutMs = 5000, serverUrl = sandbox.url) =>
  new CdekClient({
    baseUrl: `${serverUrl}/v2`,
    timeoutMs,
    now: () => clock,
    sleep: async (ms) => {
      waits.push(ms);
    },
  });

beforeAll(async () => {
  receiver = await localServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://receiver');
      received.push({
        headers: req.headers,
        query: Object.fromEntries(url.searchParams),
        rawBody: Buffer.concat(chunks),
      });
      res.writeHead(answers.shift() ?? 200).end('OK');
    });
  });
  sandbox = await startCdekSandbox({
    port: 0,
    accounts: [
      { client_id: ACCOUNT.client_id, client_secret: ACCOUNT.access_token },
      { client_id: OTHER.client_id, client_secret: OTHER.access_token },
    ],
    requestsPerSecond: 1000,
  });
});
afterAll(async () => {
  await sandbox.stop();
  await receiver.close();
});
beforeEach(() => {
  clock = Date.now();
  waits = [];
  received.length = 0;
  answers.length = 0;
});

const control = async (path: string, body?: unknown) => {
  const res = await fetch(`${sandbox.url}/sandbox/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown> & Array<Record<string, unknown>>;
};
const tokensIssued = async () => (await control('tokens')).issued as number;
const fail = (mode: string, times = 1, extra: Record<string, unknown> = {}) =>
  control('fail', { mode, times, ...extra });

let seq = 0;
const draft = (over: Partial<ShipmentDraft> = {}): ShipmentDraft => ({
  reference: `CO-${Date.now()}-${++seq}`,
  tariff_code: 137,
  recipient: { name: 'Иванова Мария Петровна', phone: '+79161234567', email: 'maria@example.ru' },
  to_location: { city: 'Новосибирск', address: 'Красный пр-кт, д 25, кв 4' },
  from_location: { city: 'Москва', address: 'ул Складочная, д 1, стр 18' },
  packages: [
    {
      number: '1',
      weight_grams: 2400,
      length_cm: 40,
      width_cm: 30,
      height_cm: 20,
      items: [
        {
          name: 'Кроссовки',
          ware_key: 'SKU-1',
          cost: '3500.50',
          amount: 1,
          weight_grams: 1200,
          payment: '0',
        },
      ],
    },
  ],
  ...over,
});

describeVendorFailures({
  name: 'СДЭК',
  account: ACCOUNT,
  newShipment: async () => (await client().createShipment(ACCOUNT, draft())).number!,
  ask: async (number, { credentials = ACCOUNT, serverUrl = sandbox.url, timeoutMs } = {}) =>
    (await client(timeoutMs, serverUrl).getStatuses(credentials, [number]))[0]?.number,
  // a pause other than the default one: the client waits what CDEK asked for
  failNext: (mode, times) => fail(mode, times, mode === '429' ? { retry_after: 2 } : {}),
  waits: () => waits,
  retryAfterMs: 2000,
  words: {
    wrongKey: 'СДЭК: неверный аккаунт или секретный пароль api',
    rateLimited: 'СДЭК: слишком много запросов, повторите через 2 с',
    timeout: 'сервис СДЭК не ответил: нет ответа за 0,2 с',
    serverError: 'сервис СДЭК не ответил: ошибка HTTP 500',
    malformed: 'сервис СДЭК не ответил: непонятный ответ',
    refused: 'сервис СДЭК не ответил: нет связи (ECONNREFUSED)',
  },
});

describe('OAuth', () => {
  it('fetches one token and reuses it across calls of the same account', async () => {
    const cdek = client();
    const before = await tokensIssued();
    const created = await cdek.createShipment(ACCOUNT, draft());
    await cdek.getStatuses(ACCOUNT, [created.uuid]);
    await cdek.getStatuses(ACCOUNT, [created.number!]);
    expect((await tokensIssued()) - before).toBe(1);
  });

  it('fetches a new token 30 s before the old one expires', async () => {
    const cdek = client();
    const created = await cdek.createShipment(ACCOUNT, draft());
    const before = await tokensIssued();
    clock += 3600_000 - TOKEN_LEEWAY_MS - 1000;
    await cdek.getStatuses(ACCOUNT, [created.uuid]);
    expect(await tokensIssued()).toBe(before);
    clock += 2000;
    await cdek.getStatuses(ACCOUNT, [created.uuid]);
    expect(await tokensIssued()).toBe(before + 1);
  });

  it('fetches a new token once when CDEK answers 401 to the cached one, and the call succeeds', async () => {
    const cdek = client();
    const created = await cdek.createShipment(ACCOUNT, draft());
    const before = await tokensIssued();
    await control('tokens/expire', {});
    const [state] = await cdek.getStatuses(ACCOUNT, [created.uuid]);
    expect(state?.uuid).toBe(created.uuid);
    expect(await tokensIssued()).toBe(before + 1);
  });

  it('keeps tokens apart per account: one account never sees another one’s orders', async () => {
    const cdek = client();
    const created = await cdek.createShipment(ACCOUNT, draft());
    expect(await cdek.getStatuses(OTHER, [created.uuid])).toEqual([]);
    expect(await cdek.getStatuses(ACCOUNT, [created.uuid])).toHaveLength(1);
  });
});

describe('orders', () => {
  it('creates an order: uuid, a 10-digit CDEK number, ACCEPTED then CREATED with CDEK’s times as ISO', async () => {
    const d = draft();
    const created = await client().createShipment(ACCOUNT, d);
    expect(created.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.number).toMatch(/^\d{10}$/);
    expect(created.statuses.map((s) => s.vendor_status)).toEqual(['ACCEPTED', 'CREATED']);
    for (const s of created.statuses) expect(s.status_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+03:00$/);
    const stored = (await control('shipments')).find((o) => o.uuid === created.uuid);
    expect(stored?.number).toBe(d.reference);
  });

  it('reads statuses by uuid and by CDEK number alike, oldest first, with the city', async () => {
    const cdek = client();
    const created = await cdek.createShipment(ACCOUNT, draft());
    await control(`shipments/${created.number}/advance`, {});
    await control(`shipments/${created.uuid}/advance`, {});
    const [byUuid] = await cdek.getStatuses(ACCOUNT, [created.uuid]);
    const [byNumber] = await cdek.getStatuses(ACCOUNT, [created.number!]);
    expect(byUuid).toEqual(byNumber);
    expect(byUuid?.number).toBe(created.number);
    expect(byUuid?.statuses.map((s) => s.vendor_status)).toEqual([
      'ACCEPTED',
      'CREATED',
      'RECEIVED_AT_SHIPMENT_WAREHOUSE',
      'READY_TO_SHIP_AT_SENDING_OFFICE',
    ]);
    expect(byUuid?.statuses.at(-1)?.city).toBe('Москва');
    expect(cdek.stageFor('READY_TO_SHIP_AT_SENDING_OFFICE')).toBe('sent_to_door');
  });

  it('leaves out numbers CDEK does not know', async () => {
    expect(await client().getStatuses(ACCOUNT, ['9999999999'])).toEqual([]);
  });

  it('walks a parcel to DELIVERED, which the mapping reads as received by the client', async () => {
    const cdek = client();
    const created = await cdek.createShipment(ACCOUNT, draft());
    for (let i = 0; i < 12; i++) await control(`shipments/${created.number}/advance`, {});
    const [state] = await cdek.getStatuses(ACCOUNT, [created.number!]);
    expect(state?.statuses.at(-1)).toMatchObject({ vendor_status: 'DELIVERED', city: 'Новосибирск' });
    expect(state?.details.delivery_date).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(cdek.stageFor('DELIVERED')).toBe('client_received');
  });

  it('passes CDEK’s own words of a validation error (v2_field_is_empty) as a refusal', async () => {
    const error = await carrierError(
      client().createShipment(ACCOUNT, draft({ recipient: { name: '', phone: '+79161234567' } })),
    );
    expect(error.kind).toBe('refused');
    expect(error.message).toBe('СДЭК: Не заполнено обязательное поле: recipient.name');
  });

  it('refuses a second order with the same number', async () => {
    const cdek = client();
    const d = draft();
    await cdek.createShipment(ACCOUNT, d);
    const error = await carrierError(cdek.createShipment(ACCOUNT, d));
    expect(error.kind).toBe('refused');
    expect(error.message).toBe(`СДЭК: Заказ с номером ${d.reference} уже существует`);
  });
});

describe('failures', () => {
  let number: string;
  beforeAll(async () => {
    number = (await client().createShipment(ACCOUNT, draft())).number!;
  });

  it('never waits longer than 5 s inside one call', async () => {
    const cdek = client();
    await cdek.getStatuses(ACCOUNT, [number]);
    await fail('429', 1, { retry_after: 120 });
    await cdek.getStatuses(ACCOUNT, [number]);
    expect(waits).toEqual([5000]);
  });

  it('keeps an order it created when the follow-up read finds no answer', async () => {
    const cdek = client();
    await cdek.getStatuses(ACCOUNT, [number]);
    await fail('500', 1, { method: 'GET' });
    const created = await cdek.createShipment(ACCOUNT, draft());
    expect(created.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.number).toBeNull();
    expect(created.statuses.map((s) => s.vendor_status)).toEqual(['ACCEPTED']);
    const [later] = await cdek.getStatuses(ACCOUNT, [created.uuid]);
    expect(later?.number).toMatch(/^\d{10}$/);
  });
});

describe('webhooks', () => {
  const SECRET = 'hook-secret-1';

  it('subscribes, then gets one ORDER_STATUS post per status change that verifies to the status', async () => {
    const cdek = client();
    await cdek.subscribeWebhook(OTHER, `${receiver.url}/api/cdek/webhook?token=${SECRET}`);
    const created = await cdek.createShipment(OTHER, draft());
    await control(`shipments/${created.number}/advance`, {});
    const pushed = received.flatMap((r) => cdek.verifyWebhook(r, SECRET));
    expect(pushed.map((p) => p.status.vendor_status)).toEqual([
      'ACCEPTED',
      'CREATED',
      'RECEIVED_AT_SHIPMENT_WAREHOUSE',
    ]);
    expect(pushed.at(-1)).toMatchObject({ number: created.number, uuid: created.uuid });
    expect(pushed.at(-1)?.status.status_at).toMatch(/\+03:00$/);
    const stored = (await control('shipments')).find((o) => o.uuid === created.uuid);
    expect((stored?.webhooks as Array<{ delivered: boolean }>).every((w) => w.delivered)).toBe(true);
  });

  it('posts once and records a failed delivery without retrying', async () => {
    const cdek = client();
    await cdek.subscribeWebhook(OTHER, `${receiver.url}/api/cdek/webhook?token=${SECRET}`);
    const created = (await control('shipments', { account: OTHER.client_id })) as Record<string, unknown>;
    received.length = 0;
    answers.push(500);
    await control(`shipments/${created.cdek_number as string}/advance`, {});
    expect(received).toHaveLength(1);
    const stored = (await control('shipments')).find((o) => o.uuid === created.uuid);
    expect((stored?.webhooks as Array<{ delivered: boolean; error: string }>).at(-1)).toMatchObject({
      delivered: false,
      error: 'HTTP 500',
    });
  });

  const request = (token: string | undefined, body: unknown): WebhookRequest => ({
    headers: { 'content-type': 'application/json' },
    query: token === undefined ? {} : { token },
    rawBody: Buffer.from(JSON.stringify(body)),
  });
  const ORDER_STATUS = {
    type: 'ORDER_STATUS',
    date_time: '2020-08-10T21:32:14+0700',
    uuid: '72753031-2801-4186-a091-0be58cedfee7',
    attributes: {
      is_return: false,
      cdek_number: '1106321645',
      code: 'RECEIVED_AT_SHIPMENT_WAREHOUSE ',
      status_code: '3',
      status_date_time: '2020-08-10T21:32:12+0700',
      city_name: 'Новосибирск',
      city_code: '270',
    },
  };

  it('parses CDEK’s own sample; a replay parses to the same status again', () => {
    const cdek = client();
    const first = cdek.verifyWebhook(request(SECRET, ORDER_STATUS), SECRET);
    expect(first).toEqual([
      {
        number: '1106321645',
        uuid: '72753031-2801-4186-a091-0be58cedfee7',
        status: {
          vendor_status: 'RECEIVED_AT_SHIPMENT_WAREHOUSE',
          status_at: '2020-08-10T21:32:12+07:00',
          city: 'Новосибирск',
        },
      },
    ]);
    expect(cdek.verifyWebhook(request(SECRET, ORDER_STATUS), SECRET)).toEqual(first);
  });

  it.each([
    ['a wrong token', 'hook-secret-2'],
    ['a token one character short', SECRET.slice(0, -1)],
    ['no token', undefined],
  ])('refuses a webhook with %s', (_, token) => {
    let error: unknown;
    try {
      client().verifyWebhook(request(token, ORDER_STATUS), SECRET);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CarrierError);
    expect((error as CarrierError).kind).toBe('refused');
    expect((error as CarrierError).message).toBe('СДЭК: уведомление не прошло проверку');
  });

  it('ignores webhooks of other types', () => {
    const printForm = {
      type: 'PRINT_FORM',
      date_time: '2020-08-10T21:32:14+0700',
      uuid: 'x',
      attributes: {},
    };
    expect(client().verifyWebhook(request(SECRET, printForm), SECRET)).toEqual([]);
  });

  it('refuses a genuine webhook whose body is not CDEK’s', () => {
    const cdek = client();
    const garbled: WebhookRequest = {
      headers: {},
      query: { token: SECRET },
      rawBody: Buffer.from('{"type":'),
    };
    expect(() => cdek.verifyWebhook(garbled, SECRET)).toThrow('СДЭК: непонятное уведомление');
  });
});

describe('a connection dropped before the answer', () => {
  /** A CDEK stand-in that drops the first connection of each API call and answers the second. */
  async function flakyCdek() {
    const seen: string[] = [];
    const server = await localServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      req.resume();
      req.on('end', () => {
        if (path === '/v2/oauth/token') {
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ access_token: 't', token_type: 'bearer', expires_in: 3600 }));
        }
        seen.push(`${req.method} ${path}`);
        if (seen.filter((s) => s === `${req.method} ${path}`).length === 1) return req.socket.destroy();
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            entity: {
              uuid: '72753031-2801-4186-a091-0be58cedfee7',
              cdek_number: '1106321645',
              statuses: [{ code: 'CREATED', name: 'Создан', date_time: '2026-11-24T10:00:00+0300' }],
            },
            requests: [],
          }),
        );
      });
    });
    return { seen, server, cdek: new CdekClient({ baseUrl: `${server.url}/v2` }) };
  }

  it('a status read is tried once more and succeeds', async () => {
    const { seen, server, cdek } = await flakyCdek();
    try {
      const [state] = await cdek.getStatuses(ACCOUNT, ['1106321645']);
      expect(state?.statuses.map((s) => s.vendor_status)).toEqual(['CREATED']);
      expect(seen).toEqual(['GET /v2/orders', 'GET /v2/orders']);
    } finally {
      await server.close();
    }
  });

  it('an order is never sent twice: the drop reaches the user as "не ответил"', async () => {
    const { seen, server, cdek } = await flakyCdek();
    try {
      const error = await carrierError(cdek.createShipment(ACCOUNT, draft()));
      expect(error.kind).toBe('unavailable');
      expect(error.message).toMatch(/^сервис СДЭК не ответил: нет связи \(/);
      expect(seen).toEqual(['POST /v2/orders']);
    } finally {
      await server.close();
    }
  });
});
