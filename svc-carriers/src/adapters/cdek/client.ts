import { createHash, timingSafeEqual } from 'node:crypto';
import { CARRIER_MESSAGES, stageForCarrierStatus } from '@caravan/contracts';
import {
  CarrierError,
  type Carrier,
  type CarrierCredentials,
  type CreatedShipment,
  type PushedStatus,
  type ShipmentDraft,
  type ShipmentState,
  type WebhookRequest,
} from '../carrier';
import { MAX_RETRY_WAIT_MS, networkReason, retryAfterMs } from '../vendorCall';
import {
  isoDateTime,
  isUuid,
  orderRequestOf,
  pushedStatusOf,
  shipmentStateOf,
  vendorMessage,
} from './mapping';
import type {
  CdekEntityOperation,
  CdekError,
  CdekOrderInfo,
  CdekOrderType,
  CdekToken,
  CdekWebhookPayload,
} from './types';

export type CdekClientOptions = {
  /** 'https://api.cdek.ru/v2', 'https://api.edu.cdek.ru/v2', or the built-in sandbox's url + '/v2'. */
  baseUrl: string;
  /** How long one HTTP call may take; 10 s. */
  timeoutMs?: number;
  /** 1 = интернет-магазин (default: carries our reference and cash on delivery), 2 = доставка. */
  orderType?: CdekOrderType;
  /** The background sync's budget with CDEK, requests a second (CDEK_RPS); 5. */
  requestsPerSecond?: number;
  /** Injectable clock (token expiry) and pause (429 retry) for tests. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
};

/** The words of our own CDEK failures (the vendor's own messages are passed on as they are). */
export const CDEK_MESSAGES = {
  badCredentials: 'неверный аккаунт или секретный пароль api',
  rateLimited: (seconds: number) =>
    `слишком много запросов, повторите через ${String(seconds).replace('.', ',')} с`,
  timeout: (seconds: number) => `нет ответа за ${String(seconds).replace('.', ',')} с`,
  unreachable: (reason: string) => `нет связи (${reason})`,
  httpError: (status: number) => `ошибка HTTP ${status}`,
  badReply: 'непонятный ответ',
  refusedWithoutReason: 'запрос отклонён без объяснения причины',
  notFound: 'заказ не найден',
  forgedWebhook: 'уведомление не прошло проверку',
  badWebhook: 'непонятное уведомление',
} as const;

/** Refresh a token this long before CDEK says it expires (the Ruby gem `cdek` does the same). */
export const TOKEN_LEEWAY_MS = 30_000;
const NOT_FOUND_CODES = ['v2_entity_not_found', 'v2_order_not_found'];

type Raw = { status: number; body: unknown; malformed: boolean; retryAfterMs: number };
type CachedToken = { secretDigest: string; accessToken: string; expiresAt: number };

/** A failure before any HTTP answer; `timedOut` ones are not retried (the user already waited). */
class NoAnswer extends Error {
  constructor(
    readonly detail: string,
    readonly timedOut: boolean,
  ) {
    super(detail);
  }
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

const asObject = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/** Every error CDEK put in a body: top-level `errors[]` and each `requests[].errors[]`. */
function errorsOf(body: unknown): CdekError[] {
  const reply = asObject(body);
  if (!reply) return [];
  const top = Array.isArray(reply.errors) ? (reply.errors as CdekError[]) : [];
  const requests = Array.isArray(reply.requests) ? (reply.requests as CdekEntityOperation['requests']) : [];
  return [...top, ...(requests ?? []).flatMap((r) => (r && Array.isArray(r.errors) ? r.errors : []))];
}

/**
 * CDEK API v2 over HTTP (vendor-apis §1): OAuth 2.0 client_credentials with a token cached per account,
 * orders, statuses and the ORDER_STATUS webhook. Works against api.cdek.ru, api.edu.cdek.ru and the
 * built-in sandbox alike. Every failure is a CarrierError whose message a user may read.
 */
export class CdekClient implements Carrier {
  readonly vendor = 'cdek' as const;
  readonly batchSize = 1;
  /**
   * CDEK documents no budget (vendor-apis §1 'Rate limits': nothing found); 5 requests a second per
   * account is our guess of a modest one, well under what the public clients send (CDEK_RPS corrects it).
   */
  readonly rateLimit: { requestsPerSecond: number };

  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly orderType: CdekOrderType;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly tokens = new Map<string, CachedToken>();
  private readonly pendingTokens = new Map<string, Promise<CachedToken>>();

  constructor(options: CdekClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.orderType = options.orderType ?? 1;
    this.rateLimit = { requestsPerSecond: options.requestsPerSecond ?? 5 };
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  stageFor(vendorStatus: string) {
    return stageForCarrierStatus('cdek', vendorStatus);
  }

  // ------------------------------------------------------------------------------------------ HTTP

  private async send(method: string, path: string, init: { headers: Record<string, string>; body?: string }) {
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: { accept: 'application/json', ...init.headers },
        body: init.body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await res.text();
    } catch (error) {
      const name = (error as { name?: unknown }).name;
      if (name === 'TimeoutError' || name === 'AbortError')
        throw new NoAnswer(CDEK_MESSAGES.timeout(this.timeoutMs / 1000), true);
      throw new NoAnswer(CDEK_MESSAGES.unreachable(networkReason(error)), false);
    }
    let body: unknown = null;
    let malformed = false;
    if (text.trim()) {
      try {
        body = JSON.parse(text);
      } catch {
        malformed = true;
      }
    }
    return {
      status: res.status,
      body,
      malformed,
      retryAfterMs: retryAfterMs(res.headers.get('retry-after'), this.now()),
    } satisfies Raw;
  }

  /**
   * One call with the client's own short retries: once after a 429 (waiting Retry-After, at most 5 s),
   * once on a connection failure when `idempotent`. `authorize` gives the headers; on a 401 it is asked
   * once more with `fresh` set (a new token).
   */
  private async exchange(
    method: string,
    path: string,
    body: string | undefined,
    options: {
      idempotent: boolean;
      authorize: (fresh: boolean) => Promise<Record<string, string>>;
      refreshOn401: boolean;
    },
  ): Promise<Raw> {
    let headers = await options.authorize(false);
    let refreshed = !options.refreshOn401;
    let waited = false;
    let reconnected = false;
    for (;;) {
      let raw: Raw;
      try {
        raw = await this.send(method, path, { headers, body });
      } catch (error) {
        if (error instanceof NoAnswer && !error.timedOut && options.idempotent && !reconnected) {
          reconnected = true;
          continue;
        }
        if (error instanceof NoAnswer)
          throw new CarrierError('cdek', 'unavailable', CARRIER_MESSAGES.noAnswer('cdek', error.detail));
        throw error;
      }
      if (raw.status === 401 && !refreshed) {
        refreshed = true;
        headers = await options.authorize(true);
        continue;
      }
      if (raw.status === 429 && !waited) {
        waited = true;
        await this.sleep(Math.min(raw.retryAfterMs, MAX_RETRY_WAIT_MS));
        continue;
      }
      return raw;
    }
  }

  /** A non-2xx answer, or a 2xx one that is not JSON, as the CarrierError it means. */
  private failure(raw: Raw, authWords: string): CarrierError {
    const own = vendorMessage(errorsOf(raw.body));
    if (raw.status === 429) {
      const message = CARRIER_MESSAGES.refused('cdek', CDEK_MESSAGES.rateLimited(raw.retryAfterMs / 1000));
      return new CarrierError('cdek', 'rate_limited', message, raw.retryAfterMs);
    }
    if (raw.status === 401 || raw.status === 403)
      return new CarrierError('cdek', 'auth', CARRIER_MESSAGES.refused('cdek', own || authWords));
    if (raw.status >= 500 || raw.malformed || (raw.status < 300 && !asObject(raw.body))) {
      const detail =
        raw.status >= 500 ? CDEK_MESSAGES.httpError(raw.status) : raw.malformed ? CDEK_MESSAGES.badReply : '';
      return new CarrierError(
        'cdek',
        'unavailable',
        CARRIER_MESSAGES.noAnswer('cdek', detail || CDEK_MESSAGES.badReply),
      );
    }
    const notFound = raw.status === 404 || errorsOf(raw.body).some((e) => NOT_FOUND_CODES.includes(e.code));
    if (notFound)
      return new CarrierError(
        'cdek',
        'not_found',
        CARRIER_MESSAGES.refused('cdek', own || CDEK_MESSAGES.notFound),
      );
    return new CarrierError(
      'cdek',
      'refused',
      CARRIER_MESSAGES.refused('cdek', own || CDEK_MESSAGES.refusedWithoutReason),
    );
  }

  // ------------------------------------------------------------------------------------------ OAuth

  /** A bearer token of the account: cached until 30 s before it expires, fetched once for concurrent calls. */
  private async token(credentials: CarrierCredentials, fresh: boolean): Promise<string> {
    const digest = sha256(credentials.access_token).toString('hex');
    const cached = this.tokens.get(credentials.client_id);
    if (!fresh && cached && cached.secretDigest === digest && this.now() < cached.expiresAt - TOKEN_LEEWAY_MS)
      return cached.accessToken;
    const key = `${credentials.client_id}\u0000${digest}`;
    let pending = this.pendingTokens.get(key);
    if (!pending) {
      this.tokens.delete(credentials.client_id);
      pending = this.fetchToken(credentials, digest).finally(() => this.pendingTokens.delete(key));
      this.pendingTokens.set(key, pending);
    }
    const token = await pending;
    this.tokens.set(credentials.client_id, token);
    return token.accessToken;
  }

  /** POST /v2/oauth/token, the form body CDEK's docs and clients send (the secret stays out of URLs). */
  private async fetchToken(credentials: CarrierCredentials, secretDigest: string): Promise<CachedToken> {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: credentials.client_id,
      client_secret: credentials.access_token,
    });
    const raw = await this.exchange('POST', '/oauth/token?parameters', form.toString(), {
      idempotent: true,
      refreshOn401: false,
      authorize: async () => ({ 'content-type': 'application/x-www-form-urlencoded' }),
    });
    // CDEK answers wrong credentials 401 invalid_client; a 400 (unsupported grant, no client_id) means the same to us
    const isAuthFailure = raw.status === 401 || raw.status === 403 || (raw.status === 400 && !raw.malformed);
    if (isAuthFailure)
      throw new CarrierError('cdek', 'auth', CARRIER_MESSAGES.refused('cdek', CDEK_MESSAGES.badCredentials));
    if (raw.status < 200 || raw.status >= 300) throw this.failure(raw, CDEK_MESSAGES.badCredentials);
    const reply = asObject(raw.body) as Partial<CdekToken> | null;
    if (!reply || typeof reply.access_token !== 'string' || !reply.access_token)
      throw new CarrierError(
        'cdek',
        'unavailable',
        CARRIER_MESSAGES.noAnswer('cdek', CDEK_MESSAGES.badReply),
      );
    const lifetimeS = typeof reply.expires_in === 'number' && reply.expires_in > 0 ? reply.expires_in : 3600;
    return { secretDigest, accessToken: reply.access_token, expiresAt: this.now() + lifetimeS * 1000 };
  }

  /** A JSON call of the API with the account's bearer token; the 2xx body, or the CarrierError it means. */
  private async call(
    credentials: CarrierCredentials,
    method: 'GET' | 'POST',
    path: string,
    payload?: unknown,
  ): Promise<Record<string, unknown>> {
    const raw = await this.exchange(
      method,
      path,
      payload === undefined ? undefined : JSON.stringify(payload),
      {
        idempotent: method === 'GET',
        refreshOn401: true,
        authorize: async (fresh) => ({
          authorization: `Bearer ${await this.token(credentials, fresh)}`,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        }),
      },
    );
    const body = asObject(raw.body);
    if (raw.status >= 200 && raw.status < 300 && !raw.malformed && body) return body;
    throw this.failure(raw, CDEK_MESSAGES.badCredentials);
  }

  /** Requests CDEK marked INVALID (validation it did after answering 2xx) as a refusal in its words. */
  private refuseInvalid(reply: { requests?: CdekEntityOperation['requests'] }) {
    const invalid = (reply.requests ?? []).filter((r) => r?.state === 'INVALID');
    if (!invalid.length) return;
    const errors = invalid.flatMap((r) => r.errors ?? []);
    if (errors.some((e) => NOT_FOUND_CODES.includes(e.code)))
      throw new CarrierError('cdek', 'not_found', CARRIER_MESSAGES.refused('cdek', vendorMessage(errors)));
    throw new CarrierError(
      'cdek',
      'refused',
      CARRIER_MESSAGES.refused('cdek', vendorMessage(errors) || CDEK_MESSAGES.refusedWithoutReason),
    );
  }

  // ------------------------------------------------------------------------------------------ Carrier

  /** GET /v2/orders/{uuid} or GET /v2/orders?cdek_number=…; null when CDEK does not know the order. */
  async getOrder(credentials: CarrierCredentials, number: string): Promise<CdekOrderInfo | null> {
    const asked = number.trim();
    const path = isUuid(asked)
      ? `/orders/${encodeURIComponent(asked)}`
      : `/orders?cdek_number=${encodeURIComponent(asked)}`;
    try {
      const reply = (await this.call(credentials, 'GET', path)) as CdekOrderInfo;
      if (!reply.entity?.uuid) this.refuseInvalid(reply);
      if (!reply.entity?.uuid)
        throw new CarrierError(
          'cdek',
          'unavailable',
          CARRIER_MESSAGES.noAnswer('cdek', CDEK_MESSAGES.badReply),
        );
      return reply;
    } catch (error) {
      if (error instanceof CarrierError && error.kind === 'not_found') return null;
      throw error;
    }
  }

  async getStatuses(credentials: CarrierCredentials, numbers: readonly string[]): Promise<ShipmentState[]> {
    const states: ShipmentState[] = [];
    for (const number of numbers) {
      const info = await this.getOrder(credentials, number);
      if (info?.entity) states.push(shipmentStateOf(info.entity, number.trim()));
    }
    return states;
  }

  /**
   * POST /v2/orders, then one GET for the CDEK number and statuses (registration is asynchronous). When
   * that GET finds no answer the order still exists: it is returned with the ACCEPTED of the request.
   */
  async createShipment(credentials: CarrierCredentials, draft: ShipmentDraft): Promise<CreatedShipment> {
    const reply = (await this.call(
      credentials,
      'POST',
      '/orders',
      orderRequestOf(draft, this.orderType),
    )) as CdekEntityOperation;
    this.refuseInvalid(reply);
    const uuid = reply.entity?.uuid;
    if (!uuid)
      throw new CarrierError(
        'cdek',
        'unavailable',
        CARRIER_MESSAGES.noAnswer('cdek', CDEK_MESSAGES.badReply),
      );
    const accepted: CreatedShipment = {
      uuid,
      number: null,
      statuses: (reply.requests ?? [])
        .filter((r) => r.type === 'CREATE' && r.date_time)
        .slice(0, 1)
        .map((r) => ({ vendor_status: 'ACCEPTED', status_at: isoDateTime(r.date_time), city: null })),
    };
    let info: CdekOrderInfo | null;
    try {
      info = await this.getOrder(credentials, uuid);
    } catch (error) {
      if (error instanceof CarrierError && error.retryable) return accepted;
      throw error;
    }
    if (!info?.entity) return accepted;
    this.refuseInvalid({ requests: (info.requests ?? []).filter((r) => r.type === 'CREATE') });
    const state = shipmentStateOf(info.entity, uuid);
    return {
      uuid,
      number: info.entity.cdek_number || null,
      statuses: state.statuses.length ? state.statuses : accepted.statuses,
    };
  }

  /**
   * POST /v2/webhooks {url, type: ORDER_STATUS}: CDEK posts every status change of the account's orders
   * to `url` (a second subscription replaces the first). Put the webhook secret in the URL's `token`.
   */
  async subscribeWebhook(credentials: CarrierCredentials, url: string): Promise<{ uuid: string }> {
    const reply = (await this.call(credentials, 'POST', '/webhooks', {
      url,
      type: 'ORDER_STATUS',
    })) as CdekEntityOperation;
    this.refuseInvalid(reply);
    if (!reply.entity?.uuid)
      throw new CarrierError(
        'cdek',
        'unavailable',
        CARRIER_MESSAGES.noAnswer('cdek', CDEK_MESSAGES.badReply),
      );
    return { uuid: reply.entity.uuid };
  }

  /**
   * CDEK signs nothing: the webhook is ours when its `token` query parameter is the secret we subscribed
   * with (compared in constant time). An ORDER_STATUS body gives one status; other types give none. A
   * replay parses to the same status again: dropping repeats is the sync's job.
   */
  verifyWebhook(request: WebhookRequest, secret: string): PushedStatus[] {
    const token = request.query.token ?? '';
    if (!secret || !token || !timingSafeEqual(sha256(token), sha256(secret)))
      throw new CarrierError(
        'cdek',
        'refused',
        CARRIER_MESSAGES.refused('cdek', CDEK_MESSAGES.forgedWebhook),
      );
    let payload: CdekWebhookPayload | null;
    try {
      payload = asObject(JSON.parse(request.rawBody.toString('utf8'))) as CdekWebhookPayload | null;
    } catch {
      payload = null;
    }
    if (!payload || typeof payload.type !== 'string')
      throw new CarrierError('cdek', 'refused', CARRIER_MESSAGES.refused('cdek', CDEK_MESSAGES.badWebhook));
    if (payload.type !== 'ORDER_STATUS') return [];
    const pushed = pushedStatusOf(payload);
    if (!pushed)
      throw new CarrierError('cdek', 'refused', CARRIER_MESSAGES.refused('cdek', CDEK_MESSAGES.badWebhook));
    return [pushed];
  }
}
