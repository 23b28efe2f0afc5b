import { CARRIER_MESSAGES, stageForCarrierStatus, type OrderStage } from '@caravan/contracts';
import { CarrierError, type Carrier, type CarrierCredentials, type ShipmentState } from '../carrier';
import { callVendor, DEFAULT_TIMEOUT_MS, NO_ANSWER_DETAILS, realSleep, type Sleep } from '../vendorCall';
import { jdeErrorMessage, toShipmentState } from './mapping';
import type { JdeStatusByCode } from './types';

export const JDE_API_URL = 'https://api.jde.ru/vD';

export interface JdeClientOptions {
  /** 'https://api.jde.ru/vD', or the sandbox's '<url>/vD' */
  baseUrl: string;
  /** one call's limit; 10 s */
  timeoutMs?: number;
  /** the background sync's budget with JDE, calls a second (JDE_RPS); 5 */
  requestsPerSecond?: number;
  sleep?: Sleep;
  now?: () => Date;
}

export const JDE_NOT_FOUND = (number: string) => CARRIER_MESSAGES.refused('jde', `груз ${number} не найден`);

const isStatus = (value: unknown): value is JdeStatusByCode => {
  const s = value as JdeStatusByCode | null;
  return !!s && typeof s === 'object' && typeof s.status === 'string' && !!s.status.trim();
};

/**
 * ЖелДорЭкспедиция (vendor-apis §4): `user` and `token` in the query of each private call; the status of one
 * waybill (ttn) a call. No webhooks: the sync polls.
 */
export class JdeClient implements Carrier {
  readonly vendor = 'jde' as const;
  readonly batchSize = 1;
  /** JDE publishes no limit: a modest guess (JDE_RPS). */
  readonly rateLimit: { requestsPerSecond: number };
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly sleep: Sleep;
  private readonly now: () => Date;

  constructor(options: JdeClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.rateLimit = { requestsPerSecond: options.requestsPerSecond ?? 5 };
    this.sleep = options.sleep ?? realSleep;
    this.now = options.now ?? (() => new Date());
  }

  stageFor(vendorStatus: string): OrderStage | null {
    return stageForCarrierStatus('jde', vendorStatus);
  }

  /**
   * Asked for one number (batchSize 1, the sync button), a number JDE does not know is a
   * CarrierError('not_found'); asked for several, unknown ones are left out as the Carrier interface says.
   */
  async getStatuses(credentials: CarrierCredentials, numbers: readonly string[]): Promise<ShipmentState[]> {
    const ttns = [...new Set(numbers.map((n) => n.trim()).filter(Boolean))];
    const states: ShipmentState[] = [];
    for (const ttn of ttns) {
      try {
        states.push(await this.status(credentials, ttn));
      } catch (error) {
        if (ttns.length > 1 && error instanceof CarrierError && error.kind === 'not_found') continue;
        throw error;
      }
    }
    return states;
  }

  private async status(credentials: CarrierCredentials, ttn: string): Promise<ShipmentState> {
    const query = new URLSearchParams({ ttn, user: credentials.client_id, token: credentials.access_token });
    const reply = await callVendor({
      vendor: 'jde',
      url: `${this.baseUrl}/cargos/status-by-code?${query}`,
      init: { method: 'GET', headers: { accept: 'application/json' } },
      timeoutMs: this.timeoutMs,
      sleep: this.sleep,
      idempotent: true,
      vendorMessage: jdeErrorMessage,
    });
    if (reply.status === 404) throw new CarrierError('jde', 'not_found', JDE_NOT_FOUND(ttn));
    if (reply.status >= 400) {
      const words = jdeErrorMessage(reply.body) ?? `ошибка запроса (HTTP ${reply.status})`;
      throw new CarrierError('jde', 'refused', CARRIER_MESSAGES.refused('jde', words));
    }
    const body = Array.isArray(reply.body) ? reply.body[0] : reply.body;
    if (Array.isArray(reply.body) && !reply.body.length)
      throw new CarrierError('jde', 'not_found', JDE_NOT_FOUND(ttn));
    if (!isStatus(body)) {
      const words = jdeErrorMessage(body);
      if (words) throw new CarrierError('jde', 'refused', CARRIER_MESSAGES.refused('jde', words));
      throw new CarrierError(
        'jde',
        'unavailable',
        CARRIER_MESSAGES.noAnswer('jde', NO_ANSWER_DETAILS.malformed),
      );
    }
    return toShipmentState(ttn, body, this.now());
  }
}
