import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  PEC_CODES_PER_CALL,
  PEC_DELIVERED_STATUSES,
  PEC_NUMBER_LENGTH,
  PEC_TO_DOOR_STATUSES,
} from '@caravan/contracts';
import type { Logger } from '@caravan/service-kit';
import type { CarrierCredentials } from '../carrier';
import {
  FailureInjector,
  handleControl,
  moscowLocal,
  randomDigits,
  readBody,
  sendJson,
  ShipmentBook,
  startHttpSandbox,
  TokenBucket,
  type FailureMode,
  type RunningSandbox,
  type SandboxShipment,
} from '../sandboxKit';
import type { PecCargoInfo, PecCargoStatus, PecErrorEnvelope, PecStatusReply } from './types';

/**
 * The built-in PEC sandbox: a node:http server speaking the cabinet API's status call
 * (POST /api/v1/cargos/status/, HTTP Basic, PEC's error envelope), with cargos in memory, a rate limit per
 * login, failure injection and the control endpoints and page of sandboxKit.
 */

/** The login and API key the sandbox accepts (the demo seed gives them to the demo operator). */
export const PEC_SANDBOX_ACCOUNT: CarrierCredentials = {
  client_id: 'caravan-demo',
  access_token: 'pec-sandbox-api-key-0001',
};

/** A cargo's way from acceptance to the door (texts as contracts' PEC lists). */
export const PEC_SANDBOX_SEQUENCE = [
  'Принят к перевозке',
  'В пути',
  'Прибыл',
  'Выполняется адресная доставка',
  'Доставлен получателю',
] as const;

/** Statuses PEC reports besides the ones the order stages name (vendor-apis §3). */
const PEC_OTHER_STATUSES = [
  'Аннулировано до приемки груза',
  'Заявка на забор зарегистрирована',
  'Ожидается передача груза от отправителя',
  'Возвращен отправителю',
  'Оформлен',
  'Отправлен на возврат',
  'Утилизирован',
  'Изъят на таможне',
  'Возврат груза отправителю',
];
const PEC_KNOWN = [...PEC_TO_DOOR_STATUSES, ...PEC_DELIVERED_STATUSES, ...PEC_OTHER_STATUSES];
const PEC_FINAL = [
  ...PEC_DELIVERED_STATUSES,
  'Аннулировано до приемки груза',
  'Возвращен отправителю',
  'Утилизирован',
  'Изъят на таможне',
];

/** Which event date a status sets. */
const STATUS_DATE: Record<string, Array<keyof PecCargoInfo>> = {
  'Принят к перевозке': ['takeOnStockDateTime'],
  'Принят на ПВЗ': ['takeOnStockDateTime'],
  'В пути': ['sendingDateTime'],
  'В пути на терминал': ['sendingDateTime'],
  Прибыл: ['arrivalDateTime'],
  'Прибыл частично': ['arrivalDateTime'],
  'Прибыл. Ожидает размещения': ['arrivalDateTime'],
  'Выдан получателю': ['giveOutDateTime', 'receivedByClientDateTime'],
  'Доставлен получателю': ['receivedByClientDateTime'],
};

const DAY = 24 * 3600_000;

export interface PecSandboxOptions {
  host?: string;
  /** 0 = any free port */
  port: number;
  /** calls a second per login before 429; 50 */
  rps?: number;
  accounts?: CarrierCredentials[];
  now?: () => Date;
  log?: Logger;
}

const envelope = (status: number, title: string, message: string, fields?: string[]): PecErrorEnvelope => ({
  error: { title, message, status, fields: fields?.map((m) => ({ field: 'cargoCodes', message: m })) ?? [] },
});

function sendError(res: ServerResponse, status: number, title: string, message: string, headers = {}) {
  sendJson(res, status, envelope(status, title, message), headers);
}

/** The sandbox's facts of a cargo: the dates its statuses set, the plan, a cost of services. */
function cargoStatus(shipment: SandboxShipment): PecCargoStatus {
  const info: PecCargoInfo = {
    cargoStatus: shipment.history[shipment.history.length - 1]!.status,
    arrivalPlanDateTime: moscowLocal(new Date(shipment.createdAt.getTime() + 3 * DAY)),
    deliveryPlanDate: moscowLocal(new Date(shipment.createdAt.getTime() + 4 * DAY)).slice(0, 10),
  };
  for (const { status, at } of shipment.history)
    for (const field of STATUS_DATE[status] ?? [])
      (info as unknown as Record<string, string>)[field] = moscowLocal(at);
  const tail = Number(shipment.number.slice(-3)) || 0;
  return {
    cargo: {
      code: shipment.number,
      cargoBarCode: `${shipment.number}01`,
      description: 'Сборный груз',
      amount: 1 + (tail % 4),
      weight: 12.5 + (tail % 40),
      volume: 0.12,
    },
    info,
    services: { sum: `${1200 + tail}.50` },
    sender: { city: 'Москва' },
    receiver: { city: 'Новосибирск' },
  };
}

