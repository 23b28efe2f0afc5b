import type { Logger } from '@caravan/service-kit';
import { z } from 'zod';
import type { VendorSetup } from '../carrier';
import { OzonClient } from './client';
import { startOzonSandbox } from './sandbox';

export { OzonClient, OZON_MESSAGES, type OzonClientOptions } from './client';
export { postingWeightKg, toOzonPosting } from './mapping';
export {
  startOzonSandbox,
  OZON_SANDBOX_ACCOUNT,
  OZON_SANDBOX_SEQUENCE,
  type OzonSandbox,
  type OzonSandboxOptions,
} from './sandbox';

/** An unset or empty variable takes the default (docker-compose passes empty strings). */
const orDefault = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema);

const Env = z.object({
  /** 'https://api-seller.ozon.ru'; empty = the built-in sandbox */
  OZON_URL: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]).default(''),
  OZON_SANDBOX_PORT: orDefault(z.coerce.number().int().min(0).max(65535).default(0)),
  OZON_SANDBOX_HOST: orDefault(z.string().default('127.0.0.1')),
  /** requests per second per Client-Id the sandbox allows before 429 */
  OZON_SANDBOX_RPS: orDefault(z.coerce.number().positive().default(50)),
  /** the background sync's budget with Ozon, calls a second, all replicas together (a guess: Ozon publishes none per method) */
  OZON_RPS: orDefault(z.coerce.number().positive().default(10)),
  /** one call's limit, ms */
  OZON_TIMEOUT_MS: orDefault(z.coerce.number().int().positive().default(10_000)),
});
export type OzonConfig = z.infer<typeof Env>;
export const ozonConfig = (env: Record<string, string | undefined>): OzonConfig => Env.parse(env);

/**
 * Ozon for svc-carriers (ARCHITECTURE §9): the client against OZON_URL when set; otherwise the built-in
 * sandbox is started and the same client talks to it. The operator's Client-Id / Api-Key come with each
 * call (OZON_SANDBOX_ACCOUNT for the sandbox).
 */
export async function createOzon(
  env: Record<string, string | undefined>,
  log: Logger,
): Promise<VendorSetup<OzonClient>> {
  const config = ozonConfig(env);
  if (config.OZON_URL)
    return {
      adapter: new OzonClient({
        baseUrl: config.OZON_URL,
        timeoutMs: config.OZON_TIMEOUT_MS,
        requestsPerSecond: config.OZON_RPS,
      }),
      sandbox: null,
    };
  const sandbox = await startOzonSandbox({
    host: config.OZON_SANDBOX_HOST,
    port: config.OZON_SANDBOX_PORT,
    rps: config.OZON_SANDBOX_RPS,
    log,
  });
  log.info({ url: sandbox.url }, `ozon: no OZON_URL, using the built-in sandbox at ${sandbox.url}`);
  return {
    adapter: new OzonClient({
      baseUrl: sandbox.url,
      timeoutMs: config.OZON_TIMEOUT_MS,
      requestsPerSecond: config.OZON_RPS,
    }),
    sandbox,
  };
}
