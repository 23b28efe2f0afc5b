import { createHash, timingSafeEqual } from 'node:crypto';
import { CARRIER_MESSAGES, TRACKED_WAYBILL_MIN_EXCLUSIVE } from '@caravan/contracts';
import {
  CarrierError,
  type CarrierCredentials,
  type TrackedWaybill,
  type WaybillTracker,
  type WebhookRequest,
} from '../carrier';
import { isTimeout, MAX_RETRY_WAIT_MS, networkReason, realSleep, retryAfterMs } from '../vendorCall';
import { toTrackedWaybill } from './mapping';
import {
  CNT_CODES,
  type CntPush,
  type CntRegisterData,
  type CntRegisterItem,
  type CntTrackData,
} from './types';

export type CntClientOptions = {
  /** 'https://api.17track.net/track/v2.2', or the sandbox's url + '/track/v2.2' */
  baseUrl: string;
  /** how long one call may take; 10 s */
  timeoutMs?: number;
  /** how the client waits before its one retry (tests pass a recorder) */
  sleep?: (ms: number) => Promise<void>;
};

const SERVICE = 'сервис отслеживания посылок';

/** The words the user reads; 17TRACK's own message goes after a colon. */
export const CNT_MESSAGES = {
  tooShort: (waybill: string) =>
    `накладная ${waybill} не отслеживается: номер должен быть длиннее ${TRACKED_WAYBILL_MIN_EXCLUSIVE} символов`,
  rejected: (message: string) => `${SERVICE} отклонил накладную: ${message}`,
  refused: (message: string) => `${SERVICE} отказал: ${message}`,
  auth: (message: string) => `${SERVICE} не принял ключ api (17token): ${message}`,
  rateLimited: (seconds: number) => `${SERVICE}: слишком много запросов, повторите через ${seconds} с`,
  timeout: (seconds: number) =>
    CARRIER_MESSAGES.noAnswer('cnt', `нет ответа за ${String(seconds).replace('.', ',')} с`),
  unreachable: (reason: string) => CARRIER_MESSAGES.noAnswer('cnt', `нет связи (${reason})`),
  httpError: (status: number) => CARRIER_MESSAGES.noAnswer('cnt', `ошибка HTTP ${status}`),
  badReply: CARRIER_MESSAGES.noAnswer('cnt', 'непонятный ответ'),
  badSign: `уведомление ${SERVICE.replace('сервис', 'сервиса')} не прошло проверку подписи`,
  badPush: `непонятное уведомление ${SERVICE.replace('сервис', 'сервиса')}`,
  unknownEvent: (event: string) =>
    `уведомление ${SERVICE.replace('сервис', 'сервиса')} о событии ${event} не обрабатывается`,
} as const;

/** 17TRACK takes at most this many numbers per call (vendor-apis §6a). */
export const CNT_NUMBERS_PER_CALL = 40;

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

/** The first error 17TRACK names in a refused call. */
const replyError = (reply: unknown): string => {
  const errors = isObject(reply) && isObject(reply.data) ? reply.data.errors : undefined;
  const first = Array.isArray(errors) ? (errors[0] as { message?: unknown } | undefined) : undefined;
  return typeof first?.message === 'string' ? first.message : '';
};

const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** sha256_hex(rawBody + '/' + apiKey): how 17TRACK signs a push (vendor-apis §6a). */
export const cntSign = (rawBody: Buffer | string, apiKey: string) =>
  createHash('sha256')
    .update(Buffer.concat([Buffer.from(rawBody), Buffer.from(`/${apiKey}`, 'utf8')]))
    .digest('hex');