function basicCredentials(req: IncomingMessage): CarrierCredentials | null {
  const m = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (!m) return null;
  const text = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  return colon < 0 ? null : { client_id: text.slice(0, colon), access_token: text.slice(colon + 1) };
}

/** A held reply ('timeout') never answers: the client's own timeout has to end it. */
function fail(res: ServerResponse, mode: FailureMode): void {
  if (mode === '500') return sendError(res, 500, 'Internal Server Error', 'Внутренняя ошибка сервера');
  if (mode === '429')
    return sendError(res, 429, 'Too Many Requests', 'Превышен лимит запросов', { 'retry-after': '1' });
  if (mode === 'malformed') {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end('{"cargos": [{"cargo": {"code": "');
  }
}

export async function startPecSandbox(options: PecSandboxOptions): Promise<RunningSandbox> {
  const now = options.now ?? (() => new Date());
  const accounts = options.accounts ?? [PEC_SANDBOX_ACCOUNT];
  // the bucket runs on real time even when the status clock is a test's
  const bucket = new TokenBucket(options.rps ?? 50);
  const failures = new FailureInjector();
  const book = new ShipmentBook(
    PEC_SANDBOX_SEQUENCE,
    PEC_KNOWN,
    PEC_FINAL,
    (n) => new RegExp(`^\\d{${PEC_NUMBER_LENGTH}}$`).test(n),
    () => randomDigits(PEC_NUMBER_LENGTH),
    now,
  );
  const control = {
    title: 'ПЭК',
    book,
    failures,
    label: (status: string) => status,
    view: (s: SandboxShipment) => ({ number: s.number, status: book.current(s), ...cargoStatus(s) }),
  };

  async function statusCall(req: IncomingMessage, res: ServerResponse) {
    const mode = failures.take();
    if (mode) return fail(res, mode);
    const who = basicCredentials(req);
    if (!who)
      return sendError(res, 401, 'Unauthorized', 'Требуется авторизация', { 'www-authenticate': 'Basic' });
    if (!accounts.some((a) => a.client_id === who.client_id && a.access_token === who.access_token))
      return sendError(res, 403, 'Forbidden', 'Неверный логин или ключ API');
    const wait = bucket.take(who.client_id);
    if (wait)
      return sendError(res, 429, 'Too Many Requests', 'Превышен лимит запросов', {
        'retry-after': String(Math.ceil(wait / 1000)),
      });
    let codes: unknown;
    try {
      codes = (JSON.parse(await readBody(req)) as { cargoCodes?: unknown }).cargoCodes;
    } catch {
      return sendError(res, 400, 'Bad Request', 'Тело запроса не является JSON');
    }
    if (!Array.isArray(codes) || !codes.length || !codes.every((c) => typeof c === 'string'))
      return sendError(res, 400, 'Bad Request', 'Не указаны коды грузов (cargoCodes)');
    if (codes.length > PEC_CODES_PER_CALL)
      return sendJson(
        res,
        400,
        envelope(400, 'Bad Request', 'Ошибка валидации', [
          `Количество кодов грузов не должно превышать ${PEC_CODES_PER_CALL}`,
        ]),
      );
    const reply: PecStatusReply = {
      cargos: (codes as string[])
        .map((code) => book.get(code.trim()))
        .filter((s): s is SandboxShipment => !!s)
        .map(cargoStatus),
    };
    sendJson(res, 200, reply);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? '/', 'http://sandbox').pathname.replace(/(.)\/+$/, '$1');
    if (await handleControl(req, res, path, control)) return;
    if (path === '/api/v1/cargos/status' && req.method === 'POST') return statusCall(req, res);
    sendError(res, 404, 'Not Found', 'Метод API не найден');
  }

  const sandbox = await startHttpSandbox(
    'pec',
    options.host ?? '127.0.0.1',
    options.port,
    handle,
    options.log,
  );
  options.log?.info({ url: sandbox.url }, 'pec sandbox: listening');
  return sandbox;
}
