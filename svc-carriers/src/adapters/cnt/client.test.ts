import type { IncomingMessage } from 'node:http';
import { createLogger } from '@caravan/service-kit';
import type { TrackedWaybill, WebhookRequest } from '../carrier';
import {
  carrierError,
  describeVendorFailures,
  localServer,
  sandboxCall,
  type LocalServer,
} from '../contract.testkit';
import { CntClient, cntSign } from './client';
import { createCnt } from './index';
import { CNT_SANDBOX_ACCOUNT, startCntSandbox, type CntSandbox } from './sandbox';

/** The real client against the real sandbox server; a local HTTP server stands for our webhook endpoint. */

const account = CNT_SANDBOX_ACCOUNT;
let sandbox: CntSandbox;
let client: CntClient;
let slept: number[];
let clock: Date;

const bodyOf = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });

/** Our webhook endpoint: keeps every push as the service would receive it. */
const pushes: WebhookRequest[] = [];
let receiver: LocalServer;

const control = (path: string, body: unknown = {}) => sandboxCall(sandbox.url, `/sandbox/${path}`, body);

const clientAt = (baseUrl: string, timeoutMs = 10_000) =>
  new CntClient({
    baseUrl,
    timeoutMs,
    sleep: async (ms) => {
      slept.push(ms);
    },
  });

beforeAll(async () => {
  receiver = await localServer((req, res) => {
    void bodyOf(req).then((rawBody) => {
      pushes.push({ headers: req.headers, query: {}, rawBody });
      res.writeHead(200).end('ok');
    });
  });
  clock = new Date('2026-11-20T01:00:00Z');
  sandbox = await startCntSandbox({ now: () => clock, pushUrl: `${receiver.url}/api/cnt/push` });
});
afterAll(async () => {
  await sandbox.stop();
  await receiver.close();
});
beforeEach(() => {
  slept = [];
  pushes.length = 0;
  client = clientAt(`${sandbox.url}/track/v2.2`);
});

let registered = 0;
describeVendorFailures({
  name: '17TRACK',
  account,
  newShipment: async () => {
    const number = `CT${String(++registered).padStart(11, '0')}`;
    await control('shipments', { number, tag: 'guangzhou-1' });
    return number;
  },
  ask: async (number, { credentials = account, serverUrl = sandbox.url, timeoutMs } = {}) =>
    (await clientAt(`${serverUrl}/track/v2.2`, timeoutMs).get(credentials, number))?.waybill,
  failNext: (mode, times) => control('fail', { mode, times }),
  waits: () => slept,
  retryAfterMs: 1000,
  words: {
    wrongKey: 'сервис отслеживания посылок не принял ключ api (17token): Invalid access key.',
    rateLimited: 'сервис отслеживания посылок: слишком много запросов, повторите через 1 с',
    timeout: 'сервис отслеживания посылок не ответил: нет ответа за 0,2 с',
    serverError: 'сервис отслеживания посылок не ответил: ошибка HTTP 500',
    malformed: 'сервис отслеживания посылок не ответил: непонятный ответ',
    refused: 'сервис отслеживания посылок не ответил: нет связи (ECONNREFUSED)',
  },
});

