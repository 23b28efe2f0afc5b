import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createLogger } from '@caravan/service-kit';
import {
  acquirerConfig,
  assertFitForProduction,
  createAcquirer,
  SANDBOX_MERCHANT,
  SANDBOX_SECRET,
} from './index';

const capture = () => {
  const lines: string[] = [];
  const log = createLogger(
    'test',
    'info',
    new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    }),
  );
  return { log, lines };
};

describe('acquirerConfig', () => {
  it('defaults to the sandbox: no URL, the sandbox shop, test mode, any port on 127.0.0.1', () => {
    const config = acquirerConfig({ MODULBANK_MERCHANT: '', ACQUIRER_SANDBOX_PORT: '' });
    expect(config).toMatchObject({
      MODULBANK_URL: '',
      MODULBANK_MERCHANT: SANDBOX_MERCHANT,
      MODULBANK_SECRET: SANDBOX_SECRET,
      MODULBANK_TESTING: '1',
      ACQUIRER_SANDBOX_PORT: 0,
      ACQUIRER_SANDBOX_HOST: '127.0.0.1',
    });
  });

  it('takes a real bank and refuses what is not a URL or a port', () => {
    expect(
      acquirerConfig({
        MODULBANK_URL: 'https://pay.modulbank.ru',
        MODULBANK_TESTING: '0',
        ACQUIRER_SANDBOX_PORT: '8091',
      }),
    ).toMatchObject({
      MODULBANK_URL: 'https://pay.modulbank.ru',
      MODULBANK_TESTING: '0',
      ACQUIRER_SANDBOX_PORT: 8091,
    });
    expect(() => acquirerConfig({ MODULBANK_URL: 'pay.modulbank.ru' })).toThrow();
    expect(() => acquirerConfig({ ACQUIRER_SANDBOX_PORT: 'eighty' })).toThrow();
  });
});

describe('createAcquirer', () => {
  it('without MODULBANK_URL starts the sandbox, says so once, and the client pays through it', async () => {
    const { log, lines } = capture();
    const { acquirer, sandbox } = await createAcquirer(acquirerConfig({}), log);
    try {
      expect(sandbox?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(lines.filter((l) => l.includes('built-in sandbox acquirer'))).toHaveLength(1);

      let form: Record<string, string> = {};
      const receiver = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c));
        req.on('end', () => {
          form = Object.fromEntries(new URLSearchParams(body));
          res.end('OK');
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const { port } = receiver.address() as AddressInfo;
      try {
        const { url } = await acquirer.createBill({
          orderId: '7',
          amount: '10.10',
          description: 'Пополнение',
          callbackUrl: `http://127.0.0.1:${port}/cb`,
          testing: false,
        });
        await fetch(`${url}/complete`, { method: 'POST' });
        expect(acquirer.verifyCallback(form)).toMatchObject({
          orderId: '7',
          amount: '10.10',
          state: 'COMPLETE',
          testing: true,
        });
      } finally {
        receiver.closeAllConnections();
        await new Promise((resolve) => receiver.close(resolve));
      }
    } finally {
      await sandbox?.stop();
    }
  });

  it('with MODULBANK_URL talks to that bank and starts no sandbox', async () => {
    const { log } = capture();
    const { acquirer, sandbox } = await createAcquirer(
      acquirerConfig({ MODULBANK_URL: 'http://127.0.0.1:9', MODULBANK_MERCHANT: 'm', MODULBANK_SECRET: 's' }),
      log,
    );
    expect(sandbox).toBeNull();
    await expect(
      acquirer.createSbpPayment({
        orderId: '1',
        amount: '1',
        description: 'x',
        callbackUrl: 'http://x/cb',
        testing: true,
      }),
    ).rejects.toThrow('нет связи с банком');
  });
});

describe('assertFitForProduction', () => {
  it('refuses the sandbox, its secret and test mode under NODE_ENV=production; anything goes elsewhere', () => {
    expect(() => assertFitForProduction(acquirerConfig({}), 'production')).toThrow(
      'acquirer not fit for production: MODULBANK_URL is not set (the sandbox bank would take payments); MODULBANK_SECRET is the sandbox one; MODULBANK_TESTING=1 (test mode)',
    );
    const real = acquirerConfig({
      MODULBANK_URL: 'https://pay.modulbank.ru',
      MODULBANK_SECRET: 'real-secret',
      MODULBANK_TESTING: '0',
    });
    expect(() => assertFitForProduction(real, 'production')).not.toThrow();
    expect(() => assertFitForProduction(acquirerConfig({}), 'development')).not.toThrow();
  });
});
