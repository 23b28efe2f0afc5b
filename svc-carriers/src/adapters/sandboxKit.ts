import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readRequestBody, type Logger } from '@caravan/service-kit';

/**
 * What the vendors' sandboxes share (adapters-common): the HTTP server, bodies, a token bucket per account,
 * failure injection and the /sandbox/fail call. PEC and JDE also keep their shipments in a ShipmentBook
 * moving along a realistic sequence, with the /sandbox/ control endpoints and the Russian page at '/' where
 * a tester drives a parcel to delivered by hand; Ozon and 17TRACK keep their own postings and waybills.
 */

export const FAILURE_MODES = ['500', '429', 'timeout', 'malformed'] as const;
export type FailureMode = (typeof FAILURE_MODES)[number];

/** The next `times` vendor calls fail the way `mode` says. */
export class FailureInjector {
  private mode: FailureMode | null = null;
  private left = 0;

  set(mode: FailureMode, times: number) {
    this.mode = mode;
    this.left = times;
  }

  take(): FailureMode | null {
    if (!this.mode || this.left <= 0) return null;
    this.left--;
    return this.mode;
  }
}

/** The next calls fail as the body of POST /sandbox/fail says ({mode, times = 1}); answers what it set. */
export function armFailure(failures: FailureInjector, body: Record<string, unknown>) {
  const mode = body.mode as FailureMode;
  const times = body.times === undefined ? 1 : Number(body.times);
  if (!FAILURE_MODES.includes(mode) || !Number.isInteger(times) || times < 0)
    throw new SandboxError(400, `mode: ${FAILURE_MODES.join(' | ')}; times: целое число`);
  failures.set(mode, times);
  return { mode, times };
}

/**
 * `rps` calls a second per key with bursts up to `rps` (at least one call); take() answers 0 (go) or
 * the ms until a token.
 */
export class TokenBucket {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly burst: number;

  constructor(
    private readonly rps: number,
    private readonly now: () => number = Date.now,
  ) {
    this.burst = Math.max(1, rps);
  }

  take(key: string): number {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.rps);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - bucket.tokens) / this.rps) * 1000);
  }
}

export class SandboxError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface SandboxShipment {
  number: string;
  /** Oldest first; the last one is the current status. */
  history: Array<{ status: string; at: Date }>;
  createdAt: Date;
}

/** The shipments of a sandbox and the sequence they move along. */
export class ShipmentBook {
  private readonly shipments = new Map<string, SandboxShipment>();

  constructor(
    /** Realistic order, ending at the delivered status. */
    readonly sequence: readonly string[],
    /** Every status a jump may name. */
    readonly known: readonly string[],
    /** Statuses after which nothing follows (delivered, returned…). */
    private readonly finals: readonly string[],
    private readonly validNumber: (number: string) => boolean,
    private readonly newNumber: () => string,
    private readonly now: () => Date,
  ) {}

  get(number: string) {
    return this.shipments.get(number);
  }

  list() {
    return [...this.shipments.values()];
  }

  current(shipment: SandboxShipment) {
    return shipment.history[shipment.history.length - 1]!.status;
  }

  create(number?: string, status?: string): SandboxShipment {
    const value = number?.trim() || this.unusedNumber();
    if (!this.validNumber(value)) throw new SandboxError(400, `неверный номер груза: ${value}`);
    if (this.shipments.has(value)) throw new SandboxError(409, `груз ${value} уже есть`);
    const first = status ?? this.sequence[0]!;
    this.checkKnown(first);
    const at = this.now();
    const shipment = { number: value, history: [{ status: first, at }], createdAt: at };
    this.shipments.set(value, shipment);
    return shipment;
  }

  /** The next status of the sequence, or `status` when given; a delivered parcel stays delivered. */
  advance(number: string, status?: string): SandboxShipment {
    const shipment = this.shipments.get(number);
    if (!shipment) throw new SandboxError(404, `груз ${number} не найден`);
    const next = status ?? this.nextOf(this.current(shipment));
    if (!next) throw new SandboxError(409, `груз ${number} уже доставлен`);
    this.checkKnown(next);
    shipment.history.push({ status: next, at: this.now() });
    return shipment;
  }

  nextOf(status: string): string | null {
    if (this.finals.includes(status)) return null;
    const at = this.sequence.indexOf(status);
    // a status off the sequence (a jump) goes on to the delivered one
    return at < 0 ? this.sequence[this.sequence.length - 1]! : (this.sequence[at + 1] ?? null);
  }

  private checkKnown(status: string) {
    if (!this.known.includes(status)) throw new SandboxError(400, `неизвестный статус: ${status}`);
  }

  private unusedNumber(): string {
    for (;;) {
      const number = this.newNumber();
      if (!this.shipments.has(number)) return number;
    }
  }
}

/** `length` random digits, the first not 0. */
export function randomDigits(length: number): string {
  let digits = String(1 + Math.floor(Math.random() * 9));
  while (digits.length < length) digits += String(Math.floor(Math.random() * 10));
  return digits;
}

/** The wall-clock time in Moscow without a zone, as PEC and JDE write it: '2026-11-24T17:40:05'. */
export function moscowLocal(date: Date): string {
  return new Date(date.getTime() + 3 * 3600_000).toISOString().slice(0, 19);
}

const MAX_BODY = 64 * 1024;

/** The request's body as text; a body over `maxBytes` is refused (SandboxError 413). */
export const readBody = (req: IncomingMessage, maxBytes = MAX_BODY): Promise<string> =>
  readRequestBody(req, maxBytes, () => new SandboxError(413, 'слишком большой запрос'));

