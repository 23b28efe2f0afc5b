import { CARRIER_MESSAGES, type TrackedCarrier } from '@caravan/contracts';
import { CarrierError } from './carrier';

/**
 * One HTTP call to a carrier's API with the failure rules every adapter shares (adapters-common): a
 * timeout per call, one retry after a 429 (waiting what Retry-After asks, at most 5 s), one retry after a
 * network error for idempotent reads, and every failure a CarrierError in the user's words. PEC and JDE use
 * it; CDEK, Ozon and 17TRACK take its Retry-After, network-reason and timeout rules.
 */

export type Sleep = (ms: number) => Promise<void>;
export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_RETRY_AFTER_MS = 1000;
/** The client waits out a 429 itself only this long; longer waits are the sync scheduler's business. */
export const MAX_RETRY_WAIT_MS = 5000;

/** The details CARRIER_MESSAGES.noAnswer adds after 'сервис … не ответил: '. */
export const NO_ANSWER_DETAILS = {
  timeout: (ms: number) => `время ожидания истекло (${String(ms / 1000).replace('.', ',')} с)`,
  network: (reason: string) => `нет связи (${reason})`,
  server: (status: number) => `ошибка сервера (HTTP ${status})`,
  malformed: 'непонятный ответ',
  tooManyRequests: 'слишком много запросов, повторите позже',
} as const;

/** Why fetch failed, in a few words: the OS's code (ECONNREFUSED, ECONNRESET…), else the innermost message. */
export function networkReason(error: unknown): string {
  let reason = error instanceof Error ? error.message : String(error);
  let cause: unknown = error;
  for (let depth = 0; cause && typeof cause === 'object' && depth < 5; depth++) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === 'string') return code;
    if (typeof message === 'string' && message) reason = message;
    cause = (cause as { cause?: unknown }).cause;
  }
  return reason;
}

/** Retry-After as seconds or an HTTP date → ms; DEFAULT_RETRY_AFTER_MS when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (!header?.trim()) return DEFAULT_RETRY_AFTER_MS;
  const value = header.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? DEFAULT_RETRY_AFTER_MS : Math.max(0, at - now);
}

/** AbortSignal.timeout rejects with a DOMException named TimeoutError (not always `instanceof Error`). */
export const isTimeout = (error: unknown) => {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
};

export interface VendorCall {
  vendor: TrackedCarrier;
  url: string;
  init: Omit<RequestInit, 'signal'>;
  timeoutMs: number;
  sleep: Sleep;
  /** A read that may be sent twice: retried once after a network error. */
  idempotent: boolean;
  /** The vendor's own words in an error body, if any. */
  vendorMessage(body: unknown): string | null;
}

/** A 2xx answer with a JSON body, or a 4xx (other than 401/403/429) for the adapter to read. */
export interface VendorReply {
  status: number;
  /** undefined when a 4xx body is not JSON */
  body: unknown;
}

function unavailable(vendor: TrackedCarrier, detail: string) {
  return new CarrierError(vendor, 'unavailable', CARRIER_MESSAGES.noAnswer(vendor, detail));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export async function callVendor(call: VendorCall): Promise<VendorReply> {
  const { vendor } = call;
  let retriedNetwork = false;
  let retriedLimit = false;
  for (;;) {
    let res: Response;
    let text: string;
    try {
      res = await fetch(call.url, { ...call.init, signal: AbortSignal.timeout(call.timeoutMs) });
      text = await res.text();
    } catch (error) {
      // a timeout has already spent the caller's budget: no second try here
      if (isTimeout(error)) throw unavailable(vendor, NO_ANSWER_DETAILS.timeout(call.timeoutMs));
      if (call.idempotent && !retriedNetwork) {
        retriedNetwork = true;
        continue;
      }
      throw unavailable(vendor, NO_ANSWER_DETAILS.network(networkReason(error)));
    }
    if (res.status === 429) {
      const wait = retryAfterMs(res.headers.get('retry-after'));
      if (!retriedLimit && wait <= MAX_RETRY_WAIT_MS) {
        retriedLimit = true;
        await call.sleep(wait);
        continue;
      }
      throw new CarrierError(
        vendor,
        'rate_limited',
        CARRIER_MESSAGES.noAnswer(vendor, NO_ANSWER_DETAILS.tooManyRequests),
        wait,
      );
    }
    if (res.status >= 500) throw unavailable(vendor, NO_ANSWER_DETAILS.server(res.status));
    const body = parseJson(text);
    if (res.status === 401 || res.status === 403) {
      const words = call.vendorMessage(body) ?? 'неверные данные доступа к API';
      throw new CarrierError(vendor, 'auth', CARRIER_MESSAGES.refused(vendor, words));
    }
    if (res.ok && body === undefined) throw unavailable(vendor, NO_ANSWER_DETAILS.malformed);
    return { status: res.status, body };
  }
}
