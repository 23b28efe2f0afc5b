import type { Logger } from '@caravan/service-kit';
import { z } from 'zod';
import type { VendorSetup, WaybillTracker } from '../carrier';
import { CntClient } from './client';
import { startCntSandbox } from './sandbox';

export { CntClient, CNT_MESSAGES, CNT_NUMBERS_PER_CALL, cntSign, type CntClientOptions } from './client';
export { arrivedText, cityOfTag, toTrackedWaybill } from './mapping';
export {
  startCntSandbox,
  cntSandboxSteps,
  CNT_SANDBOX_ACCOUNT,
  type CntSandbox,
  type CntSandboxOptions,
} from './sandbox';

/** An unset or empty variable takes the default (docker-compose passes empty strings). */
const orDefault = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema);

const Env = z.object({
  /** 'https://api.17track.net/track/v2.2'; empty = the built-in sandbox */
  CNT_URL: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]).default(''),
  CNT_SANDBOX_PORT: orDefault(z.coerce.number().int().min(0).max(65535).default(0)),
  CNT_SANDBOX_HOST: orDefault(z.string().default('127.0.0.1')),
  /** requests per second per key the sandbox allows before 429 */
  CNT_SANDBOX_RPS: orDefault(z.coerce.number().positive().default(50)),
  /** where the sandbox POSTs signed TRACKING_UPDATED pushes (svc-carriers' webhook); empty = nowhere */
  CNT_SANDBOX_PUSH_URL: z.string().default(''),
  /** one call's limit, ms */
  CNT_TIMEOUT_MS: orDefault(z.coerce.number().int().positive().default(10_000)),
});
export type CntConfig = z.infer<typeof Env>;
export const cntConfig = (env: Record<string, string | undefined>): CntConfig => Env.parse(env);

/**
 * The Chinese waybill tracker for svc-carriers (ARCHITECTURE §9): 17TRACK at CNT_URL when set; otherwise the
 * built-in sandbox is started and the same client talks to it. The key (17token) comes with each call
 * (CNT_SANDBOX_ACCOUNT for the sandbox).
 */
export async function createCnt(
  env: Record<string, string | undefined>,
  log: Logger,
): Promise<VendorSetup<WaybillTracker>> {
  const config = cntConfig(env);
  if (config.CNT_URL)
    return {
      adapter: new CntClient({ baseUrl: config.CNT_URL, timeoutMs: config.CNT_TIMEOUT_MS }),
      sandbox: null,
    };
  const sandbox = await startCntSandbox({
    host: config.CNT_SANDBOX_HOST,
    port: config.CNT_SANDBOX_PORT,
    rps: config.CNT_SANDBOX_RPS,
    pushUrl: config.CNT_SANDBOX_PUSH_URL,
    log,
  });
  log.info({ url: sandbox.url }, `cnt: no CNT_URL, using the built-in 17TRACK sandbox at ${sandbox.url}`);
  return {
    adapter: new CntClient({ baseUrl: `${sandbox.url}/track/v2.2`, timeoutMs: config.CNT_TIMEOUT_MS }),
    sandbox,
  };
}
