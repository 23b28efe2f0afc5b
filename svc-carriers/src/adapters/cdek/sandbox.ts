import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CDEK_STATUS_TEXT, isCdekStatus } from '@caravan/contracts';
import type { Logger } from '@caravan/service-kit';
import {
  escapeHtml,
  readBody,
  SandboxError,
  startHttpSandbox,
  TokenBucket,
  type FailureMode,
  type RunningSandbox,
} from '../sandboxKit';
import { cdekDateTime } from './mapping';
import type {
  CdekError,
  CdekOrder,
  CdekOrderRequest,
  CdekRequest,
  CdekStatusEntry,
  CdekWebhookPayload,
  CdekWebhookSubscription,
} from './types';

/**
 * The built-in CDEK sandbox (ARCHITECTURE §9): a small HTTP server speaking CDEK API v2 (vendor-apis §1)
 * under /v2 — OAuth client_credentials, POST/GET /v2/orders, GET /v2/orders?cdek_number=|im_number=,
 * POST/GET /v2/webhooks — with CDEK's error envelopes, a per-account rate limit answering 429 +
 * Retry-After, and ORDER_STATUS webhooks posted once (15 s, no retry, like CDEK) on every status change.
 * Control endpoints under /sandbox/ drive parcels and inject failures; GET / is a page for testers.
 * Orders live in memory until the process stops.
 */
export type CdekSandboxAccount = { client_id: string; client_secret: string };

export type CdekSandboxOptions = {
  /** 127.0.0.1 */
  host?: string;
  /** 0 = any free port */
  port: number;
  /** The accounts whose credentials the OAuth endpoint accepts. */
  accounts: readonly CdekSandboxAccount[];
  /** Requests a second each account may make (token bucket, burst of as many); 50. */
  requestsPerSecond?: number;
  /** Token lifetime, seconds; 3600 like CDEK. */
  tokenLifetimeSeconds?: number;
  /** How long a webhook post may take; 15 s like CDEK. */
  webhookTimeoutMs?: number;
  /** The sandbox clock (status times). */
  now?: () => Date;
  log?: Logger;
};

export type CdekSandbox = RunningSandbox;

/** The walk 'следующий статус' takes, after ACCEPTED and CREATED (the brief's realistic sequence). */
export const CDEK_SANDBOX_SEQUENCE = [
  'ACCEPTED',
  'CREATED',
  'RECEIVED_AT_SHIPMENT_WAREHOUSE',
  'READY_TO_SHIP_AT_SENDING_OFFICE',
  'TAKEN_BY_TRANSPORTER_FROM_SENDER_CITY',
  'SENT_TO_RECIPIENT_CITY',
  'ACCEPTED_IN_RECIPIENT_CITY',
  'ACCEPTED_AT_RECIPIENT_CITY_WAREHOUSE',
  'TAKEN_BY_COURIER',
  'DELIVERED',
] as const;
/** Statuses that happen in the recipient's city (the others in the sender's). */
const IN_RECIPIENT_CITY = new Set([
  'ACCEPTED_IN_RECIPIENT_CITY',
  'ACCEPTED_AT_RECIPIENT_CITY_WAREHOUSE',
  'ACCEPTED_AT_PICK_UP_POINT',
  'TAKEN_BY_COURIER',
  'DELIVERED',
  'NOT_DELIVERED',
  'RETURNED_TO_RECIPIENT_CITY_WAREHOUSE',
  'POSTOMAT_POSTED',
  'POSTOMAT_RECEIVED',
]);
const DEFAULT_SENDER_CITY = 'Москва';
const DEFAULT_RECIPIENT_CITY = 'Москва';

type WebhookDelivery = { code: string; url: string; delivered: boolean; error: string | null; at: string };

type SandboxOrder = {
  account: string;
  uuid: string;
  cdek_number: string;
  request: Partial<CdekOrderRequest>;
  /** Oldest first here; the API answers newest first, as CDEK does. */
  statuses: CdekStatusEntry[];
  createRequest: CdekRequest;
  webhooks: WebhookDelivery[];
  /** The webhook posts in the order the statuses happened; control endpoints wait for them. */
  notifying: Promise<void>;
};

