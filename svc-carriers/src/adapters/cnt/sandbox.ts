import type { IncomingMessage, ServerResponse } from 'node:http';
import { CNT_STATUS_LABELS } from '@caravan/contracts';
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
import { cntSign } from './client';
import { arrivedText, cityOfTag } from './mapping';
import { CNT_CODES, type CntError, type CntEvent, type CntPush, type CntTracked } from './types';

/**
 * The built-in 17TRACK sandbox (ARCHITECTURE §9): a small HTTP server speaking Tracking API v2.2's
 * POST /track/v2.2/register and /track/v2.2/gettrackinfo with the `17token` header, its `{code, data}`
 * answers, 401 and 429; control endpoints under /sandbox/; a Russian page at / where a tester moves a
 * waybill on (the server, bodies, rate limit and failure injection of sandboxKit). Every move POSTs a
 * signed TRACKING_UPDATED to the push URL (once, no retry), as 17TRACK does. Waybills live in memory
 * until the server stops.
 */

/** What the sandbox accepts (client_id is unused by 17TRACK); any other key is refused with 401. */
export const CNT_SANDBOX_ACCOUNT: CarrierCredentials = {
  client_id: '',
  access_token: 'caravan-17track-sandbox-key',
};

export type CntSandboxOptions = {
  /** 127.0.0.1 */
  host?: string;
  /** 0 = any free port */
  port?: number;
  /** requests per second per key before it answers 429; 50 */
  rps?: number;
  account?: CarrierCredentials;
  /** where it POSTs TRACKING_UPDATED on every move (also settable by POST /sandbox/webhook {url}) */
  pushUrl?: string;
  /** the sandbox clock (event times) */
  now?: () => Date;
  log?: Logger;
};

export type CntSandbox = RunningSandbox;

type Step = { status: string; description: string; location: string | null };

/** A parcel's way through Chinese couriers to the consolidation warehouse in the tag's city. */
export function cntSandboxSteps(tag: string | null): Step[] {
  const city = cityOfTag(tag);
  return [
    {
      status: 'InfoReceived',
      description: 'Shipping information received, awaiting pickup',
      location: 'Shenzhen',
    },
    { status: 'InTransit', description: 'Picked up by the courier', location: 'Shenzhen' },
    { status: 'InTransit', description: 'Departed from the sorting center', location: 'Shenzhen' },
    { status: 'InTransit', description: 'Arrived at the sorting center', location: 'Guangzhou' },
    { status: 'InTransit', description: arrivedText(city), location: city },
    {
      status: 'Delivered',
      description: 'Delivered, signed for by the consolidation warehouse',
      location: city,
    },
  ];
}

const PROVIDER = { key: 190271, name: 'Cainiao' };
const CHINA_OFFSET_MS = 8 * 3600_000;
const PUSH_TIMEOUT_MS = 5000;
const MAX_BODY = 256 * 1024;
const NUMBER_FORMAT = /^[A-Za-z0-9-]{5,50}$/;

/** A time as a Chinese courier writes it: local time with +08:00. */
const chinaTime = (at: Date) =>
  `${new Date(at.getTime() + CHINA_OFFSET_MS).toISOString().slice(0, 19)}+08:00`;

class SandboxRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const errorBody = (code: number, message: string) => ({ code, data: { errors: [{ code, message }] } });

type Waybill = { number: string; tag: string | null; step: number; events: CntEvent[] };
export type PushOutcome = { delivered: boolean; status?: number; error?: string } | null;

