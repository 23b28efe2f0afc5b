import { carrierError, describeVendorFailures, localServer, sandboxCall } from '../contract.testkit';
import type { RunningSandbox } from '../sandboxKit';
import { PecClient } from './client';
import { PEC_SANDBOX_ACCOUNT, PEC_SANDBOX_SEQUENCE, startPecSandbox } from './sandbox';

/** The real PEC client against the real sandbox server; small local servers where PEC misbehaves. */

let clock = new Date('2026-11-24T14:40:05Z');
let sandbox: RunningSandbox;
let waits: number[];
const sleep = async (ms: number) => {
  waits.push(ms);
};
const client = (over: { baseUrl?: string; timeoutMs?: number } = {}) =>
  new PecClient({ baseUrl: `${sandbox.url}/api/v1`, sleep, now: () => clock, ...over });

beforeAll(async () => {
  sandbox = await startPecSandbox({ port: 0, now: () => clock });
});
afterAll(() => sandbox.stop());
beforeEach(() => {
  waits = [];
});

const control = (path: string, body?: unknown) => sandboxCall(sandbox.url, path, body);
const newCargo = async (number?: string) =>
  (await control('/sandbox/shipments', number ? { number } : {})).body.number as string;
const failNext = (mode: string, times = 1) => control('/sandbox/fail', { mode, times });

describeVendorFailures({
  name: 'ПЭК',
  account: PEC_SANDBOX_ACCOUNT,
  newShipment: () => newCargo(),
  ask: async (code, { credentials = PEC_SANDBOX_ACCOUNT, serverUrl = sandbox.url, timeoutMs } = {}) =>
    (await client({ baseUrl: `${serverUrl}/api/v1`, timeoutMs }).getStatuses(credentials, [code]))[0]?.number,
  failNext,
  waits: () => waits,
  retryAfterMs: 1000,
  words: {
    wrongKey: 'ПЭК: Неверный логин или ключ API',
    rateLimited: 'сервис ПЭК не ответил: слишком много запросов, повторите позже',
    timeout: 'сервис ПЭК не ответил: время ожидания истекло (0,2 с)',
    serverError: 'сервис ПЭК не ответил: ошибка сервера (HTTP 500)',
    malformed: 'сервис ПЭК не ответил: непонятный ответ',
    refused: 'сервис ПЭК не ответил: нет связи (ECONNREFUSED)',
  },
});

