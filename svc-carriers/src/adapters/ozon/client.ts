import { CARRIER_MESSAGES, type OzonPosting } from '@caravan/contracts';
import { CarrierError, type Carrier, type CarrierCredentials, type ShipmentState } from '../carrier';
import { isTimeout, MAX_RETRY_WAIT_MS, networkReason, realSleep, retryAfterMs } from '../vendorCall';
import { ozonStage, toOzonPosting, toShipmentState } from './mapping';
import type { OzonErrorReply, OzonPostingReply, OzonPostingRequest } from './types';

export type OzonClientOptions = {
  /** 'https://api-seller.ozon.ru', or the sandbox's url */
  baseUrl: string;
  /** how long one call may take; 10 s */
  timeoutMs?: number;
  /** the background sync's budget with Ozon, calls a second (OZON_RPS); 10 */
  requestsPerSecond?: number;
  /** how the client waits before its one retry (tests pass a recorder) */
  sleep?: (ms: number) => Promise<void>;
  /** the clock a status is stamped with when Ozon confirms it */
  now?: () => Date;
};

/** The words the user reads; the vendor's own message goes after a colon where it has one. */
export const OZON_MESSAGES = {
  notFound: (posting: string) => `отправление Ozon ${posting} не найдено`,
  auth: (vendorMessage: string) =>
    CARRIER_MESSAGES.refused('ozon', `неверные данные api (Client-Id, Api-Key): ${vendorMessage}`),
  rateLimited: (seconds: number) =>
    CARRIER_MESSAGES.refused('ozon', `слишком много запросов, повторите через ${seconds} с`),
  timeout: (seconds: number) =>
    CARRIER_MESSAGES.noAnswer('ozon', `нет ответа за ${String(seconds).replace('.', ',')} с`),
  unreachable: (reason: string) => CARRIER_MESSAGES.noAnswer('ozon', `нет связи (${reason})`),
  httpError: (status: number) => CARRIER_MESSAGES.noAnswer('ozon', `ошибка HTTP ${status}`),
  badReply: CARRIER_MESSAGES.noAnswer('ozon', 'непонятный ответ'),
  emptyNumber: 'укажите номер отправления Ozon',
} as const;

/** The longest pause the client itself makes before its one retry of a 429; longer waits are the sync's. */
/** gRPC-style code Ozon puts in the body of a 404. */
const OZON_NOT_FOUND_CODE = 5;

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

const vendorMessage = (reply: unknown): string => {
  const message = isObject(reply) ? (reply as Partial<OzonErrorReply>).message : undefined;
  return typeof message === 'string' ? message : '';
};

type Answer = { status: number; headers: Headers; text: string };

/**
 * The Ozon Seller API over HTTP (vendor-apis §5): POST JSON with `Client-Id` and `Api-Key`; refusals are
 * `{code, message, details}`. Implements Carrier (status polling by posting number, one per call) and
 * answers /api/ozon_posting_get with `getPosting`. Credentials travel only in the headers, never in logs
 * or messages.
 */
export class OzonClient implements Carrier {
  readonly vendor = 'ozon' as const;
  readonly batchSize = 1;
  /**
   * Ozon publishes no per-method budget for /v3/posting/fbs/get; it answers 429 (code 8) when a seller
   * goes over. 10 rps is our conservative guess, well under what sellers report using (OZON_RPS).
   */
  readonly rateLimit: { requestsPerSecond: number };
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => Date;

  constructor(options: OzonClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.rateLimit = { requestsPerSecond: options.requestsPerSecond ?? 10 };
    this.sleep = options.sleep ?? realSleep;
    this.now = options.now ?? (() => new Date());
  }

  stageFor(vendorStatus: string) {
    return ozonStage(vendorStatus);
  }

  /** The posting as the card shows it; CarrierError 'not_found' when Ozon does not know the number. */
  async getPosting(credentials: CarrierCredentials, postingNumber: string): Promise<OzonPosting> {
    const number = postingNumber.trim();
    if (!number) throw new CarrierError('ozon', 'refused', OZON_MESSAGES.emptyNumber);
    const request: OzonPostingRequest = { posting_number: number, with: { analytics_data: false } };
    try {
      const reply = await this.post<OzonPostingReply>('/v3/posting/fbs/get', credentials, request);
      if (!isObject(reply.result) || typeof reply.result.status !== 'string')
        throw new CarrierError('ozon', 'unavailable', OZON_MESSAGES.badReply);
      return toOzonPosting(reply.result);
    } catch (error) {
      if (error instanceof CarrierError && error.kind === 'not_found')
        throw new CarrierError('ozon', 'not_found', OZON_MESSAGES.notFound(number));
      throw error;
    }
  }

  /** One posting per call (batchSize 1); postings Ozon does not know are left out. */
  async getStatuses(credentials: CarrierCredentials, numbers: readonly string[]): Promise<ShipmentState[]> {
    const states: ShipmentState[] = [];
    for (const number of numbers) {
      try {
        states.push(toShipmentState(await this.getPosting(credentials, number), this.now()));
      } catch (error) {
        if (!(error instanceof CarrierError && error.kind === 'not_found')) throw error;
      }
    }
    return states;
  }

  /** Every Ozon call is a read here: one retry after a network error, one after a 429. */
  private async post<T>(path: string, credentials: CarrierCredentials, body: unknown): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let answer: Answer;
      try {
        answer = await this.send(path, credentials, body);
      } catch (error) {
        if (isTimeout(error))
          throw new CarrierError('ozon', 'unavailable', OZON_MESSAGES.timeout(this.timeoutMs / 1000));
        if (attempt === 1) continue;
        throw new CarrierError('ozon', 'unavailable', OZON_MESSAGES.unreachable(networkReason(error)));
      }
      if (answer.status === 429) {
        const wait = retryAfterMs(answer.headers.get('retry-after'));
        if (attempt === 1 && wait <= MAX_RETRY_WAIT_MS) {
          await this.sleep(wait);
          continue;
        }
        throw new CarrierError(
          'ozon',
          'rate_limited',
          OZON_MESSAGES.rateLimited(Math.ceil(wait / 1000)),
          wait,
        );
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
        'Client-Id': credentials.client_id,
        'Api-Key': credentials.access_token,
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  private interpret<T>({ status, text }: Answer): T {
    const reply = parseJson(text);
    if (status >= 200 && status < 300) {
      if (isObject(reply)) return reply as T;
      throw new CarrierError('ozon', 'unavailable', OZON_MESSAGES.badReply);
    }
    const message = vendorMessage(reply);
    if (status === 401 || status === 403)
      throw new CarrierError('ozon', 'auth', OZON_MESSAGES.auth(message || `HTTP ${status}`));
    if (status === 404 || (isObject(reply) && reply.code === OZON_NOT_FOUND_CODE))
      throw new CarrierError('ozon', 'not_found', CARRIER_MESSAGES.refused('ozon', message || 'не найдено'));
    if (status >= 500 || !message)
      throw new CarrierError('ozon', 'unavailable', OZON_MESSAGES.httpError(status));
    throw new CarrierError('ozon', 'refused', CARRIER_MESSAGES.refused('ozon', message));
  }
}