export function sendJson(res: ServerResponse, status: number, body: unknown, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

export function sendHtml(res: ServerResponse, status: number, html: string) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
}

/** After a form post of the tester page: the browser goes back to the page. */
export function backToPage(res: ServerResponse) {
  res.writeHead(303, { location: '/' });
  res.end();
}

export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** A control call's JSON body or a plain HTML form post's fields; {} when empty. */
export async function controlFields(req: IncomingMessage): Promise<Record<string, unknown>> {
  return bodyFields(await readBody(req), req.headers['content-type']);
}

function bodyFields(text: string, type: string | undefined): Record<string, unknown> {
  if (!text.trim()) return {};
  if (type?.includes('application/x-www-form-urlencoded'))
    return Object.fromEntries(new URLSearchParams(text));
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // falls through to the error below
  }
  throw new SandboxError(400, 'тело запроса должно быть объектом JSON');
}

const optionalText = (value: unknown) =>
  typeof value === 'string' && value.trim() ? value.trim() : undefined;

export interface SandboxControl {
  /** The vendor's name on the page: 'ПЭК', 'ЖелДорЭкспедиция'. */
  title: string;
  book: ShipmentBook;
  failures: FailureInjector;
  /** A shipment as the control endpoints show it (its current status and the vendor's facts). */
  view(shipment: SandboxShipment): Record<string, unknown>;
  /** The status in words on the page. */
  label(status: string): string;
}

export const isFormPost = (req: IncomingMessage) =>
  (req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded');

function page(control: SandboxControl): string {
  const rows = control.book
    .list()
    .map((s) => {
      const status = control.book.current(s);
      const next = control.book.nextOf(status);
      const button = next
        ? `<form method="post" action="/sandbox/shipments/${encodeURIComponent(s.number)}/advance"><button type="submit" title="${escapeHtml(control.label(next))}">следующий статус</button></form>`
        : '<span class="done">доставлен</span>';
      return `<tr><td>${escapeHtml(s.number)}</td><td>${escapeHtml(control.label(status))}</td><td>${escapeHtml(moscowLocal(s.history[s.history.length - 1]!.at).replace('T', ' '))}</td><td>${button}</td></tr>`;
    })
    .join('');
  return `<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Песочница ${escapeHtml(control.title)}</title>
<style>body{font:15px/1.4 system-ui,sans-serif;margin:20px;color:#1c2127}table{border-collapse:collapse}
td,th{padding:6px 10px;border-bottom:1px solid #dde1e6;text-align:left}button{padding:6px 12px;cursor:pointer}
.done{color:#1c6e42}.muted{color:#5f6b7c}</style></head>
<body><h1>Песочница ${escapeHtml(control.title)}: грузы</h1>
<p class="muted">ненастоящие грузы: статусы меняет кнопка «следующий статус» (время — Москва)</p>
<table><thead><tr><th>номер</th><th>статус</th><th>с</th><th></th></tr></thead>
<tbody>${rows || '<tr><td colspan="4" class="muted">грузов пока нет</td></tr>'}</tbody></table>
<form method="post" action="/sandbox/shipments"><p><button type="submit">создать груз</button></p></form>
</body></html>`;
}

/**
 * '/' and '/sandbox/…': answers and returns true when the request is one of them. HTML form posts are
 * answered with a redirect back to the page, JSON calls with JSON.
 */
export async function handleControl(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  control: SandboxControl,
): Promise<boolean> {
  const method = req.method ?? 'GET';
  if (method === 'GET' && path === '/') {
    sendHtml(res, 200, page(control));
    return true;
  }
  if (!path.startsWith('/sandbox/')) return false;
  try {
    const done = (status: number, body: unknown) =>
      isFormPost(req) ? backToPage(res) : sendJson(res, status, body);
    if (path === '/sandbox/shipments' && method === 'GET') {
      sendJson(res, 200, { shipments: control.book.list().map(control.view) });
      return true;
    }
    const body = method === 'POST' ? await controlFields(req) : {};
    if (path === '/sandbox/shipments' && method === 'POST') {
      const shipment = control.book.create(optionalText(body.number), optionalText(body.status));
      done(201, control.view(shipment));
      return true;
    }
    const advance = /^\/sandbox\/shipments\/([^/]+)\/advance$/.exec(path);
    if (advance && method === 'POST') {
      const shipment = control.book.advance(decodeURIComponent(advance[1]!), optionalText(body.status));
      done(200, control.view(shipment));
      return true;
    }
    if (path === '/sandbox/fail' && method === 'POST') {
      sendJson(res, 200, armFailure(control.failures, body));
      return true;
    }
    throw new SandboxError(404, 'нет такой команды песочницы');
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    sendJson(res, error.status, { error: error.message });
    return true;
  }
}

export interface RunningSandbox {
  url: string;
  stop(): Promise<void>;
}

/**
 * Listens on host:port (0 = any free port); `url` is where a client on this machine reaches it. A request
 * `handle` fails on is answered 500 with `failureBody` (in the vendor's format).
 */
export async function startHttpSandbox(
  name: string,
  host: string,
  port: number,
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  log?: Logger,
  failureBody: unknown = { error: 'внутренняя ошибка песочницы' },
): Promise<RunningSandbox> {
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log?.error({ err: error }, `${name} sandbox: request failed`);
      if (!res.headersSent) sendJson(res, 500, failureBody);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    url: `http://${shown.includes(':') ? `[${shown}]` : shown}:${address.port}`,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // replies held by the 'timeout' failure mode would keep the server open
        server.closeAllConnections();
      }),
  };
}
