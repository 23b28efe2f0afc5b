import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CarrierError, type CarrierCredentials } from './carrier';
import type { FailureMode } from './sandboxKit';

/**
 * What the adapters' client tests share (adapters-common): a small local server for a vendor that
 * misbehaves in a way no sandbox does, a sandbox's control call, the CarrierError a call ends in, and the
 * table of failures every vendor client answers by the same rules (vendorCall), each asked through the
 * vendor's own sandbox and its failure injection.
 */

export type LocalServer = { url: string; close(): Promise<void> };

/** A local HTTP server standing for a vendor (or for our webhook endpoint). */
export async function localServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<LocalServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A sandbox's control call (/sandbox/…): POST with a JSON body, GET without one; its status and JSON. */
export async function sandboxCall(sandboxUrl: string, path: string, body?: unknown) {
  const res = await fetch(`${sandboxUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The CarrierError `call` ends in; anything else (an answer, another error) fails the test. */
export async function carrierError(call: Promise<unknown> | (() => unknown)): Promise<CarrierError> {
  try {
    await (typeof call === 'function' ? call() : call);
  } catch (error) {
    if (error instanceof CarrierError) return error;
    throw error;
  }
  throw new Error('expected a CarrierError, the call succeeded');
}

/** A vendor's client and sandbox as the shared failure table asks them. */
export interface VendorContract {
  /** The vendor in the tests' titles: 'ПЭК'. */
  name: string;
  /** The sandbox's account. */
  account: CarrierCredentials;
  /** A shipment (cargo, waybill, posting…) the sandbox now knows: its number. */
  newShipment(): Promise<string>;
  /**
   * One call about `number` by a new client as `credentials` (the sandbox's account when not given),
   * at `serverUrl` (the sandbox when not given) with `timeoutMs`: the number the answer names.
   */
  ask(
    number: string,
    options?: { credentials?: CarrierCredentials; serverUrl?: string; timeoutMs?: number },
  ): Promise<string | null | undefined>;
  /** The sandbox fails the next `times` calls as `mode` says. */
  failNext(mode: FailureMode, times: number): Promise<unknown>;
  /** What the clients waited since the test began (their sleep). */
  waits(): number[];
  /** The pause the sandbox's 429 asks for, ms. */
  retryAfterMs: number;
  /** What the user reads. */
  words: {
    wrongKey: string;
    /** A second 429 in a row. */
    rateLimited: string;
    /** No answer within 200 ms. */
    timeout: string;
    serverError: string;
    malformed: string;
    /** Nobody listening at the vendor's address. */
    refused: string;
  };
}

const TIMEOUT_MS = 200;

/** The failures every vendor client answers alike, each asked through the vendor's sandbox. */
export function describeVendorFailures(vendor: VendorContract) {
  describe(`${vendor.name}: the failures every vendor answers alike`, () => {
    it('a wrong key: auth in the vendor words, never the key, not retried', async () => {
      const number = await vendor.newShipment();
      const credentials = { ...vendor.account, access_token: 'stolen-key-123' };
      const error = await carrierError(vendor.ask(number, { credentials }));
      expect(error).toMatchObject({ kind: 'auth', retryable: false, message: vendor.words.wrongKey });
      expect(error.message).not.toContain('stolen-key-123');
    });

    it('one 429: waits the Retry-After, asks again and has the answer', async () => {
      const number = await vendor.newShipment();
      await vendor.failNext('429', 1);
      expect(await vendor.ask(number)).toBe(number);
      expect(vendor.waits()).toEqual([vendor.retryAfterMs]);
    });

    it('a second 429 in a row: rate_limited with the pause the vendor asked for', async () => {
      const number = await vendor.newShipment();
      await vendor.failNext('429', 2);
      const error = await carrierError(vendor.ask(number));
      expect(error).toMatchObject({
        kind: 'rate_limited',
        retryAfterMs: vendor.retryAfterMs,
        retryable: true,
      });
      if (vendor.words.rateLimited) expect(error.message).toBe(vendor.words.rateLimited);
      expect(vendor.waits()).toEqual([vendor.retryAfterMs]);
    });

    it('no answer in time: unavailable', async () => {
      const number = await vendor.newShipment();
      await vendor.failNext('timeout', 1);
      const error = await carrierError(vendor.ask(number, { timeoutMs: TIMEOUT_MS }));
      expect(error).toMatchObject({ kind: 'unavailable', retryable: true, message: vendor.words.timeout });
    });

    it('a 500: unavailable', async () => {
      const number = await vendor.newShipment();
      await vendor.failNext('500', 1);
      const error = await carrierError(vendor.ask(number));
      expect(error).toMatchObject({ kind: 'unavailable', message: vendor.words.serverError });
    });

    it('a malformed body: unavailable', async () => {
      const number = await vendor.newShipment();
      await vendor.failNext('malformed', 1);
      const error = await carrierError(vendor.ask(number));
      expect(error).toMatchObject({ kind: 'unavailable', message: vendor.words.malformed });
    });

    it('nobody listening: unavailable with the reason', async () => {
      const closed = await localServer(() => undefined);
      await closed.close();
      const error = await carrierError(vendor.ask('1234567890', { serverUrl: closed.url }));
      expect(error).toMatchObject({ kind: 'unavailable', message: vendor.words.refused });
    });
  });
}
