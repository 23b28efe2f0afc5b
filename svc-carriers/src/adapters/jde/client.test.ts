import { carrierError, describeVendorFailures, localServer, sandboxCall } from '../contract.testkit';
import type { RunningSandbox } from '../sandboxKit';
import { JdeClient } from './client';
import { JDE_SANDBOX_ACCOUNT, JDE_SANDBOX_SEQUENCE, startJdeSandbox } from './sandbox';

/** The real JDE client against the real sandbox server; small local servers where JDE misbehaves. */

let clock = new Date('2026-11-24T14:40:05Z');
let sandbox: RunningSandbox;
let waits: number[];
const sleep = async (ms: number) => {
  waits.push(ms);
};
const client = (over: { baseUrl?: string; timeoutMs?: number } = {}) =>
  new JdeClient({ baseUrl: `${sandbox.url}/vD`, sleep, now: () => clock, ...over });

beforeAll(async () => {
  sandbox = await startJdeSandbox({ port: 0, now: () => clock });
});
afterAll(() => sandbox.stop());
beforeEach(() => {
  waits = [];
});

const control = (path: string, body?: unknown) => sandboxCall(sandbox.url, path, body);
const newWaybill = async (number?: string) =>
  (await control('/sandbox/shipments', number ? { number } : {})).body.number as string;
const failNext = (mode: string, times = 1) => control('/sandbox/fail', { mode, times });

describeVendorFailures({
  name: 'ЖелДор',
  account: JDE_SANDBOX_ACCOUNT,
  newShipment: () => newWaybill(),
  ask: async (ttn, { credentials = JDE_SANDBOX_ACCOUNT, serverUrl = sandbox.url, timeoutMs } = {}) =>
    (await client({ baseUrl: `${serverUrl}/vD`, timeoutMs }).getStatuses(credentials, [ttn]))[0]?.number,
  failNext,
  waits: () => waits,
  retryAfterMs: 1000,
  words: {
    wrongKey: 'ЖелДор: Неверный пользователь или токен',
    rateLimited: 'сервис ЖелДор не ответил: слишком много запросов, повторите позже',
    timeout: 'сервис ЖелДор не ответил: время ожидания истекло (0,2 с)',
    serverError: 'сервис ЖелДор не ответил: ошибка сервера (HTTP 500)',
    malformed: 'сервис ЖелДор не ответил: непонятный ответ',
    refused: 'сервис ЖелДор не ответил: нет связи (ECONNREFUSED)',
  },
});

describe('JDE status through the sandbox', () => {
  it('follows a waybill from the new order to delivered, with the day /api/jde_order_get shows', async () => {
    clock = new Date('2026-11-24T14:40:05Z');
    const ttn = await newWaybill();
    expect(ttn).toMatch(/^\d{16}$/);
    const jde = client();

    const [first] = await jde.getStatuses(JDE_SANDBOX_ACCOUNT, [ttn]);
    expect(first!.number).toBe(ttn);
    expect(first!.statuses).toEqual([
      { vendor_status: 'NewOrderByClient', status_at: '2026-11-24T17:40:05+03:00', city: null },
    ]);
    expect(jde.stageFor('NewOrderByClient')).toBe('sent_to_door');

    const seen = ['NewOrderByClient'];
    for (let step = 1; step < JDE_SANDBOX_SEQUENCE.length; step++) {
      // 14:40 UTC + 2 h a step: the last one is 00:40 on the 25th in UTC, 03:40 in Moscow
      clock = new Date(clock.getTime() + 2 * 3600_000);
      await control(`/sandbox/shipments/${ttn}/advance`, {});
      const [state] = await jde.getStatuses(JDE_SANDBOX_ACCOUNT, [ttn]);
      seen.push(state!.statuses[0]!.vendor_status);
    }
    expect(seen).toEqual([...JDE_SANDBOX_SEQUENCE]);

    const [delivered] = await jde.getStatuses(JDE_SANDBOX_ACCOUNT, [ttn]);
    expect(jde.stageFor('Delivered')).toBe('client_received');
    expect(delivered!.statuses[0]!.status_at).toBe('2026-11-25T03:40:05+03:00');
    expect(Date.parse(delivered!.statuses[0]!.status_at)).toBe(clock.getTime());
    expect(delivered!.details).toMatchObject({
      status: 'Delivered',
      date: '25.11.2026',
      date_raw: '2026-11-25 03:40:05',
    });
  });

  it('an unknown waybill asked alone is not found, in Russian', async () => {
    const error = await carrierError(client().getStatuses(JDE_SANDBOX_ACCOUNT, ['1111222233334444']));
    expect(error.kind).toBe('not_found');
    expect(error.message).toBe('ЖелДор: груз 1111222233334444 не найден');
    expect(error.retryable).toBe(false);
  });

  it('asked about several, leaves the unknown ones out', async () => {
    const ttn = await newWaybill('1234567890123456789');
    const states = await client().getStatuses(JDE_SANDBOX_ACCOUNT, ['1111222233334444', ttn]);
    expect(states.map((s) => s.number)).toEqual([ttn]);
  });

  it('a jump to a problem status shows that status', async () => {
    const ttn = await newWaybill();
    await control(`/sandbox/shipments/${ttn}/advance`, { status: 'Problem' });
    const [state] = await client().getStatuses(JDE_SANDBOX_ACCOUNT, [ttn]);
    expect(state!.statuses[0]!.vendor_status).toBe('Problem');
    expect(client().stageFor('Problem')).toBeNull();
  });
});

describe('JDE failures reach the user in Russian', () => {
  it('an error JDE words itself is refused with those words', async () => {
    const fake = await localServer((_req, res) => {
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'Не указан номер накладной (ttn)' }));
    });
    try {
      const error = await carrierError(client({ baseUrl: fake.url }).getStatuses(JDE_SANDBOX_ACCOUNT, ['1']));
      expect(error.kind).toBe('refused');
      expect(error.message).toBe('ЖелДор: Не указан номер накладной (ttn)');
    } finally {
      await fake.close();
    }
  });

  it('never puts the token in what a user reads', async () => {
    const token = 'secret-token-123';
    const error = await carrierError(
      client().getStatuses({ client_id: 'someone', access_token: token }, ['1111222233334444']),
    );
    expect(error.message).not.toContain(token);
  });
});
