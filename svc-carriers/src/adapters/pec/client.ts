import {
  CARRIER_MESSAGES,
  PEC_CODES_PER_CALL,
  stageForCarrierStatus,
  type OrderStage,
} from '@caravan/contracts';
import { CarrierError, type Carrier, type CarrierCredentials, type ShipmentState } from '../carrier';
import { pecErrorMessage, toShipmentState } from './mapping';
import type { PecCargoStatus, PecStatusReply, PecStatusRequest } from './types';
import { callVendor, DEFAULT_TIMEOUT_MS, NO_ANSWER_DETAILS, realSleep, type Sleep } from '../vendorCall';

export const PEC_API_URL = 'https://kabinet.pecom.ru/api/v1';

export interface PecClientOptions {
  /** 'https://kabinet.pecom.ru/api/v1', or the sandbox's '<url>/api/v1' */
  baseUrl: string;
  /** one call's limit; 10 s */
  timeoutMs?: number;
  /** the background sync's budget with PEC, calls a second (PEC_RPS); 5 */
  requestsPerSecond?: number;
  /** how the client waits out a 429 (tests pass one that records the wait) */
  sleep?: Sleep;
  now?: () => Date;
}

const basicAuth = ({ client_id, access_token }: CarrierCredentials) =>
  `Basic ${Buffer.from(`${client_id}:${access_token}`, 'utf8').toString('base64')}`;

const isCargo = (value: unknown): value is PecCargoStatus => {
  const c = value as PecCargoStatus | null;
  return (
    !!c &&
    typeof c.cargo?.code === 'string' &&
    typeof c.info?.cargoStatus === 'string' &&
    !!c.info.cargoStatus.trim()
  );
};

/**
 * PEC's cabinet API (vendor-apis §3): HTTP Basic with the cabinet login and an API key; the status of up to
 * 15 cargo codes a call (a longer list is split here). PEC has no webhooks: the sync polls.
 */
export class PecClient implements Carrier {
  readonly vendor = 'pec' as const;
  readonly batchSize = PEC_CODES_PER_CALL;
  /** PEC publishes no limit: a guess modest enough for a cabinet shared with 1C and the site (PEC_RPS). */
  readonly rateLimit: { requestsPerSecond: number };
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly sleep: Sleep;
  private readonly now: () => Date;

  constructor(options: PecClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.rateLimit = { requestsPerSecond: options.requestsPerSecond ?? 5 };
    this.sleep = options.sleep ?? realSleep;
    this.now = options.now ?? (() => new Date());
  }

  stageFor(vendorStatus: string): OrderStage | null {
    return stageForCarrierStatus('pec', vendorStatus);
  }

  /** One ShipmentState per code PEC knows; codes it does not know are left out. */
  async getStatuses(credentials: CarrierCredentials, numbers: readonly string[]): Promise<ShipmentState[]> {
    const codes = [...new Set(numbers.map((n) => n.trim()).filter(Boolean))];
    const states: ShipmentState[] = [];
    for (let at = 0; at < codes.length; at += PEC_CODES_PER_CALL) {
      const batch = codes.slice(at, at + PEC_CODES_PER_CALL);
      const asked = new Set(batch);
      for (const cargo of await this.statusCall(credentials, batch))
        if (asked.has(cargo.cargo.code)) states.push(toShipmentState(cargo, this.now()));
    }
    return states;
  }

  private async statusCall(credentials: CarrierCredentials, cargoCodes: string[]) {
    const request: PecStatusRequest = { cargoCodes };
    const reply = await callVendor({
      vendor: 'pec',
      url: `${this.baseUrl}/cargos/status/`,
      init: {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          accept: 'application/json',
          authorization: basicAuth(credentials),
        },
        body: JSON.stringify(request),
      },
      timeoutMs: this.timeoutMs,
      sleep: this.sleep,
      // a status query changes nothing at PEC
      idempotent: true,
      vendorMessage: pecErrorMessage,
    });
    if (reply.status >= 400) {
      const words = pecErrorMessage(reply.body) ?? `ошибка запроса (HTTP ${reply.status})`;
      throw new CarrierError('pec', 'refused', CARRIER_MESSAGES.refused('pec', words));
    }
    const cargos = (reply.body as Partial<PecStatusReply> | null)?.cargos;
    if (!Array.isArray(cargos))
      throw new CarrierError(
        'pec',
        'unavailable',
        CARRIER_MESSAGES.noAnswer('pec', NO_ANSWER_DETAILS.malformed),
      );
    return cargos.filter(isCargo);
  }
}