describe('registering waybills', () => {
  it('registers the long ones with the warehouse tag and reads their first event, in China time', async () => {
    const result = await client.register(account, [
      { waybill: ' YT2411200000001 ', tag: 'guangzhou-1' },
      { waybill: 'SF1234567890', tag: 'yiwu-2' },
    ]);
    expect(result).toEqual({ accepted: ['YT2411200000001', 'SF1234567890'], rejected: [] });

    const tracked = await client.get(account, 'yt2411200000001');
    expect(tracked).toEqual({
      waybill: 'YT2411200000001',
      status: 'InfoReceived',
      tag: 'guangzhou-1',
      events: [
        {
          at: '2026-11-20T09:00:00+08:00',
          text: 'Shipping information received, awaiting pickup',
          city: 'Shenzhen',
        },
      ],
    });
  });

  it('numbers of 10 characters or fewer are not sent; 17TRACK refusals come in its words', async () => {
    const result = await client.register(account, [
      { waybill: '1234567890', tag: 'guangzhou-1' },
      { waybill: 'BAD_NUMBER_WITH_UNDERSCORE', tag: 'guangzhou-1' },
    ]);
    expect(result.accepted).toEqual([]);
    expect(result.rejected).toEqual([
      {
        waybill: '1234567890',
        message: 'накладная 1234567890 не отслеживается: номер должен быть длиннее 10 символов',
      },
      {
        waybill: 'BAD_NUMBER_WITH_UNDERSCORE',
        message:
          "сервис отслеживания посылок отклонил накладную: The format of 'BAD_NUMBER_WITH_UNDERSCORE' is invalid.",
      },
    ]);
    const listed = (await (await fetch(`${sandbox.url}/sandbox/shipments`)).json()) as Array<{
      number: string;
    }>;
    expect(listed.map((w) => w.number)).not.toContain('1234567890');
  });

  it('a waybill 17TRACK already tracks counts as accepted', async () => {
    await client.register(account, [{ waybill: 'YT2411200000002', tag: 'guangzhou-1' }]);
    expect(await client.register(account, [{ waybill: 'YT2411200000002', tag: 'guangzhou-1' }])).toEqual({
      accepted: ['YT2411200000002'],
      rejected: [],
    });
  });

  it('41 waybills go in two calls: 40 and 1', async () => {
    const calls: number[] = [];
    const fake = await localServer((req, res) => {
      void bodyOf(req).then((raw) => {
        const items = JSON.parse(raw.toString()) as Array<{ number: string }>;
        calls.push(items.length);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            code: 0,
            data: { accepted: items.map((i) => ({ number: i.number })), rejected: [] },
          }),
        );
      });
    });
    try {
      const waybills = Array.from({ length: 41 }, (_, i) => ({
        waybill: `YT90000000${String(i).padStart(3, '0')}`,
        tag: 'guangzhou-1',
      }));
      const result = await clientAt(fake.url).register(account, waybills);
      expect(calls).toEqual([40, 1]);
      expect(result.accepted).toHaveLength(41);
    } finally {
      await fake.close();
    }
  });

  it('an unregistered waybill reads as null', async () => {
    expect(await client.get(account, 'ZZ0000000000000')).toBeNull();
  });
});

describe('a parcel on its way to the consolidation warehouse, pushed at every move', () => {
  it('InfoReceived → InTransit through Shenzhen and Guangzhou → arrived in the tag city → Delivered', async () => {
    await client.register(account, [{ waybill: 'JT3000000000001', tag: 'foshan-3' }]);
    const seen: TrackedWaybill[] = [];
    for (let step = 1; step <= 5; step++) {
      clock = new Date(clock.getTime() + 3600_000);
      const moved = await control('shipments/JT3000000000001/advance');
      expect(moved.body.push).toEqual({ delivered: true, status: 200 });
      seen.push(client.verifyPush(pushes.at(-1)!, account));
    }
    expect(pushes).toHaveLength(5);
    expect(seen.map((w) => w.status)).toEqual([
      'InTransit',
      'InTransit',
      'InTransit',
      'InTransit',
      'Delivered',
    ]);
    const arrived = seen[3]!.events[0]!;
    expect(arrived).toMatchObject({
      text: 'Arrived at consolidation warehouse city: Foshan',
      city: 'Foshan',
    });
    const last = seen[4]!;
    expect(last.tag).toBe('foshan-3');
    expect(last.events.map((e) => e.city)).toEqual([
      'Foshan',
      'Foshan',
      'Guangzhou',
      'Shenzhen',
      'Shenzhen',
      'Shenzhen',
    ]);
    expect(await client.get(account, 'JT3000000000001')).toEqual(last);
    expect((await control('shipments/JT3000000000001/advance')).status).toBe(409);
  });

  it('a jump to a given status adds the events on the way and pushes once', async () => {
    await client.register(account, [{ waybill: 'JT3000000000002', tag: 'guangzhou-1' }]);
    await control('shipments/JT3000000000002/advance', { status: 'Delivered' });
    expect(pushes).toHaveLength(1);
    const pushed = client.verifyPush(pushes[0]!, account);
    expect(pushed.status).toBe('Delivered');
    expect(pushed.events).toHaveLength(6);
  });
});

