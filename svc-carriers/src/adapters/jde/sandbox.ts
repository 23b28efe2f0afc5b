import type { IncomingMessage, ServerResponse } from 'node:http';
import { JDE_NUMBER_LENGTHS, JDE_STATUS_LABELS, JDE_STATUSES } from '@caravan/contracts';
import type { Logger } from '@caravan/service-kit';
import type { CarrierCredentials } from '../carrier';
import {
  FailureInjector,
  handleControl,
  moscowLocal,
  randomDigits,
  sendJson,
  ShipmentBook,
  startHttpSandbox,
  TokenBucket,
  type FailureMode,
  type RunningSandbox,
  type SandboxShipment,
} from '../sandboxKit';
import type { JdeStatusByCode } from './types';

/**
 * The built-in JDE sandbox: a node:http server answering GET /vD/cargos/status-by-code as vendor-apis §4
 * reads it (user and token in the query), with waybills in memory, a rate limit per user, failure injection
 * and the control endpoints and page of sandboxKit.
 */

/** The user id and token the sandbox accepts (the demo seed gives them to the demo operator). */
export const JDE_SANDBOX_ACCOUNT: CarrierCredentials = {
  client_id: '2252000000000001',
  access_token: 'jde-sandbox-token-0001',
};

export const JDE_SANDBOX_SEQUENCE = [
  'NewOrderByClient',
  'OnTerminalPickup',
  'OnRoad',
  'OnTerminalDelivery',
  'Delivering',
  'Delivered',
] as const;
const JDE_FINAL = ['Delivered', 'NotDone', 'Lost', 'ReturnedFromDelivery'];

export interface JdeSandboxOptions {
  host?: string;
  /** 0 = any free port */
  port: number;
  /** calls a second per user before 429; 50 */
  rps?: number;
  accounts?: CarrierCredentials[];
  now?: () => Date;
  log?: Logger;
}

/** JDE's date: Moscow wall-clock, 'YYYY-MM-DD HH:mm:ss'. */
const jdeDate = (at: Date) => moscowLocal(at).replace('T', ' ');

function fail(res: ServerResponse, mode: FailureMode): void {
  if (mode === '500') return sendJson(res, 500, { error: 'Внутренняя ошибка сервера' });
  if (mode === '429') return sendJson(res, 429, { error: 'Превышен лимит запросов' }, { 'retry-after': '1' });
  if (mode === 'malformed') {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end('{"id": 1, "status": "OnRo');
  }
}

export async function startJdeSandbox(options: JdeSandboxOptions): Promise<RunningSandbox> {
  const now = options.now ?? (() => new Date());
  const accounts = options.accounts ?? [JDE_SANDBOX_ACCOUNT];
  const bucket = new TokenBucket(options.rps ?? 50);
  const failures = new FailureInjector();
  const ids = new Map<string, number>();
  const book = new ShipmentBook(
    JDE_SANDBOX_SEQUENCE,
    JDE_STATUSES,
    JDE_FINAL,
    (n) => /^\d+$/.test(n) && JDE_NUMBER_LENGTHS.includes(n.length),
    () => randomDigits(JDE_NUMBER_LENGTHS[0]!),
    now,
  );
  const idOf = (number: string) => {
    if (!ids.has(number)) ids.set(number, 4_800_000 + ids.size + 1);
    return ids.get(number)!;
  };
  const reply = (s: SandboxShipment): JdeStatusByCode => {
    const last = s.history[s.history.length - 1]!;
    return { id: idOf(s.number), status: last.status, date: jdeDate(last.at) };
  };
  const control = {
    title: 'ЖелДорЭкспедиция',
    book,
    failures,
    label: (status: string) => JDE_STATUS_LABELS[status as keyof typeof JDE_STATUS_LABELS] ?? status,
    view: (s: SandboxShipment) => ({ number: s.number, ...reply(s) }),
  };

  function statusByCode(url: URL, res: ServerResponse) {
    const mode = failures.take();
    if (mode) return fail(res, mode);
    const user = url.searchParams.get('user') ?? '';
    const token = url.searchParams.get('token') ?? '';
    if (!accounts.some((a) => a.client_id === user && a.access_token === token))
      return sendJson(res, 401, { error: 'Неверный пользователь или токен' });
    const wait = bucket.take(user);
    if (wait)
      return sendJson(
        res,
        429,
        { error: 'Превышен лимит запросов' },
        { 'retry-after': String(Math.ceil(wait / 1000)) },
      );
    const ttn = url.searchParams.get('ttn')?.trim();
    if (!ttn) return sendJson(res, 400, { error: 'Не указан номер накладной (ttn)' });
    const shipment = book.get(ttn);
    // an unknown waybill: an empty list, as JDE answers a search with nothing found
    sendJson(res, 200, shipment ? reply(shipment) : []);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const path = url.pathname.replace(/(.)\/+$/, '$1');
    if (await handleControl(req, res, path, control)) return;
    if (path === '/vD/cargos/status-by-code' && req.method === 'GET') return statusByCode(url, res);
    sendJson(res, 404, { error: 'Метод не найден' });
  }

  const sandbox = await startHttpSandbox(
    'jde',
    options.host ?? '127.0.0.1',
    options.port,
    handle,
    options.log,
  );
  options.log?.info({ url: sandbox.url }, 'jde sandbox: listening');
  return sandbox;
}
