import type { Logger } from '@caravan/service-kit';
import { z } from 'zod';
import type { Carrier, VendorSetup } from '../carrier';
import { JdeClient } from './client';
import { startJdeSandbox } from './sandbox';

export { JdeClient, JDE_API_URL, type JdeClientOptions } from './client';
export {
  JDE_SANDBOX_ACCOUNT,
  JDE_SANDBOX_SEQUENCE,
  startJdeSandbox,
  type JdeSandboxOptions,
} from './sandbox';
export { jdeDateTime, jdeDay, type JdeDetails } from './mapping';
export { JDE_NOT_FOUND } from './client';

/** An unset or empty variable takes the default (docker-compose passes empty strings). */
const orDefault = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema);

const Env = z.object({
  /** 'https://api.jde.ru/vD' (JDE_API_URL); empty = the built-in sandbox */
  JDE_URL: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]).default(''),
  JDE_SANDBOX_PORT: orDefault(z.coerce.number().int().min(0).max(65535).default(0)),
  JDE_SANDBOX_HOST: orDefault(z.string().default('127.0.0.1')),
  /** the sandbox's calls a second per user before it answers 429 */
  JDE_SANDBOX_RPS: orDefault(z.coerce.number().positive().default(50)),
  /** the background sync's budget with JDE, calls a second, all replicas together (a guess: JDE publishes none) */
  JDE_RPS: orDefault(z.coerce.number().positive().default(5)),
  /** one call's limit, ms */
  JDE_TIMEOUT_MS: orDefault(z.coerce.number().int().positive().default(10_000)),
});
export type JdeConfig = z.infer<typeof Env>;
export const jdeConfig = (env: Record<string, string | undefined>): JdeConfig => Env.parse(env);

/** The JDE client against JDE_URL when set; else the built-in sandbox, started, and the client pointed at it. */
export async function createJde(
  env: Record<string, string | undefined>,
  log: Logger,
): Promise<VendorSetup<Carrier>> {
  const config = jdeConfig(env);
  const options = { timeoutMs: config.JDE_TIMEOUT_MS, requestsPerSecond: config.JDE_RPS };
  if (config.JDE_URL)
    return { adapter: new JdeClient({ baseUrl: config.JDE_URL, ...options }), sandbox: null };
  const sandbox = await startJdeSandbox({
    host: config.JDE_SANDBOX_HOST,
    port: config.JDE_SANDBOX_PORT,
    rps: config.JDE_SANDBOX_RPS,
    log,
  });
  log.info({ url: sandbox.url }, `carriers: no JDE_URL, using the built-in JDE sandbox at ${sandbox.url}`);
  return { adapter: new JdeClient({ baseUrl: `${sandbox.url}/vD`, ...options }), sandbox };
}
