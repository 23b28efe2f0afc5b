import { createLogger } from '@caravan/service-kit';
import { CarrierError } from '../carrier';
import { createJde, JDE_SANDBOX_ACCOUNT, jdeConfig, JdeClient } from './index';

const log = createLogger('jde-test', 'silent');

describe('createJde', () => {
  it('without JDE_URL starts the sandbox: a tester drives a waybill to delivered on its page', async () => {
    const { adapter, sandbox } = await createJde({ JDE_URL: '' }, log);
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
      expect(page).toContain('Песочница ЖелДорЭкспедиция');
      expect(page).toContain(code);
      expect(page).toContain('заявка принята');
      expect(page).toContain('>следующий статус</button>');

      // the button is a plain form post; the browser follows the redirect back to the page
      for (let press = 0; press < 5; press++)
        page = await (
          await fetch(`${sandbox!.url}/sandbox/shipments/${code}/advance`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: '',
          })
        ).text();
      expect(page).toContain('>доставлен<');
      expect(page).not.toContain('>следующий статус</button>');

      const [state] = await adapter.getStatuses(JDE_SANDBOX_ACCOUNT, [code]);
      expect(adapter.stageFor(state!.statuses[0]!.vendor_status)).toBe('client_received');

      const wrong = await adapter
        .getStatuses({ client_id: 'someone', access_token: JDE_SANDBOX_ACCOUNT.access_token }, [code])
        .catch((e: unknown) => e);
      expect(wrong).toBeInstanceOf(CarrierError);
      expect((wrong as CarrierError).kind).toBe('auth');
    } finally {
      await sandbox?.stop();
    }
  });

  it('with JDE_URL talks to JDE itself and starts nothing', async () => {
    const { adapter, sandbox } = await createJde({ JDE_URL: 'https://api.jde.ru/vD' }, log);
    expect(sandbox).toBeNull();
    expect(adapter).toBeInstanceOf(JdeClient);
    expect(adapter.rateLimit.requestsPerSecond).toBe(5);
    expect(adapter.batchSize).toBe(1);
  });

  it('paces the sync by JDE_RPS: the budget is configuration, not a constant', async () => {
    const { adapter } = await createJde({ JDE_URL: 'https://api.jde.ru/vD', JDE_RPS: '40' }, log);
    expect(adapter.rateLimit.requestsPerSecond).toBe(40);
    expect(() => jdeConfig({ JDE_RPS: '-1' })).toThrow();
  });

  it('reads its settings with defaults for empty values', () => {
    expect(jdeConfig({ JDE_SANDBOX_PORT: '', JDE_SANDBOX_HOST: '' })).toEqual({
      JDE_URL: '',
      JDE_SANDBOX_PORT: 0,
      JDE_SANDBOX_HOST: '127.0.0.1',
      JDE_SANDBOX_RPS: 50,
      JDE_RPS: 5,
      JDE_TIMEOUT_MS: 10000,
    });
    expect(() => jdeConfig({ JDE_URL: 'jde' })).toThrow();
  });
});