/** CDEK's words for its error codes (77695227); the sandbox answers in Russian as CDEK's API does. */
const SANDBOX_ERRORS = {
  fieldEmpty: (field: string) => ({
    code: 'v2_field_is_empty',
    message: `Не заполнено обязательное поле: ${field}`,
  }),
  invalidValue: (field: string) => ({
    code: 'v2_invalid_value_type',
    message: `Неверное значение поля: ${field}`,
  }),
  duplicateNumber: (number: string) => ({
    code: 'error_validate_im_dep_number_has_already_had_integration',
    message: `Заказ с номером ${number} уже существует`,
  }),
  notFound: { code: 'v2_entity_not_found', message: 'Заказ не найден' },
  badRequest: { code: 'v2_bad_request', message: 'Некорректный запрос' },
  internal: { code: 'v2_internal_error', message: 'Внутренняя ошибка сервиса' },
  tooMany: { code: 'v2_too_many_requests', message: 'Слишком много запросов' },
  unknownMethod: { code: 'v2_bad_request', message: 'Метод не найден' },
} satisfies Record<string, CdekError | ((v: string) => CdekError)>;

class HttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}`);
  }
}

const MAX_BODY = 256 * 1024;

/** A JSON body, or a form body (the tester page's buttons post forms). */
function parseBody(text: string, contentType: string | undefined): Record<string, unknown> {
  if (!text.trim()) return {};
  if (contentType?.includes('application/x-www-form-urlencoded'))
    return Object.fromEntries(new URLSearchParams(text));
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    /* answered below */
  }
  throw new HttpFailure(400, { errors: [{ code: 'v2_invalid_format', message: 'Неверный формат JSON' }] });
}

const isHttpUrl = (value: unknown) => {
  try {
    return typeof value === 'string' && ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

const invalid = (errors: CdekError[], now: string): CdekRequest => ({
  request_uuid: randomUUID(),
  type: 'CREATE',
  date_time: now,
  state: 'INVALID',
  errors,
});

/** The checks CDEK makes of POST /v2/orders that our drafts can fail. */
function orderErrors(body: Record<string, unknown>, numberTaken: (n: string) => boolean): CdekError[] {
  const errors: CdekError[] = [];
  const recipient = body.recipient as Record<string, unknown> | undefined;
  if (body.tariff_code === undefined || body.tariff_code === null || body.tariff_code === '')
    errors.push(SANDBOX_ERRORS.fieldEmpty('tariff_code'));
  else if (!Number.isInteger(body.tariff_code)) errors.push(SANDBOX_ERRORS.invalidValue('tariff_code'));
  if (body.type !== undefined && body.type !== 1 && body.type !== 2)
    errors.push(SANDBOX_ERRORS.invalidValue('type'));
  if (!recipient || typeof recipient.name !== 'string' || !recipient.name.trim())
    errors.push(SANDBOX_ERRORS.fieldEmpty('recipient.name'));
  if (!body.delivery_point && !(body.to_location as { address?: string } | undefined)?.address)
    errors.push(SANDBOX_ERRORS.fieldEmpty('to_location'));
  const packages = Array.isArray(body.packages) ? (body.packages as Array<Record<string, unknown>>) : [];
  if (!packages.length) errors.push(SANDBOX_ERRORS.fieldEmpty('packages'));
  packages.forEach((p, i) => {
    if (!p.number) errors.push(SANDBOX_ERRORS.fieldEmpty(`packages[${i}].number`));
    if (!Number.isInteger(p.weight) || (p.weight as number) <= 0)
      errors.push(SANDBOX_ERRORS.fieldEmpty(`packages[${i}].weight`));
  });
  const eshop = (body.type ?? 1) === 1;
  if (eshop && typeof body.number === 'string' && body.number && numberTaken(body.number))
    errors.push(SANDBOX_ERRORS.duplicateNumber(body.number));
  return errors;
}

/** Starts the sandbox; `url` is its root (the API is under `${url}/v2`, the tester page at `${url}/`). */
export async function startCdekSandbox(options: CdekSandboxOptions): Promise<CdekSandbox> {
  const host = options.host ?? '127.0.0.1';
  const rps = options.requestsPerSecond ?? 50;
  const tokenLifetimeS = options.tokenLifetimeSeconds ?? 3600;
  const webhookTimeoutMs = options.webhookTimeoutMs ?? 15_000;
  const clock = options.now ?? (() => new Date());
  const log = options.log;
  const secrets = new Map(options.accounts.map((a) => [a.client_id, a.client_secret]));
  const tokens = new Map<string, { account: string; expiresAt: number }>();
  let tokensIssued = 0;
  const bucket = new TokenBucket(rps);
  const orders = new Map<string, SandboxOrder>();
  const webhooks = new Map<string, CdekWebhookSubscription & { uuid: string }>();
  /** Which account subscribed each webhook. */
  const webhookAccount = new Map<string, string>();
  /** Injected failures, each for the next API request (of `method` when given; OAuth is never failed). */
  const failures: Array<{ mode: FailureMode; retryAfter: string; method: string | null }> = [];
  const takeFailure = (method: string) => {
    const at = failures.findIndex((f) => f.method === null || f.method === method);
    return at < 0 ? undefined : failures.splice(at, 1)[0];
  };
  const now = () => cdekDateTime(clock());

  // ---------------------------------------------------------------------------------------- helpers

  const send = (res: ServerResponse, status: number, type: string, body: string, headers = {}) => {
    res.writeHead(status, {
      'content-type': `${type}; charset=utf-8`,
      'cache-control': 'no-store',
      ...headers,
    });
    res.end(body);
  };
  const json = (res: ServerResponse, status: number, body: unknown, headers = {}) =>
    send(res, status, 'application/json', JSON.stringify(body), headers);

  /** Within the account's budget: `rps` a second, a burst of as many (at least one). */
  const allowed = (account: string) => bucket.take(account) === 0;

  function account(req: IncomingMessage): string {
    const header = req.headers.authorization ?? '';
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? '';
    const known = tokens.get(token);
    if (!known || known.expiresAt <= Date.now()) {
      throw new HttpFailure(401, {
        error: 'invalid_token',
        error_description: token ? 'Access token expired or invalid' : 'Full authentication is required',
      });
    }
    return known.account;
  }

  function issueToken(params: Record<string, unknown>) {
    if (params.grant_type !== 'client_credentials')
      throw new HttpFailure(400, {
        error: 'unsupported_grant_type',
        error_description: 'Unsupported grant type',
      });
    const id = String(params.client_id ?? '');
    const secret = secrets.get(id);
    if (secret === undefined || secret !== params.client_secret)
      throw new HttpFailure(401, { error: 'invalid_client', error_description: 'Bad client credentials' });
    const accessToken = randomBytes(32).toString('base64url');
    tokensIssued++;
    tokens.set(accessToken, { account: id, expiresAt: Date.now() + tokenLifetimeS * 1000 });
    return {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: tokenLifetimeS,
      scope: 'order:all payment:all',
      jti: randomUUID(),
    };
  }

  const cdekNumber = () => {
    for (;;) {
      const n = String(1_000_000_000 + Math.floor(Math.random() * 9_000_000_000));
      if (![...orders.values()].some((o) => o.cdek_number === n)) return n;
    }
  };

  const cityOf = (order: SandboxOrder, code: string) =>
    IN_RECIPIENT_CITY.has(code)
      ? (order.request.to_location?.city ?? DEFAULT_RECIPIENT_CITY)
      : (order.request.from_location?.city ?? DEFAULT_SENDER_CITY);

  const findOrder = (number: string) =>
    orders.get(number) ??
    [...orders.values()].find((o) => o.cdek_number === number || o.request.number === number);

  function entityOf(order: SandboxOrder): CdekOrder {
    const last = order.statuses.at(-1)?.code;
    return {
      uuid: order.uuid,
      type: order.request.type ?? 1,
      cdek_number: order.cdek_number,
      ...(order.request.number ? { number: order.request.number } : {}),
      tariff_code: order.request.tariff_code,
      ...(order.request.delivery_point ? { delivery_point: order.request.delivery_point } : {}),
      ...(order.request.from_location ? { from_location: order.request.from_location } : {}),
      ...(order.request.to_location ? { to_location: order.request.to_location } : {}),
      ...(order.request.recipient ? { recipient: order.request.recipient } : {}),
      packages: order.request.packages ?? [],
      statuses: [...order.statuses].reverse(),
      ...(last === 'DELIVERED' ? { delivery_date: order.statuses.at(-1)!.date_time.slice(0, 10) } : {}),
    };
  }

  /** One post of the ORDER_STATUS webhook to the account's subscription, as CDEK does: once, no retry. */
  async function notify(order: SandboxOrder, status: CdekStatusEntry) {
    const subscription = [...webhooks.values()].find(
      (w) => w.type === 'ORDER_STATUS' && webhookAccount.get(w.uuid) === order.account,
    );
    if (!subscription) return;
    const payload: CdekWebhookPayload = {
      type: 'ORDER_STATUS',
      date_time: now(),
      uuid: order.uuid,
      attributes: {
        is_return: false,
        cdek_number: order.cdek_number,
        ...(order.request.number ? { number: order.request.number } : {}),
        code: status.code,
        status_date_time: status.date_time,
        city_name: status.city,
      },
    };
    const delivery: WebhookDelivery = {
      code: status.code,
      url: subscription.url,
      delivered: false,
      error: null,
      at: payload.date_time,
    };
    order.webhooks.push(delivery);
    try {
      const res = await fetch(subscription.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(webhookTimeoutMs),
      });
      await res.arrayBuffer().catch(() => undefined);
      delivery.delivered = res.status === 200;
      if (!delivery.delivered) delivery.error = `HTTP ${res.status}`;
    } catch (error) {
      const e = error as { name?: string; message?: string; cause?: { code?: string } };
      delivery.error = e.name === 'TimeoutError' ? 'timeout' : (e.cause?.code ?? e.message ?? 'error');
    }
    log?.info(
      { uuid: order.uuid, code: status.code, delivered: delivery.delivered },
      'cdek sandbox: webhook posted',
    );
  }

  /**
   * Adds a status and queues its webhook behind the earlier ones. The API answers without waiting (CDEK
   * posts later); the control endpoints wait for `order.notifying`, so a press or a test sees the result.
   */
  function addStatus(order: SandboxOrder, code: string) {
    const text = isCdekStatus(code) ? CDEK_STATUS_TEXT[code].label : code;
    const entry: CdekStatusEntry = { code, name: text, date_time: now(), city: cityOf(order, code) };
    order.statuses.push(entry);
    order.notifying = order.notifying.then(() => notify(order, entry));
  }

  function createOrder(accountId: string, request: Partial<CdekOrderRequest>, number?: string) {
    const order: SandboxOrder = {
      account: accountId,
      uuid: randomUUID(),
      cdek_number: number ?? cdekNumber(),
      request,
      statuses: [],
      createRequest: { request_uuid: randomUUID(), type: 'CREATE', date_time: now(), state: 'ACCEPTED' },
      webhooks: [],
      notifying: Promise.resolve(),
    };
    orders.set(order.uuid, order);
    addStatus(order, 'ACCEPTED');
    addStatus(order, 'CREATED');
    order.createRequest = { ...order.createRequest, state: 'SUCCESSFUL' };
    log?.info({ uuid: order.uuid, cdek_number: order.cdek_number }, 'cdek sandbox: order created');
    return order;
  }

  /** The next status of the walk, or `status` when given; an order already delivered stays. */
  function advance(order: SandboxOrder, status?: string) {
    const current = order.statuses.at(-1)?.code ?? '';
    if (status) {
      if (!isCdekStatus(status))
        throw new HttpFailure(400, { errors: [SANDBOX_ERRORS.invalidValue('status')] });
      if (status !== current) addStatus(order, status);
      return;
    }
    const at = (CDEK_SANDBOX_SEQUENCE as readonly string[]).indexOf(current);
    const next = CDEK_SANDBOX_SEQUENCE[at + 1];
    if (at >= 0 && next) addStatus(order, next);
  }

  const summary = (order: SandboxOrder) => ({
    account: order.account,
    uuid: order.uuid,
    cdek_number: order.cdek_number,
    number: order.request.number ?? null,
    status: order.statuses.at(-1)?.code ?? null,
    statuses: order.statuses,
    webhooks: order.webhooks,
  });

  // ---------------------------------------------------------------------------------------- API

  async function api(req: IncomingMessage, res: ServerResponse, url: URL, path: string, method: string) {
    if (method === 'POST' && path === '/v2/oauth/token') {
      const body = parseBody(await readBody(req, MAX_BODY), req.headers['content-type']);
      return json(res, 200, issueToken({ ...Object.fromEntries(url.searchParams), ...body }));
    }
    const accountId = account(req);
    const failure = takeFailure(method);
    // 'timeout': no answer at all; the client gives up, stop() closes the socket
    if (failure?.mode === 'timeout') return;
    if (failure?.mode === '500') return json(res, 500, { errors: [SANDBOX_ERRORS.internal] });
    if (failure?.mode === 'malformed') return send(res, 200, 'application/json', '{"entity": {"uuid": ');
    if (failure?.mode === '429' || !allowed(accountId))
      return json(
        res,
        429,
        { errors: [SANDBOX_ERRORS.tooMany] },
        { 'retry-after': failure?.retryAfter ?? '1' },
      );

    if (method === 'POST' && path === '/v2/orders') {
      const body = parseBody(await readBody(req, MAX_BODY), req.headers['content-type']);
      const errors = orderErrors(body, (n) =>
        [...orders.values()].some((o) => o.account === accountId && o.request.number === n),
      );
      if (errors.length) return json(res, 400, { requests: [invalid(errors, now())] });
      const order = createOrder(accountId, body as Partial<CdekOrderRequest>);
      return json(res, 202, {
        entity: { uuid: order.uuid },
        requests: [{ ...order.createRequest, state: 'ACCEPTED' }],
      });
    }
    if (method === 'GET' && (path === '/v2/orders' || path.startsWith('/v2/orders/'))) {
      const uuid = path.slice('/v2/orders/'.length);
      const byNumber = url.searchParams.get('cdek_number');
      const byIm = url.searchParams.get('im_number');
      const mine = [...orders.values()].filter((o) => o.account === accountId);
      const order =
        path === '/v2/orders'
          ? byNumber
            ? mine.find((o) => o.cdek_number === byNumber)
            : byIm
              ? mine.filter((o) => o.request.number === byIm).at(-1)
              : undefined
          : mine.find((o) => o.uuid === uuid);
      if (path === '/v2/orders' && !byNumber && !byIm)
        return json(res, 400, {
          errors: [{ code: 'v2_parameters_empty', message: 'Не указаны параметры запроса' }],
        });
      if (!order) {
        const request: CdekRequest = {
          type: 'GET',
          date_time: now(),
          state: 'INVALID',
          errors: [SANDBOX_ERRORS.notFound],
        };
        return json(res, 404, { requests: [{ request_uuid: randomUUID(), ...request }] });
      }
      return json(res, 200, { entity: entityOf(order), requests: [order.createRequest] });
    }
    if (method === 'POST' && path === '/v2/webhooks') {
      const body = parseBody(await readBody(req, MAX_BODY), req.headers['content-type']);
      const errors: CdekError[] = [];
      if (!body.url) errors.push(SANDBOX_ERRORS.fieldEmpty('url'));
      else if (!isHttpUrl(body.url)) errors.push(SANDBOX_ERRORS.invalidValue('url'));
      if (!body.type) errors.push(SANDBOX_ERRORS.fieldEmpty('type'));
      if (errors.length) return json(res, 400, { requests: [{ ...invalid(errors, now()), type: 'CREATE' }] });
      // a second subscription of the same type replaces the first (vendor-apis §1)
      for (const [id, w] of webhooks)
        if (w.type === body.type && webhookAccount.get(id) === accountId) {
          webhooks.delete(id);
          webhookAccount.delete(id);
        }
      const uuid = randomUUID();
      webhooks.set(uuid, { uuid, url: String(body.url), type: body.type as CdekWebhookSubscription['type'] });
      webhookAccount.set(uuid, accountId);
      return json(res, 200, {
        entity: { uuid },
        requests: [{ request_uuid: randomUUID(), type: 'CREATE', date_time: now(), state: 'SUCCESSFUL' }],
      });
    }
    if (method === 'GET' && path === '/v2/webhooks')
      return json(
        res,
        200,
        [...webhooks.values()].filter((w) => webhookAccount.get(w.uuid) === accountId),
      );
    return json(res, 404, { errors: [SANDBOX_ERRORS.unknownMethod] });
  }

  // ---------------------------------------------------------------------------------------- control

  async function control(req: IncomingMessage, res: ServerResponse, path: string, method: string) {
    const isForm = req.headers['content-type']?.includes('application/x-www-form-urlencoded') ?? false;
    if (method === 'GET' && path === '/sandbox/shipments')
      return json(res, 200, [...orders.values()].map(summary));
    if (method === 'GET' && path === '/sandbox/tokens')
      return json(res, 200, { issued: tokensIssued, active: tokens.size });
    const body =
      method === 'POST' ? parseBody(await readBody(req, MAX_BODY), req.headers['content-type']) : {};
    if (method === 'POST' && path === '/sandbox/shipments') {
      const accountId =
        typeof body.account === 'string' ? body.account : (options.accounts[0]?.client_id ?? '');
      const number = typeof body.cdek_number === 'string' ? body.cdek_number : undefined;
      if (number && findOrder(number)) return json(res, 409, { message: `отправление ${number} уже есть` });
      const order = createOrder(
        accountId,
        {
          type: 1,
          tariff_code: 136,
          ...(typeof body.number === 'string' ? { number: body.number } : {}),
          to_location: {
            city: typeof body.city === 'string' ? body.city : DEFAULT_RECIPIENT_CITY,
            address: '',
          },
        },
        number,
      );
      await order.notifying;
      return json(res, 201, summary(order));
    }
    const step = /^\/sandbox\/shipments\/([^/]+)\/advance$/.exec(path);
    if (method === 'POST' && step) {
      const order = findOrder(decodeURIComponent(step[1]!));
      if (!order) return json(res, 404, { message: 'отправление не найдено' });
      advance(order, typeof body.status === 'string' && body.status ? body.status : undefined);
      await order.notifying;
      return isForm ? send(res, 303, 'text/plain', '', { location: '/' }) : json(res, 200, summary(order));
    }
    if (method === 'POST' && path === '/sandbox/fail') {
      const mode = body.mode as FailureMode;
      if (!['500', '429', 'timeout', 'malformed'].includes(mode))
        return json(res, 400, { message: "mode: '500', '429', 'timeout' или 'malformed'" });
      const times = Number(body.times ?? 1);
      const retryAfter = body.retry_after === undefined ? '1' : String(body.retry_after);
      const only = body.method === 'GET' || body.method === 'POST' ? body.method : null;
      for (let i = 0; i < (Number.isInteger(times) && times > 0 ? times : 1); i++)
        failures.push({ mode, retryAfter, method: only });
      return json(res, 200, { pending: failures.length });
    }
    /** Every token issued so far stops working, as when CDEK's hour is up. */
    if (method === 'POST' && path === '/sandbox/tokens/expire') {
      tokens.clear();
      return json(res, 200, { expired: true });
    }
    return json(res, 404, { message: 'неизвестная команда песочницы' });
  }

  function indexPage(): string {
    const rows = [...orders.values()]
      .reverse()
      .map((o) => {
        const code = o.statuses.at(-1)?.code ?? '';
        const label = isCdekStatus(code) ? CDEK_STATUS_TEXT[code].label : code;
        const last = o.webhooks.at(-1);
        const hook = last
          ? last.delivered
            ? 'доставлено'
            : `не доставлено (${escapeHtml(last.error ?? '')})`
          : 'нет подписки';
        const button =
          code === 'DELIVERED'
            ? ''
            : `<form method="post" action="/sandbox/shipments/${o.uuid}/advance"><button type="submit">следующий статус</button></form>`;
        return `<tr><td>${o.cdek_number}</td><td>${escapeHtml(o.request.number ?? '')}</td><td>${escapeHtml(label)} <small>${code}</small></td><td>${hook}</td><td>${button}</td></tr>`;
      })
      .join('');
    return `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Песочница СДЭК</title>
