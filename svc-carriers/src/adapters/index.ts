import type { TrackedCarrier } from '@caravan/contracts';
import type { Logger } from '@caravan/service-kit';
import type { Carrier, VendorSetup, WaybillTracker } from './carrier';
import { createCdek, type CdekClient } from './cdek';
import { createJde } from './jde';
import { createPec } from './pec';

export type CarrierSetup = {
  carriers: Map<TrackedCarrier, Carrier>;
  /** CDEK's own client: subscribing its webhook is CDEK-only. */
  cdek: CdekClient;
  /** The Chinese tracker; null until its adapter is wired (ADR 0020). */
  tracker: WaybillTracker | null;
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
  const setups: Array<VendorSetup<Carrier>> = [];
  const cdek = await createCdek(env, log);
  setups.push(cdek, await createPec(env, log), await createJde(env, log));
  return {
    carriers: new Map(setups.map((s) => [s.adapter.vendor, s.adapter])),
    cdek: cdek.adapter,
    tracker: null,
    sandboxes: setups.flatMap((s) => (s.sandbox ? [s.sandbox] : [])),
  };
}
