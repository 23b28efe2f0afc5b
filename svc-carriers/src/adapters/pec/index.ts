import type { Logger } from '@caravan/service-kit';
import { z } from 'zod';
import type { Carrier, VendorSetup } from '../carrier';
import { PecClient } from './client';
import { startPecSandbox } from './sandbox';

export { PecClient, PEC_API_URL, type PecClientOptions } from './client';
export {
  PEC_SANDBOX_ACCOUNT,
  PEC_SANDBOX_SEQUENCE,
  startPecSandbox,
  type PecSandboxOptions,
} from './sandbox';
export { pecDateTime, pecMoney, type PecDetails } from './mapping';

/** An unset or empty variable takes the default (docker-compose passes empty strings). */
const orDefault = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema);

const Env = z.object({
  /** 'https://kabinet.pecom.ru/api/v1' (PEC_API_URL); empty = the built-in sandbox */
  PEC_URL: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]).default(''),
  PEC_SANDBOX_PORT: orDefault(z.coerce.number().int().min(0).max(65535).default(0)),
  PEC_SANDBOX_HOST: orDefault(z.string().default('127.0.0.1')),
  /** the sandbox's calls a second per login before it answers 429 */
  PEC_SANDBOX_RPS: orDefault(z.coerce.number().positive().default(50)),
  /** the background sync's budget with PEC, calls a second, all replicas together (a guess: PEC publishes none) */
  PEC_RPS: orDefault(z.coerce.number().positive().default(5)),
  /** one call's limit, ms */
  PEC_TIMEOUT_MS: orDefault(z.coerce.number().int().positive().default(10_000)),
});
export type PecConfig = z.infer<typeof Env>;
export const pecConfig = (env: Record<string, string | undefined>): PecConfig => Env.parse(env);

/** The PEC client against PEC_URL when set; else the built-in sandbox, started, and the client pointed at it. */
export async function createPec(
  env: Record<string, string | undefined>,
  log: Logger,
): Promise<VendorSetup<Carrier>> {
  const config = pecConfig(env);
  const options = { timeoutMs: config.PEC_TIMEOUT_MS, requestsPerSecond: config.PEC_RPS };
  if (config.PEC_URL)
    return { adapter: new PecClient({ baseUrl: config.PEC_URL, ...options }), sandbox: null };
  const sandbox = await startPecSandbox({
    host: config.PEC_SANDBOX_HOST,
    port: config.PEC_SANDBOX_PORT,
    rps: config.PEC_SANDBOX_RPS,
    log,
  });
  log.info({ url: sandbox.url }, `carriers: no PEC_URL, using the built-in PEC sandbox at ${sandbox.url}`);
  return { adapter: new PecClient({ baseUrl: `${sandbox.url}/api/v1`, ...options }), sandbox };
}