<style>body{font:15px system-ui,sans-serif;margin:24px;color:#1c2127}table{border-collapse:collapse}td,th{border-bottom:1px solid #dde;padding:6px 10px;text-align:left}small{color:#5f6b7c}</style></head>
<body><h1>Песочница СДЭК</h1><p>Отправления этого запуска (в памяти до перезапуска сервиса). Кнопка переводит отправление в следующий статус и отправляет уведомление подписчику.</p>
<table><thead><tr><th>номер СДЭК</th><th>номер заказа</th><th>статус</th><th>последнее уведомление</th><th></th></tr></thead>
<tbody>${rows || '<tr><td colspan="5">отправлений пока нет</td></tr>'}</tbody></table></body></html>`;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    try {
      if (path.startsWith('/v2/')) return await api(req, res, url, path, method);
      if (path.startsWith('/sandbox/')) return await control(req, res, path, method);
      if (method === 'GET' && path === '/') return send(res, 200, 'text/html', indexPage());
      return send(res, 404, 'text/plain', 'не найдено');
    } catch (error) {
      if (error instanceof HttpFailure) return json(res, error.status, error.body);
      if (error instanceof SandboxError)
        return json(res, error.status, {
          errors: [{ ...SANDBOX_ERRORS.badRequest, message: error.message }],
        });
      throw error;
    }
  }

  return startHttpSandbox('cdek', host, options.port, handle, log, { errors: [SANDBOX_ERRORS.internal] });
}
