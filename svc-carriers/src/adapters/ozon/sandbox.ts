import type { IncomingMessage, ServerResponse } from 'node:http';
import { OZON_POSTING_STATUS_LABELS } from '@caravan/contracts';
import type { Logger } from '@caravan/service-kit';
import type { CarrierCredentials } from '../carrier';
import {
  armFailure,
  backToPage,
  controlFields,
  escapeHtml,
  FailureInjector,
  isFormPost,
  readBody,
  SandboxError,
  sendHtml,
  sendJson,
  startHttpSandbox,
  TokenBucket,
  type RunningSandbox,
} from '../sandboxKit';
import { postingWeightKg } from './mapping';
import type { OzonErrorReply, OzonWirePosting, OzonWireProduct } from './types';

/**
 * The built-in Ozon sandbox (ARCHITECTURE §9): a small HTTP server speaking the Seller API's
 * POST /v3/posting/fbs/get with Client-Id / Api-Key, its refusals `{code, message, details}` and its 429,
 * plus control endpoints under /sandbox/ and a Russian page at / where a tester moves a posting on
 * (the server, bodies, rate limit and failure injection of sandboxKit). Postings live in memory until
 * the server stops.
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

export type OzonSandbox = RunningSandbox;

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
  const bucket = new TokenBucket(options.rps ?? 50);
  const log = options.log;
  const postings = new Map<string, Posting>();
  const failures = new FailureInjector();
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

  /** An injected failure for this vendor call, if one is armed: true when it answered. */
  function injectedFailure(res: ServerResponse): boolean {
    const mode = failures.take();
    if (!mode) return false;
    if (mode === '500') sendJson(res, 500, { code: 13, message: 'internal error', details: [] });
    else if (mode === '429')
      sendJson(
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
      sendJson(res, 401, { code: 16, message: 'Client-Id and Api-Key headers are required', details: [] });
      return false;
    }
    if (clientId !== account.client_id || apiKey !== account.access_token) {
      sendJson(res, 403, { code: 7, message: 'Invalid Api-Key, please contact support', details: [] });
      return false;
    }
    const waitMs = bucket.take(String(clientId));
    if (waitMs) {
      sendJson(
        res,
        429,
        { code: 8, message: 'You have reached request rate limit per second', details: [] },
        { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) },
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
      body = JSON.parse(await readBody(req, MAX_BODY)) as { posting_number?: unknown };
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
    sendJson(res, 200, { result: posting });
  }

  async function controlCall(req: IncomingMessage, res: ServerResponse, path: string) {
    const form = isFormPost(req);
    if (req.method === 'GET' && path === '/sandbox/shipments')
      return sendJson(res, 200, [...postings.values()]);
    if (req.method !== 'POST') throw new SandboxRefusal(404, 5, 'not found');
    const body = await controlFields(req);
    if (path === '/sandbox/shipments') {
      const posting = createPosting(body);
      return form ? backToPage(res) : sendJson(res, 201, posting);
    }
    const advanceMatch = /^\/sandbox\/shipments\/([^/]+)\/advance$/.exec(path);
    if (advanceMatch) {
      const posting = postings.get(decodeURIComponent(advanceMatch[1]!));
      if (!posting) throw new SandboxRefusal(404, 5, 'Posting not found');
      advance(posting, body.status);
      return form ? backToPage(res) : sendJson(res, 200, posting);
    }
    if (path === '/sandbox/fail') return sendJson(res, 200, armFailure(failures, body));
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
      if (req.method === 'GET' && path === '/') return sendHtml(res, 200, indexPage());
      if (path.startsWith('/sandbox/')) return await controlCall(req, res, path);
      return await vendorCall(req, res, path);
    } catch (error) {
      if (error instanceof SandboxRefusal) return sendJson(res, error.status, error.body);
      if (error instanceof SandboxError)
        return sendJson(res, error.status, { code: 3, message: error.message, details: [] });
      throw error;
    }
  }

  return startHttpSandbox('ozon', options.host ?? '127.0.0.1', options.port ?? 0, handle, log, {
    code: 13,
    message: 'internal error',
    details: [],
  });
}