const sameText = (a: string, b: string) => {
  const [x, y] = [Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')];
  return x.length === y.length && timingSafeEqual(x, y);
};

type Answer = { status: number; headers: Headers; text: string };

/**
 * 17TRACK's Tracking API v2.2 over HTTP as the tracker of Chinese domestic waybills: register (with the
 * warehouse alias as tag), read the events, verify pushes. The key travels only in the `17token` header.
 */
export class CntClient implements WaybillTracker {
  /**
   * 17TRACK's v2 docs cap a key at 3 requests a second (recalled from its 'Request frequency' note;
   * vendor-apis gives no figure — verify with the account).
   */
  readonly rateLimit = { requestsPerSecond: 3 };
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(options: CntClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.sleep = options.sleep ?? realSleep;
  }

  /**
   * Registers the waybills longer than 10 characters, 40 per call; shorter ones are rejected here without
   * spending the account's registrations. A number 17TRACK already tracks counts as accepted.
   */
  async register(credentials: CarrierCredentials, waybills: ReadonlyArray<{ waybill: string; tag: string }>) {
    const accepted: string[] = [];
    const rejected: Array<{ waybill: string; message: string }> = [];
    const items: CntRegisterItem[] = [];
    for (const { waybill, tag } of waybills) {
      const number = waybill.trim();
      if (number.length <= TRACKED_WAYBILL_MIN_EXCLUSIVE)
        rejected.push({ waybill: number, message: CNT_MESSAGES.tooShort(number) });
      else items.push({ number, ...(tag.trim() ? { tag: tag.trim() } : {}) });
    }
    for (const part of chunks(items, CNT_NUMBERS_PER_CALL)) {
      const data = await this.post<CntRegisterData>('/register', credentials, part, false);
      accepted.push(...(data.accepted ?? []).map((a) => a.number));
      for (const r of data.rejected ?? []) {
        if (r.error?.code === CNT_CODES.alreadyRegistered) accepted.push(r.number);
        else rejected.push({ waybill: r.number, message: CNT_MESSAGES.rejected(r.error?.message ?? '') });
      }
    }
    return { accepted, rejected };
  }

  /** The waybill's status and events; null when 17TRACK does not track it (not registered). */
  async get(credentials: CarrierCredentials, waybill: string): Promise<TrackedWaybill | null> {
    const number = waybill.trim();
    const data = await this.post<CntTrackData>('/gettrackinfo', credentials, [{ number }], true);
    const found = (data.accepted ?? []).find((a) => a.number.toLowerCase() === number.toLowerCase());
    if (found) return toTrackedWaybill(found);
    const refusal = (data.rejected ?? []).find((r) => r.number.toLowerCase() === number.toLowerCase());
    if (!refusal || refusal.error?.code === CNT_CODES.notRegistered) return null;
    throw new CarrierError('cnt', 'refused', CNT_MESSAGES.refused(refusal.error?.message ?? ''));
  }

  /**
   * A push from 17TRACK: genuine when its `sign` header equals sha256_hex(rawBody + '/' + key) (compared in
   * constant time); then its TRACKING_UPDATED parsed. A replayed push parses to the same waybill state
   * again: telling it apart is the sync's job. Throws CarrierError 'refused' otherwise.
   */
  verifyPush(request: WebhookRequest, credentials: CarrierCredentials): TrackedWaybill {
    const header = request.headers.sign;
    const sign = (Array.isArray(header) ? header[0] : header) ?? '';
    if (!sign || !sameText(sign.toLowerCase(), cntSign(request.rawBody, credentials.access_token)))
      throw new CarrierError('cnt', 'refused', CNT_MESSAGES.badSign);
    const push = parseJson(request.rawBody.toString('utf8')) as Partial<CntPush> | undefined;
    if (!isObject(push) || !isObject(push.data) || typeof push.data.number !== 'string')
      throw new CarrierError('cnt', 'refused', CNT_MESSAGES.badPush);
    if (push.event !== 'TRACKING_UPDATED')
      throw new CarrierError('cnt', 'refused', CNT_MESSAGES.unknownEvent(String(push.event)));
    if (!isObject(push.data.track_info)) throw new CarrierError('cnt', 'refused', CNT_MESSAGES.badPush);
    return toTrackedWaybill(push.data as CntPush['data']);
  }

  /** One retry after a 429 (17TRACK did not act on it); one after a dropped connection for reads only. */
  private async post<T>(
    path: string,
    credentials: CarrierCredentials,
    body: unknown,
    read: boolean,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let answer: Answer;
      try {
        answer = await this.send(path, credentials, body);
      } catch (error) {
        if (isTimeout(error))
          throw new CarrierError('cnt', 'unavailable', CNT_MESSAGES.timeout(this.timeoutMs / 1000));
        if (read && attempt === 1) continue;
        throw new CarrierError('cnt', 'unavailable', CNT_MESSAGES.unreachable(networkReason(error)));
      }
      if (answer.status === 429) {
        const wait = retryAfterMs(answer.headers.get('retry-after'));
        if (attempt === 1 && wait <= MAX_RETRY_WAIT_MS) {
          await this.sleep(wait);
          continue;
        }
        throw new CarrierError('cnt', 'rate_limited', CNT_MESSAGES.rateLimited(Math.ceil(wait / 1000)), wait);
      }
      return this.interpret<T>(answer);
    }
  }

  private async send(path: string, credentials: CarrierCredentials, body: unknown): Promise<Answer> {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        '17token': credentials.access_token,
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  private interpret<T>({ status, text }: Answer): T {
    const reply = parseJson(text);
    const message = replyError(reply);
    if (status === 401 || status === 403)
      throw new CarrierError('cnt', 'auth', CNT_MESSAGES.auth(message || `HTTP ${status}`));
    if (status >= 200 && status < 300 && isObject(reply) && isObject(reply.data)) {
      if (reply.code === 0) return reply.data as T;
      if (reply.code === CNT_CODES.invalidKey)
        throw new CarrierError('cnt', 'auth', CNT_MESSAGES.auth(message));
      throw new CarrierError('cnt', 'refused', CNT_MESSAGES.refused(message || `code ${String(reply.code)}`));
    }
    if (status >= 200 && status < 300) throw new CarrierError('cnt', 'unavailable', CNT_MESSAGES.badReply);
    if (status >= 500 || !message)
      throw new CarrierError('cnt', 'unavailable', CNT_MESSAGES.httpError(status));
    throw new CarrierError('cnt', 'refused', CNT_MESSAGES.refused(message));
  }
}