describe('verifying a push', () => {
  let genuine: WebhookRequest;
  beforeAll(async () => {
    pushes.length = 0;
    await client.register(account, [{ waybill: 'JT3000000000003', tag: 'yiwu' }]);
    await control('shipments/JT3000000000003/advance');
    genuine = pushes[0]!;
  });

  it('a replay parses to the same state again (telling repeats apart is the sync job)', () => {
    expect(client.verifyPush(genuine, account)).toEqual(client.verifyPush(genuine, account));
  });

  it('signed with another key: refused', async () => {
    const raw = genuine.rawBody;
    const forged = { ...genuine, headers: { ...genuine.headers, sign: cntSign(raw, 'someone-else-key') } };
    const error = await carrierError(() => client.verifyPush(forged, account));
    expect(error).toMatchObject({
      kind: 'refused',
      message: 'уведомление сервиса отслеживания посылок не прошло проверку подписи',
    });
  });

  it('a body altered after signing: refused', async () => {
    const altered = Buffer.from(genuine.rawBody.toString().replace('"InTransit"', '"Delivered"'));
    expect(altered.equals(genuine.rawBody)).toBe(false);
    const error = await carrierError(() => client.verifyPush({ ...genuine, rawBody: altered }, account));
    expect(error.kind).toBe('refused');
  });

  it('no sign header: refused', async () => {
    const error = await carrierError(() => client.verifyPush({ ...genuine, headers: {} }, account));
    expect(error.kind).toBe('refused');
  });

  it('a genuine push of another event: refused with its name', async () => {
    const raw = Buffer.from(
      JSON.stringify({ event: 'TRACKING_STOPPED', data: { number: 'JT3000000000003' } }),
    );
    const error = await carrierError(() =>
      client.verifyPush(
        { headers: { sign: cntSign(raw, account.access_token) }, query: {}, rawBody: raw },
        account,
      ),
    );
    expect(error.message).toContain('TRACKING_STOPPED');
  });
});

describe('when 17TRACK misbehaves', () => {
  const number = 'YT2411200000001';

  it('429 twice on registering: rate_limited with the wait', async () => {
    await control('fail', { mode: '429', times: 2 });
    const error = await carrierError(client.register(account, [{ waybill: 'YT2411200000009', tag: 'x' }]));
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterMs: 1000 });
    expect(slept).toEqual([1000]);
  });

  it('a whole call 17TRACK refuses (code ≠ 0): refused with its words', async () => {
    const fake = await localServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          code: -18010012,
          data: { errors: [{ code: -18010012, message: 'The data format is invalid.' }] },
        }),
      );
    });
    try {
      const error = await carrierError(clientAt(fake.url).get(account, number));
      expect(error).toMatchObject({
        kind: 'refused',
        message: 'сервис отслеживания посылок отказал: The data format is invalid.',
      });
    } finally {
      await fake.close();
    }
  });

  it('the sandbox refuses more than 40 numbers in one call, as 17TRACK does', async () => {
    const res = await fetch(`${sandbox.url}/track/v2.2/register`, {
      method: 'POST',
      headers: { '17token': account.access_token, 'content-type': 'application/json' },
      body: JSON.stringify(Array.from({ length: 41 }, (_, i) => ({ number: `YT8000000000${i}` }))),
    });
    expect(await res.json()).toMatchObject({ code: -18010014 });
  });
});

describe('createCnt and the tester page', () => {
  const log = createLogger('test', 'silent');

  it('without CNT_URL starts the sandbox pushing to CNT_SANDBOX_PUSH_URL; its page moves a waybill on', async () => {
    const setup = await createCnt({ CNT_URL: '', CNT_SANDBOX_PUSH_URL: `${receiver.url}/push` }, log);
    try {
      const url = setup.sandbox!.url;
      await fetch(`${url}/sandbox/shipments`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'number=YT5550000000001&tag=guangzhou-1',
      });
      const page = await (await fetch(url)).text();
      expect(page).toContain('YT5550000000001');
      expect(page).toContain('продавец оформил отправку');
      expect(page).toContain('следующий статус');
      const pressed = await fetch(`${url}/sandbox/shipments/YT5550000000001/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
        redirect: 'manual',
      });
      expect(pressed.status).toBe(303);
      expect(await (await fetch(url)).text()).toContain('в пути по Китаю');
      expect(pushes).toHaveLength(1);
      expect(setup.adapter.verifyPush(pushes[0]!, CNT_SANDBOX_ACCOUNT).status).toBe('InTransit');
    } finally {
      await setup.sandbox?.stop();
    }
  });

  it('with CNT_URL talks to it and starts nothing', async () => {
    const setup = await createCnt({ CNT_URL: 'https://api.17track.net/track/v2.2' }, log);
    expect(setup.sandbox).toBeNull();
  });
});
