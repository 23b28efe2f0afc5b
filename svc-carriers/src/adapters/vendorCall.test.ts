import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CarrierError } from './carrier';
import { callVendor, retryAfterMs } from './vendorCall';

describe('Retry-After', () => {
  it('reads seconds or an HTTP date, else waits a second', () => {
    const now = Date.parse('2026-11-24T14:40:00Z');
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs('0.5', now)).toBe(500);
    expect(retryAfterMs('Tue, 24 Nov 2026 14:40:07 GMT', now)).toBe(7000);
    expect(retryAfterMs(null, now)).toBe(1000);
    expect(retryAfterMs('скоро', now)).toBe(1000);
  });
});

describe('a vendor asking for a long pause', () => {
  it('is not waited out by the client: rate_limited at once with the pause, for the sync to honour', async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.writeHead(429, { 'retry-after': '30', 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const waits: number[] = [];
    try {
      const error = await callVendor({
        vendor: 'pec',
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
        init: { method: 'GET' },
        timeoutMs: 5000,
        sleep: async (ms) => {
          waits.push(ms);
        },
        idempotent: true,
        vendorMessage: () => null,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CarrierError);
      expect((error as CarrierError).kind).toBe('rate_limited');
      expect((error as CarrierError).retryAfterMs).toBe(30_000);
      expect(waits).toEqual([]);
      expect(requests).toBe(1);
    } finally {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
  });
});