describe('PEC status through the sandbox', () => {
  it('follows a cargo from acceptance to the door, with the facts /api/pec_order_get shows', async () => {
    clock = new Date('2026-11-24T14:40:05Z');
    const code = await newCargo();
    expect(code).toMatch(/^\d{12}$/);
    const pec = client();

    const [accepted] = await pec.getStatuses(PEC_SANDBOX_ACCOUNT, [code]);
    expect(accepted!.number).toBe(code);
    expect(accepted!.statuses).toEqual([
      { vendor_status: 'Принят к перевозке', status_at: '2026-11-24T17:40:05+03:00', city: null },
    ]);
    expect(pec.stageFor('Принят к перевозке')).toBe('sent_to_door');

    const seen = ['Принят к перевозке'];
    for (let step = 1; step < PEC_SANDBOX_SEQUENCE.length; step++) {
      clock = new Date(clock.getTime() + 3600_000);
      await control(`/sandbox/shipments/${code}/advance`, {});
      const [state] = await pec.getStatuses(PEC_SANDBOX_ACCOUNT, [code]);
      seen.push(state!.statuses[0]!.vendor_status);
    }
    expect(seen).toEqual([...PEC_SANDBOX_SEQUENCE]);

    const [delivered] = await pec.getStatuses(PEC_SANDBOX_ACCOUNT, [code]);
    expect(pec.stageFor(delivered!.statuses[0]!.vendor_status)).toBe('client_received');
    // the sandbox's clock read 18:40:05 UTC at hand-over: PEC writes 21:40:05 without a zone
    expect(delivered!.statuses[0]!.status_at).toBe('2026-11-24T21:40:05+03:00');
    expect(Date.parse(delivered!.statuses[0]!.status_at)).toBe(clock.getTime());
    expect(delivered!.details).toEqual({
      cargoStatus: 'Доставлен получателю',
      receivedByClientDateTime: '2026-11-24T21:40:05+03:00',
      deliveryPlanDate: '2026-11-28',
      services_sum: `${1200 + Number(code.slice(-3))}.50`,
    });

    // a delivered cargo goes no further
    expect((await control(`/sandbox/shipments/${code}/advance`, {})).status).toBe(409);
  });

  it('asks about 31 codes in 3 calls of at most 15, and leaves out the codes PEC does not know', async () => {
    const known = await Promise.all(Array.from({ length: 30 }, () => newCargo()));
    const unknown = '000000000001';
    const calls: string[][] = [];
    const proxy = await localServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString('utf8')));
      req.on('end', () => {
        calls.push((JSON.parse(text) as { cargoCodes: string[] }).cargoCodes);
        void fetch(`${sandbox.url}${req.url}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: req.headers.authorization ?? '' },
          body: text,
        }).then(async (answer) => {
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
        });
      });
    });
    try {
      const states = await client({ baseUrl: `${proxy.url}/api/v1` }).getStatuses(PEC_SANDBOX_ACCOUNT, [
        ...known,
        unknown,
      ]);
      expect(calls.map((c) => c.length)).toEqual([15, 15, 1]);
      expect(states.map((s) => s.number).sort()).toEqual([...known].sort());
    } finally {
      await proxy.close();
    }
  });

  it('asks nothing for no codes', async () => {
    expect(await client({ baseUrl: 'http://127.0.0.1:9' }).getStatuses(PEC_SANDBOX_ACCOUNT, [])).toEqual([]);
  });

  it('the sandbox refuses more than 15 codes in one call with PEC error envelope', async () => {
    const auth = `Basic ${Buffer.from(`${PEC_SANDBOX_ACCOUNT.client_id}:${PEC_SANDBOX_ACCOUNT.access_token}`).toString('base64')}`;
    const res = await fetch(`${sandbox.url}/api/v1/cargos/status/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: auth },
      body: JSON.stringify({ cargoCodes: Array.from({ length: 16 }, (_, i) => String(100000000000 + i)) }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: { fields: [{ message: 'Количество кодов грузов не должно превышать 15' }] },
    });
  });
});

describe('PEC failures reach the user in Russian', () => {
  it('a 400 of PEC is refused with its own message and fields', async () => {
    const fake = await localServer((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          error: {
            title: 'Bad Request',
            message: 'Ошибка валидации',
            fields: [{ field: 'cargoCodes', message: 'Неверный формат кода груза' }],
          },
        }),
      );
    });
    try {
      const error = await carrierError(
        client({ baseUrl: fake.url }).getStatuses(PEC_SANDBOX_ACCOUNT, ['12']),
      );
      expect(error.kind).toBe('refused');
      expect(error.message).toBe('ПЭК: Ошибка валидации; Неверный формат кода груза');
    } finally {
      await fake.close();
    }
  });

  it('a dropped connection is tried once more', async () => {
    let requests = 0;
    const flaky = await localServer((req, res) => {
      requests++;
      if (requests === 1) return req.socket.destroy();
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({ cargos: [{ cargo: { code: '123456789012' }, info: { cargoStatus: 'В пути' } }] }),
        );
    });
    try {
      const states = await client({ baseUrl: flaky.url }).getStatuses(PEC_SANDBOX_ACCOUNT, ['123456789012']);
      expect(states.map((s) => s.statuses[0]!.vendor_status)).toEqual(['В пути']);
      expect(requests).toBe(2);
    } finally {
      await flaky.close();
    }
  });
});
