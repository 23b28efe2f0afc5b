import { createLogger } from '@caravan/service-kit';
import { CarrierError } from '../carrier';
import { createPec, PEC_SANDBOX_ACCOUNT, pecConfig, PecClient } from './index';

const log = createLogger('pec-test', 'silent');

describe('createPec', () => {
  it('without PEC_URL starts the sandbox: a tester drives a cargo to delivered on its page', async () => {
    const { adapter, sandbox } = await createPec({ PEC_URL: '' }, log);
    try {
      expect(sandbox).not.toBeNull();
      const created = await fetch(`${sandbox!.url}/sandbox/shipments`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
        redirect: 'manual',
      });
      expect(created.status).toBe(303);
      const listed = (await (await fetch(`${sandbox!.url}/sandbox/shipments`)).json()) as {
        shipments: Array<{ number: string; status: string }>;
      };
      const code = listed.shipments[0]!.number;

      let page = await (await fetch(`${sandbox!.url}/`)).text();
      expect(page).toContain('Песочница ПЭК');
      expect(page).toContain(code);
      expect(page).toContain('Принят к перевозке');
      expect(page).toContain('>следующий статус</button>');

      // the button is a plain form post; the browser follows the redirect back to the page
      for (let press = 0; press < 4; press++)
        page = await (
          await fetch(`${sandbox!.url}/sandbox/shipments/${code}/advance`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: '',
          })
        ).text();
      expect(page).toContain('Доставлен получателю');
      expect(page).not.toContain('>следующий статус</button>');

      const [state] = await adapter.getStatuses(PEC_SANDBOX_ACCOUNT, [code]);
      expect(adapter.stageFor(state!.statuses[0]!.vendor_status)).toBe('client_received');

      const wrong = await adapter
        .getStatuses({ client_id: 'someone', access_token: PEC_SANDBOX_ACCOUNT.access_token }, [code])
        .catch((e: unknown) => e);
      expect(wrong).toBeInstanceOf(CarrierError);
      expect((wrong as CarrierError).kind).toBe('auth');
    } finally {
      await sandbox?.stop();
    }
  });

  it('with PEC_URL talks to PEC itself and starts nothing', async () => {
    const { adapter, sandbox } = await createPec({ PEC_URL: 'https://kabinet.pecom.ru/api/v1' }, log);
    expect(sandbox).toBeNull();
    expect(adapter).toBeInstanceOf(PecClient);
    expect(adapter.rateLimit.requestsPerSecond).toBe(5);
    expect(adapter.batchSize).toBe(15);
  });

  it('paces the sync by PEC_RPS: the budget is configuration, not a constant', async () => {
    const { adapter } = await createPec({ PEC_URL: 'https://kabinet.pecom.ru/api/v1', PEC_RPS: '40' }, log);
    expect(adapter.rateLimit.requestsPerSecond).toBe(40);
    expect(() => pecConfig({ PEC_RPS: '-1' })).toThrow();
  });

  it('reads its settings with defaults for empty values', () => {
    expect(pecConfig({ PEC_SANDBOX_PORT: '', PEC_SANDBOX_HOST: '' })).toEqual({
      PEC_URL: '',
      PEC_SANDBOX_PORT: 0,
      PEC_SANDBOX_HOST: '127.0.0.1',
      PEC_SANDBOX_RPS: 50,
      PEC_RPS: 5,
      PEC_TIMEOUT_MS: 10000,
    });
    expect(() => pecConfig({ PEC_URL: 'kabinet' })).toThrow();
  });
});
