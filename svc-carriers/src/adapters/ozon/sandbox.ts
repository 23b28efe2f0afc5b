import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OZON_POSTING_STATUS_LABELS } from '@caravan/contracts';
import type { Logger } from '@caravan/service-kit';
import type { CarrierCredentials } from '../carrier';
import { postingWeightKg } from './mapping';
import type { OzonErrorReply, OzonWirePosting, OzonWireProduct } from './types';

/**
 * The built-in Ozon sandbox (ARCHITECTURE §9): a small HTTP server speaking the Seller API's
 * POST /v3/posting/fbs/get with Client-Id / Api-Key, its refusals `{code, message, details}` and its 429,
 * plus control endpoints under /sandbox/ and a Russian page at / where a tester moves a posting on.
 * Postings live in memory until the server stops.
 */

/** What the sandbox accepts; the demo seed gives these to the demo operator. Any other pair is refused. */
export const OZON_SANDBOX_ACCOUNT: CarrierCredentials = {
  client_id: '1234567',
  access_token: 'caravan-ozon-sandbox-api-key',
};

/** An FBS posting's usual way from the seller to the buyer. */
export const OZON_SANDBOX_SEQUENCE = [
  'awaiting_packaging',
  'awaiting_deliver',
  'delivering',
  'delivered',
] as const;

export type FailureMode = '500' | '429' | 'timeout' | 'malformed';
const FAILURE_MODES: readonly string[] = ['500', '429', 'timeout', 'malformed'];

export type OzonSandboxOptions = {
  /** 127.0.0.1 */
  host?: string;
  /** 0 = any free port */
  port?: number;
  /** requests per second per Client-Id before it answers 429; 50 */
  rps?: number;
  account?: CarrierCredentials;
  /** the sandbox clock (status times) */
  now?: () => Date;
  log?: Logger;
};

export type OzonSandbox = { url: string; stop(): Promise<void> };

type Posting = OzonWirePosting & { products: OzonWireProduct[] };

const CATALOG: OzonWireProduct[] = [
  product(1480237711, 'LAMP-USB-01', 'Настольная лампа светодиодная с USB', '1390.0000', '650'),
  product(1523094410, 'CASE-IP15-BLK', 'Чехол для iPhone 15 силиконовый, чёрный', '490.0000', '60'),
  product(987654321, 'BAG-TRAVEL-40', 'Сумка дорожная складная 40 л', '2150.0000', '900'),
  product(1102938475, 'MUG-STEEL-350', 'Термокружка стальная 350 мл', '870.0000', '320'),
];

function product(
  sku: number,
  offer_id: string,
  name: string,
  price: string,
  weight: string,
): OzonWireProduct {
  return {
    sku,
    offer_id,
    name,
    quantity: 1,
    price,
    currency_code: 'RUB',
    dimensions: { height: '100', length: '200', width: '150', weight },
  };
}

const MAX_BODY = 256 * 1024;

class SandboxRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
  get body(): OzonErrorReply {
    return { code: this.code, message: this.message, details: [] };
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) reject(new SandboxRefusal(413, 3, 'request body is too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const isForm = (req: IncomingMessage) =>
  (req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded');

/** A control call's body: JSON, or a plain HTML form's fields. */
async function controlBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const text = await readBody(req);
  if (isForm(req)) return Object.fromEntries(new URLSearchParams(text));
  if (!text.trim()) return {};
  const parsed: unknown = JSON.parse(text);
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : {};
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** A token bucket per account: `rps` tokens a second, a burst of as many (at least one). */
function rateLimiter(rps: number) {
  const burst = Math.max(1, rps);
  const buckets = new Map<string, { tokens: number; at: number }>();
  return (account: string, nowMs = Date.now()): number | null => {
    const bucket = buckets.get(account) ?? { tokens: burst, at: nowMs };
    bucket.tokens = Math.min(burst, bucket.tokens + ((nowMs - bucket.at) / 1000) * rps);
    bucket.at = nowMs;
    buckets.set(account, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return null;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / rps));
  };
}

/** Products from a control call: the given ones (1–3) completed from the catalog, else 1–3 of the catalog. */
function productsFor(given: unknown, seq: number): OzonWireProduct[] {
  if (Array.isArray(given) && given.length) {
    if (given.length > 3) throw new SandboxRefusal(400, 3, 'a sandbox posting has 1 to 3 products');
    return given.map((p, i) => {
      const base = CATALOG[(seq + i) % CATALOG.length]!;
      const over = (p && typeof p === 'object' ? p : {}) as Partial<OzonWireProduct> & { weight?: unknown };
      const weight = over.weight !== undefined ? String(over.weight) : base.dimensions?.weight;
      return {
        ...base,
        ...over,
        quantity: Number(over.quantity ?? 1),
        dimensions: { ...base.dimensions, ...over.dimensions, ...(weight ? { weight } : {}) },
      };
    });
  }
  const count = 1 + (seq % 3);
  return Array.from({ length: count }, (_, i) => ({
    ...CATALOG[(seq + i) % CATALOG.length]!,
    quantity: 1 + ((seq + i) % 2),
  }));
}

export async function startOzonSandbox(options: OzonSandboxOptions = {}): Promise<OzonSandbox> {
  const account = options.account ?? OZON_SANDBOX_ACCOUNT;
  const now = options.now ?? (() => new Date());
  const limited = rateLimiter(options.rps ?? 50);
  const log = options.log;
  const postings = new Map<string, Posting>();
  let failure: { mode: FailureMode; times: number } | null = null;
  let seq = 0;

  function createPosting(body: Record<string, unknown>): Posting {
    seq += 1;
    const number = typeof body.number === 'string' && body.number.trim() ? body.number.trim() : nextNumber();
    if (postings.has(number)) throw new SandboxRefusal(409, 6, `posting ${number} already exists`);
    const posting: Posting = {
      posting_number: number,
      order_id: 30_000_000 + seq,
      order_number: number.split('-').slice(0, 2).join('-'),
      status: OZON_SANDBOX_SEQUENCE[0],
      substatus: 'posting_created',
      tracking_number: null,
      in_process_at: now().toISOString(),
      shipment_date: null,
      delivering_date: null,
      products: productsFor(body.products, seq),
    };
    postings.set(number, posting);
    return posting;
  }

  function nextNumber(): string {
    return `${String(50_000_000 + seq).padStart(10, '0')}-0001-1`;
  }

  /** The next status of the usual way; none after 'delivered' or off the way (e.g. 'cancelled'). */
  function nextStatus(current: string): string | undefined {
    const at = (OZON_SANDBOX_SEQUENCE as readonly string[]).indexOf(current);
    return at < 0 ? undefined : OZON_SANDBOX_SEQUENCE[at + 1];
  }

  function advance(posting: Posting, status: unknown): Posting {
    const target = typeof status === 'string' && status ? status : nextStatus(posting.status);
    if (!target)
      throw new SandboxRefusal(409, 9, `posting ${posting.posting_number} is already ${posting.status}`);
    if (!(target in OZON_POSTING_STATUS_LABELS)) throw new SandboxRefusal(400, 3, `unknown status ${target}`);
    posting.status = target;
    posting.substatus = `posting_${target}`;
    const at = now().toISOString();
    if (target === 'awaiting_deliver') posting.shipment_date = at;
    if (target === 'delivering') {
      posting.delivering_date = at;
      posting.tracking_number = `OZN${posting.posting_number.replace(/\D/g, '')}`;
    }
    log?.info({ posting: posting.posting_number, status: target }, 'ozon sandbox: posting advanced');
    return posting;
  }

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  };
  const html = (res: ServerResponse, body: string) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(body);
  };
  const back = (res: ServerResponse) => {
    res.writeHead(303, { location: '/' });
    res.end();
  };

  /** An injected failure for this vendor call, if one is armed: true when it answered. */
  function injectedFailure(res: ServerResponse): boolean {
    if (!failure || failure.times <= 0) return false;
    failure.times -= 1;
    const { mode } = failure;
    if (failure.times === 0) failure = null;
    if (mode === '500') json(res, 500, { code: 13, message: 'internal error', details: [] });
    else if (mode === '429')
      json(
        res,
        429,
        { code: 8, message: 'You have reached request rate limit per second', details: [] },
        { 'retry-after': '1' },
      );
    else if (mode === 'malformed') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"result": {"posting_number": "');
    }
    // 'timeout': no answer at all; the client gives up, stop() closes the socket
    return true;
  }

  function authorize(req: IncomingMessage, res: ServerResponse): boolean {
    const clientId = req.headers['client-id'];
    const apiKey = req.headers['api-key'];
    if (!clientId || !apiKey) {
      json(res, 401, { code: 16, message: 'Client-Id and Api-Key headers are required', details: [] });
      return false;
    }
    if (clientId !== account.client_id || apiKey !== account.access_token) {
      json(res, 403, { code: 7, message: 'Invalid Api-Key, please contact support', details: [] });
      return false;
    }
    const wait = limited(String(clientId));
    if (wait !== null) {
      json(
        res,
        429,
        { code: 8, message: 'You have reached request rate limit per second', details: [] },
        { 'retry-after': String(wait) },
      );
      return false;
    }
    return true;
  }

  async function vendorCall(req: IncomingMessage, res: ServerResponse, path: string) {
    if (injectedFailure(res) || !authorize(req, res)) return;
    if (req.method !== 'POST' || path !== '/v3/posting/fbs/get')
      throw new SandboxRefusal(404, 5, `method ${req.method} ${path} is not supported by the sandbox`);
    let body: { posting_number?: unknown };
    try {
      body = JSON.parse(await readBody(req)) as { posting_number?: unknown };
    } catch {
      throw new SandboxRefusal(400, 3, 'invalid request payload: not JSON');
    }
    if (typeof body?.posting_number !== 'string' || !body.posting_number)
      throw new SandboxRefusal(
        400,
        3,
        'invalid GetFbsPostingV3Request.PostingNumber: value length must be at least 1 runes',
      );
    const posting = postings.get(body.posting_number);
    if (!posting) throw new SandboxRefusal(404, 5, 'Posting not found');
    json(res, 200, { result: posting });
  }

  async function controlCall(req: IncomingMessage, res: ServerResponse, path: string) {
    const form = isForm(req);
    if (req.method === 'GET' && path === '/sandbox/shipments') return json(res, 200, [...postings.values()]);
    if (req.method !== 'POST') throw new SandboxRefusal(404, 5, 'not found');
    const body = await controlBody(req);
    if (path === '/sandbox/shipments') {
      const posting = createPosting(body);
      return form ? back(res) : json(res, 201, posting);
    }
    const advanceMatch = /^\/sandbox\/shipments\/([^/]+)\/advance$/.exec(path);
    if (advanceMatch) {
      const posting = postings.get(decodeURIComponent(advanceMatch[1]!));
      if (!posting) throw new SandboxRefusal(404, 5, 'Posting not found');
      advance(posting, body.status);
      return form ? back(res) : json(res, 200, posting);
    }
    if (path === '/sandbox/fail') {
      const mode = String(body.mode ?? '');
      if (!FAILURE_MODES.includes(mode))
        throw new SandboxRefusal(400, 3, `mode is one of ${FAILURE_MODES.join(', ')}`);
      failure = { mode: mode as FailureMode, times: Math.max(1, Number(body.times ?? 1) || 1) };
      return json(res, 200, failure);
    }
    throw new SandboxRefusal(404, 5, 'not found');
  }

  function indexPage(): string {
    const rows = [...postings.values()]
      .map((p) => {
        const label = OZON_POSTING_STATUS_LABELS[p.status] ?? p.status;
        const products = p.products.map((x) => `${escapeHtml(x.name)} × ${x.quantity}`).join('<br>');
        const next =
          p.status === 'delivered'
            ? ''
            : `<form method="post" action="/sandbox/shipments/${encodeURIComponent(p.posting_number)}/advance"><button type="submit">следующий статус</button></form>`;
        return `<tr><td>${escapeHtml(p.posting_number)}</td><td>${escapeHtml(label)}</td><td>${products}</td><td>${postingWeightKg(p.products) ?? '—'} кг</td><td>${next}</td></tr>`;
      })
      .join('');
    return `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Песочница Ozon</title>
<style>body{font-family:sans-serif;margin:24px}td,th{border-bottom:1px solid #ddd;padding:6px 10px;text-align:left;vertical-align:top}</style></head>
<body><h1>Песочница Ozon — отправления FBS</h1>
<p>Ненастоящие отправления: их хранит встроенная песочница до перезапуска сервиса.</p>
<form method="post" action="/sandbox/shipments"><input name="number" placeholder="номер отправления (пусто — новый)"> <button type="submit">создать отправление</button></form>
<table><tr><th>отправление</th><th>статус</th><th>товары</th><th>вес</th><th></th></tr>${rows || '<tr><td colspan="5">отправлений пока нет</td></tr>'}</table>
</body></html>`;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? '/', 'http://sandbox').pathname.replace(/\/+$/, '') || '/';
    try {
      if (req.method === 'GET' && path === '/') return html(res, indexPage());
      if (path.startsWith('/sandbox/')) return await controlCall(req, res, path);
      return await vendorCall(req, res, path);
    } catch (error) {
      if (error instanceof SandboxRefusal) return json(res, error.status, error.body);
      if (error instanceof SyntaxError)
        return json(res, 400, { code: 3, message: 'invalid JSON', details: [] });
      throw error;
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log?.error({ err: error }, 'ozon sandbox: request failed');
      if (!res.headersSent) json(res, 500, { code: 13, message: 'internal error', details: [] });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host && !['0.0.0.0', '::'].includes(options.host) ? options.host : '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