export async function startCntSandbox(options: CntSandboxOptions = {}): Promise<CntSandbox> {
  const account = options.account ?? CNT_SANDBOX_ACCOUNT;
  const now = options.now ?? (() => new Date());
  const bucket = new TokenBucket(options.rps ?? 50);
  const log = options.log;
  const waybills = new Map<string, Waybill>();
  let pushUrl = options.pushUrl ?? '';
  const failures = new FailureInjector();

  const key = (number: string) => number.trim().toLowerCase();

  /** The next event, at the sandbox clock but never before the previous one. */
  function addEvent(w: Waybill, step: Step) {
    const previous = w.events[0]?.time_utc ? Date.parse(w.events[0].time_utc) : -Infinity;
    const at = new Date(Math.max(now().getTime(), previous + 1000));
    w.events.unshift({
      time_iso: chinaTime(at),
      time_utc: at.toISOString(),
      description: step.description,
      location: step.location,
      stage: step.status,
    });
  }

  function registerOne(number: string, tag: string | null): CntError | null {
    if (!NUMBER_FORMAT.test(number))
      return { code: CNT_CODES.badNumber, message: `The format of '${number}' is invalid.` };
    if (waybills.has(key(number)))
      return {
        code: CNT_CODES.alreadyRegistered,
        message: `The tracking number '${number}' is already registered.`,
      };
    const w: Waybill = { number, tag, step: 0, events: [] };
    addEvent(w, cntSandboxSteps(tag)[0]!);
    waybills.set(key(number), w);
    return null;
  }

  function tracked(w: Waybill): CntTracked {
    const steps = cntSandboxSteps(w.tag);
    const status = steps[w.step]!.status;
    return {
      number: w.number,
      carrier: PROVIDER.key,
      tag: w.tag,
      track_info: {
        latest_status: { status, sub_status: `${status}_Other` },
        latest_event: w.events[0] ?? null,
        tracking: { providers: [{ provider: PROVIDER, events: [...w.events] }] },
      },
    };
  }

  /** One step on, or on to the first later step with `status`. */
  function advance(w: Waybill, status: unknown) {
    const steps = cntSandboxSteps(w.tag);
    const wanted = typeof status === 'string' && status ? status : null;
    const target = wanted ? steps.findIndex((s, i) => i > w.step && s.status === wanted) : w.step + 1;
    if (target < 0 || target >= steps.length)
      throw new SandboxRefusal(
        409,
        0,
        `waybill ${w.number} cannot move ${wanted ? `to ${wanted}` : 'further'}`,
      );
    while (w.step < target) {
      w.step += 1;
      addEvent(w, steps[w.step]!);
    }
  }

  /** Posts the signed TRACKING_UPDATED once; the outcome is shown, never retried. */
  async function push(w: Waybill): Promise<PushOutcome> {
    if (!pushUrl) return null;
    const body: CntPush = { event: 'TRACKING_UPDATED', data: { ...tracked(w), param: null } };
    const raw = JSON.stringify(body);
    try {
      const res = await fetch(pushUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', sign: cntSign(raw, account.access_token) },
        body: raw,
        signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
      });
      await res.arrayBuffer().catch(() => undefined);
      return { delivered: res.ok, status: res.status };
    } catch (error) {
      log?.warn({ number: w.number, err: error }, 'cnt sandbox: push not delivered');
      return { delivered: false, error: (error as Error).message };
    }
  }

  function injectedFailure(res: ServerResponse): boolean {
    const mode = failures.take();
    if (!mode) return false;
    if (mode === '500') sendJson(res, 500, errorBody(-18010003, 'Internal service error.'));
    else if (mode === '429')
      sendJson(res, 429, errorBody(CNT_CODES.rateLimited, 'Request too frequently.'), { 'retry-after': '1' });
    else if (mode === 'malformed') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"code":0,"data":{"accepted":[{"number":');
    }
    // 'timeout': no answer at all; the client gives up, stop() closes the socket
    return true;
  }

  function authorize(req: IncomingMessage, res: ServerResponse): boolean {
    const token = req.headers['17token'];
    if (token !== account.access_token) {
      sendJson(res, 401, errorBody(CNT_CODES.invalidKey, 'Invalid access key.'));
      return false;
    }
    const waitMs = bucket.take(token);
    if (!waitMs) return true;
    sendJson(res, 429, errorBody(CNT_CODES.rateLimited, 'Request too frequently.'), {
      'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))),
    });
    return false;
  }

  async function numbersOf(req: IncomingMessage): Promise<Array<{ number: string; tag: string | null }>> {
    let items: unknown;
    try {
      items = JSON.parse(await readBody(req, MAX_BODY));
    } catch {
      throw new SandboxRefusal(200, CNT_CODES.badNumber, 'The data format is invalid.');
    }
    if (!Array.isArray(items))
      throw new SandboxRefusal(200, CNT_CODES.badNumber, 'The data format is invalid.');
    if (items.length > 40)
      throw new SandboxRefusal(
        200,
        CNT_CODES.tooMany,
        'The number of tracking numbers exceeds the limit of 40.',
      );
    return items.map((item) => {
      const { number, tag } = (item ?? {}) as { number?: unknown; tag?: unknown };
      return {
        number: typeof number === 'string' ? number.trim() : '',
        tag: typeof tag === 'string' && tag ? tag : null,
      };
    });
  }

  async function vendorCall(req: IncomingMessage, res: ServerResponse, path: string) {
    if (injectedFailure(res) || !authorize(req, res)) return;
    if (req.method === 'POST' && path === '/track/v2.2/register') {
      const accepted: Array<{ number: string; carrier: number; tag: string | null }> = [];
      const rejected: Array<{ number: string; error: CntError }> = [];
      for (const { number, tag } of await numbersOf(req)) {
        const error = registerOne(number, tag);
        if (error) rejected.push({ number, error });
        else accepted.push({ number, carrier: PROVIDER.key, tag });
      }
      return sendJson(res, 200, { code: 0, data: { accepted, rejected } });
    }
    if (req.method === 'POST' && path === '/track/v2.2/gettrackinfo') {
      const accepted: CntTracked[] = [];
      const rejected: Array<{ number: string; error: CntError }> = [];
      for (const { number } of await numbersOf(req)) {
        const w = waybills.get(key(number));
        if (w) accepted.push(tracked(w));
        else
          rejected.push({
            number,
            error: {
              code: CNT_CODES.notRegistered,
              message: `The tracking number '${number}' does not register, please register first.`,
            },
          });
      }
      return sendJson(res, 200, { code: 0, data: { accepted, rejected } });
    }
    throw new SandboxRefusal(404, -18010010, `${req.method} ${path} is not supported by the sandbox.`);
  }

  async function controlCall(req: IncomingMessage, res: ServerResponse, path: string) {
    const form = isFormPost(req);
    if (req.method === 'GET' && path === '/sandbox/shipments')
      return sendJson(res, 200, [...waybills.values()].map(tracked));
    if (req.method !== 'POST') throw new SandboxRefusal(404, 0, 'not found');
    const body = await controlFields(req);
    if (path === '/sandbox/shipments') {
      const number = String(body.number ?? '').trim();
      const tag = String(body.tag ?? '').trim() || null;
      const error = registerOne(number, tag);
      if (error)
        throw new SandboxRefusal(
          error.code === CNT_CODES.alreadyRegistered ? 409 : 400,
          error.code,
          error.message,
        );
      return form ? backToPage(res) : sendJson(res, 201, tracked(waybills.get(key(number))!));
    }
    const advanceMatch = /^\/sandbox\/shipments\/([^/]+)\/advance$/.exec(path);
    if (advanceMatch) {
      const w = waybills.get(key(decodeURIComponent(advanceMatch[1]!)));
      if (!w) throw new SandboxRefusal(404, CNT_CODES.notRegistered, 'not registered');
      advance(w, body.status);
      const pushed = await push(w);
      log?.info({ number: w.number, step: w.step, pushed }, 'cnt sandbox: waybill advanced');
      return form ? backToPage(res) : sendJson(res, 200, { ...tracked(w), push: pushed });
    }
    if (path === '/sandbox/webhook') {
      pushUrl = String(body.url ?? '').trim();
      return form ? backToPage(res) : sendJson(res, 200, { url: pushUrl });
    }
    if (path === '/sandbox/fail') return sendJson(res, 200, armFailure(failures, body));
    throw new SandboxRefusal(404, 0, 'not found');
  }

  function indexPage(): string {
    const rows = [...waybills.values()]
      .map((w) => {
        const status = cntSandboxSteps(w.tag)[w.step]!.status;
        const last = w.events[0];
        const next =
          status === 'Delivered'
            ? ''
            : `<form method="post" action="/sandbox/shipments/${encodeURIComponent(w.number)}/advance"><button type="submit">следующий статус</button></form>`;
        return `<tr><td>${escapeHtml(w.number)}</td><td>${escapeHtml(w.tag ?? '—')}</td><td>${escapeHtml(CNT_STATUS_LABELS[status] ?? status)}</td><td>${escapeHtml(last ? `${last.time_iso} ${last.location ?? ''} — ${last.description}` : '')}</td><td>${next}</td></tr>`;
      })
      .join('');
    return `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Песочница отслеживания посылок</title>
<style>body{font-family:sans-serif;margin:24px}td,th{border-bottom:1px solid #ddd;padding:6px 10px;text-align:left;vertical-align:top}</style></head>
<body><h1>Песочница 17TRACK — китайские накладные</h1>
<p>Ненастоящие накладные: их хранит встроенная песочница до перезапуска сервиса. Уведомления уходят на: ${escapeHtml(pushUrl || 'адрес не задан')}</p>
<form method="post" action="/sandbox/shipments"><input name="number" placeholder="накладная (длиннее 10 символов)"> <input name="tag" placeholder="склад консолидации (алиас)"> <button type="submit">зарегистрировать</button></form>
<table><tr><th>накладная</th><th>склад</th><th>статус</th><th>последнее событие</th><th></th></tr>${rows || '<tr><td colspan="5">накладных пока нет</td></tr>'}</table>
</body></html>`;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? '/', 'http://sandbox').pathname.replace(/\/+$/, '') || '/';
    try {
      if (req.method === 'GET' && path === '/') return sendHtml(res, 200, indexPage());
      if (path.startsWith('/sandbox/')) return await controlCall(req, res, path);
      return await vendorCall(req, res, path);
    } catch (error) {
      if (error instanceof SandboxRefusal)
        return sendJson(res, error.status, errorBody(error.code, error.message));
      if (error instanceof SandboxError)
        return sendJson(res, error.status, errorBody(CNT_CODES.badNumber, error.message));
      throw error;
    }
  }

  return startHttpSandbox(
    'cnt',
    options.host ?? '127.0.0.1',
    options.port ?? 0,
    handle,
    log,
    errorBody(-18010003, 'Internal service error.'),
  );
}
