import { createLogger } from '@caravan/service-kit';
import { CarrierError } from '../carrier';
import { CDEK_SANDBOX_ACCOUNT, cdekConfig, createCdek, startCdekSandbox, CdekClient } from './index';

const log = createLogger('test', 'silent');

describe('cdekConfig', () => {
  it('defaults to the sandbox on any free local port, 50 rps, a sync budget of 5 rps, 10 s, e-shop orders', () => {
    expect(cdekConfig({ CDEK_URL: '', CDEK_SANDBOX_PORT: '' })).toEqual({
      CDEK_URL: '',
      CDEK_SANDBOX_PORT: 0,
      CDEK_SANDBOX_HOST: '127.0.0.1',
      CDEK_SANDBOX_RPS: 50,
      CDEK_RPS: 5,
      CDEK_TIMEOUT_MS: 10_000,
      CDEK_ORDER_TYPE: 1,
    });
  });
  it('refuses an order type CDEK does not have', () => {
    expect(() => cdekConfig({ CDEK_ORDER_TYPE: '3' })).toThrow();
  });
  it('refuses a sync budget that is not a positive number', () => {
    expect(() => cdekConfig({ CDEK_RPS: '0' })).toThrow();
    expect(() => cdekConfig({ CDEK_RPS: 'много' })).toThrow();
  });
});

describe('createCdek', () => {
  it('uses CDEK itself when CDEK_URL is set, starting no sandbox', async () => {
    const setup = await createCdek({ CDEK_URL: 'https://api.edu.cdek.ru/v2' }, log);
    expect(setup.sandbox).toBeNull();
    expect(setup.adapter).toBeInstanceOf(CdekClient);
    expect(setup.adapter.rateLimit.requestsPerSecond).toBe(5);
  });

  it('paces the sync by CDEK_RPS: the budget is configuration, not a constant', async () => {
    const setup = await createCdek({ CDEK_URL: 'https://api.edu.cdek.ru/v2', CDEK_RPS: '2.5' }, log);
    expect(setup.adapter.rateLimit.requestsPerSecond).toBe(2.5);
  });

  it('starts the sandbox, which takes the sandbox account and refuses any other', async () => {
    const { adapter, sandbox } = await createCdek({}, log);
    try {
      expect(sandbox).not.toBeNull();
      const created = await adapter.createShipment(CDEK_SANDBOX_ACCOUNT, {
        reference: 'demo-1',
        tariff_code: 136,
        recipient: { name: 'Иванов Иван', phone: '+79160000000' },
        delivery_point: 'MSK1',
        from_location: { city: 'Москва', address: 'ул Складочная, д 1' },
        packages: [{ number: '1', weight_grams: 1000, items: [] }],
      });
      expect(created.number).toMatch(/^\d{10}$/);
      const error = await adapter
        .getStatuses({ client_id: CDEK_SANDBOX_ACCOUNT.client_id, access_token: 'other' }, [created.number!])
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CarrierError);
      expect((error as CarrierError).kind).toBe('auth');
    } finally {
      await sandbox?.stop();
    }
  });
});

describe('the sandbox', () => {
  const account = { client_id: 'tester', client_secret: 'tester-secret' };
  const credentials = { client_id: 'tester', access_token: 'tester-secret' };

  it('answers 429 with Retry-After once an account spends its budget', async () => {
    // one request per 1000 s: the second request in a row is over the budget whatever the machine's speed
    const sandbox = await startCdekSandbox({ port: 0, accounts: [account], requestsPerSecond: 0.001 });
    const waits: number[] = [];
    const client = new CdekClient({
      baseUrl: `${sandbox.url}/v2`,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    try {
      expect(await client.getStatuses(credentials, ['1234567890'])).toEqual([]);
      const error = (await client
        .getStatuses(credentials, ['1234567890'])
        .catch((e: unknown) => e)) as CarrierError;
      expect(error.kind).toBe('rate_limited');
      expect(error.retryAfterMs).toBe(1000);
      expect(waits).toEqual([1000]);
    } finally {
      await sandbox.stop();
    }
  });

  it('lets a tester drive a parcel to delivered from its page', async () => {
    const sandbox = await startCdekSandbox({ port: 0, accounts: [account] });
    try {
      const created = (await (
        await fetch(`${sandbox.url}/sandbox/shipments`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ cdek_number: '1000000001', number: 'CO-77' }),
        })
      ).json()) as { uuid: string; status: string };
      expect(created.status).toBe('CREATED');
      const page = await (await fetch(sandbox.url)).text();
      expect(page).toContain('1000000001');
      expect(page).toContain('создан');
      expect(page).toContain(
        `action="/sandbox/shipments/${created.uuid}/advance"><button type="submit">следующий статус</button>`,
      );
      for (let i = 0; i < 8; i++) {
        const press = await fetch(`${sandbox.url}/sandbox/shipments/${created.uuid}/advance`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: '',
          redirect: 'manual',
        });
        expect(press.status).toBe(303);
      }
      const done = await (await fetch(sandbox.url)).text();
      expect(done).toContain('вручён');
      expect(done).not.toContain('<button');
      const client = new CdekClient({ baseUrl: `${sandbox.url}/v2` });
      const [state] = await client.getStatuses(credentials, ['1000000001']);
      expect(state?.statuses.at(-1)?.vendor_status).toBe('DELIVERED');
    } finally {
      await sandbox.stop();
    }
  });

  it('jumps to a status given in the body', async () => {
    const sandbox = await startCdekSandbox({ port: 0, accounts: [account] });
    try {
      await fetch(`${sandbox.url}/sandbox/shipments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ cdek_number: '1000000002' }),
      });
      const res = await fetch(`${sandbox.url}/sandbox/shipments/1000000002/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'NOT_DELIVERED' }),
      });
      expect(((await res.json()) as { status: string }).status).toBe('NOT_DELIVERED');
    } finally {
      await sandbox.stop();
    }
  });
});
