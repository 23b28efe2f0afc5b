import type { TrackedCarrier } from '@caravan/contracts';
import type { Logger } from '@caravan/service-kit';
import type { Carrier, CarrierCredentials, VendorSetup, WaybillTracker } from './carrier';
import { createCdek, type CdekClient } from './cdek';
import { CNT_SANDBOX_ACCOUNT, createCnt } from './cnt';
import { createJde } from './jde';
import { createOzon } from './ozon';
import { createPec } from './pec';

export type CarrierSetup = {
  carriers: Map<TrackedCarrier, Carrier>;
  /** CDEK's own client: subscribing its webhook is CDEK-only. */
  cdek: CdekClient;
  /** The Chinese waybill tracker (17TRACK or its sandbox). */
  tracker: WaybillTracker;
  /**
   * The tracker account (its 17token): CNT_API_KEY, or the sandbox's account when the sandbox runs;
   * null when a real tracker is configured without a key (registration then refuses in words).
   */
  trackerAccount: CarrierCredentials | null;
  /** The built-in sandboxes started because no vendor URL is configured: stopped with the service. */
  sandboxes: Array<NonNullable<VendorSetup<unknown>['sandbox']>>;
};

/**
 * Every vendor's adapter (docs/adr/0020): the real client when the environment names the vendor's URL,
 * the built-in sandbox speaking the vendor's protocol otherwise.
 */
export async function createCarriers(
  env: Record<string, string | undefined>,
  log: Logger,
): Promise<CarrierSetup> {
  const cdek = await createCdek(env, log);
  const setups: Array<VendorSetup<Carrier>> = [
    cdek,
    await createPec(env, log),
    await createJde(env, log),
    await createOzon(env, log),
  ];
  const cnt = await createCnt(env, log);
  const key = env.CNT_API_KEY?.trim();
  return {
    carriers: new Map(setups.map((s) => [s.adapter.vendor, s.adapter])),
    cdek: cdek.adapter,
    tracker: cnt.adapter,
    trackerAccount: key ? { client_id: '', access_token: key } : cnt.sandbox ? CNT_SANDBOX_ACCOUNT : null,
    sandboxes: [...setups, cnt].flatMap((s) => (s.sandbox ? [s.sandbox] : [])),
  };
}
