import type { Logger } from '@caravan/service-kit';
import { z } from 'zod';
import type { Carrier, CarrierCredentials, VendorSetup } from '../carrier';
import { CdekClient } from './client';
import { startCdekSandbox } from './sandbox';

export { CdekClient, CDEK_MESSAGES, type CdekClientOptions } from './client';
export {
  startCdekSandbox,
  CDEK_SANDBOX_SEQUENCE,
  type CdekSandbox,
  type CdekSandboxOptions,
} from './sandbox';

/**
 * The credentials the built-in sandbox accepts: CDEK's public test account (vendor-apis §1, from
 * cdek-it/sdk2.0 Constants.php), so the same pair also works against api.edu.cdek.ru. The demo seed
 * gives them to the demo operator; any other pair gets CDEK's auth error.
 */
export const CDEK_SANDBOX_ACCOUNT: CarrierCredentials = {
  client_id: 'wqGwiQx0gg8mLtiEKsUinjVSICCjtTEP',
  access_token: 'RmAmgvSgSl1yirlz9QupbzOJVqhCxcP5',
};

/** An unset or empty variable takes the default (docker-compose passes empty strings). */
const orDefault = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema);

const Env = z.object({
  /** 'https://api.cdek.ru/v2' (or the test 'https://api.edu.cdek.ru/v2'); empty = the built-in sandbox */
  CDEK_URL: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]).default(''),
  CDEK_SANDBOX_PORT: orDefault(z.coerce.number().int().min(0).max(65535).default(0)),
  CDEK_SANDBOX_HOST: orDefault(z.string().default('127.0.0.1')),
  /** requests a second each sandbox account may make before it answers 429 */
  CDEK_SANDBOX_RPS: orDefault(z.coerce.number().positive().default(50)),
  /** the background sync's budget with CDEK, requests a second, all replicas together (a guess: CDEK publishes none) */
  CDEK_RPS: orDefault(z.coerce.number().positive().default(5)),
  /** how long one CDEK call may take, ms */
  CDEK_TIMEOUT_MS: orDefault(z.coerce.number().int().positive().default(10_000)),
  /** 1 = интернет-магазин (our reference and cash on delivery travel with the order), 2 = доставка */
  CDEK_ORDER_TYPE: orDefault(
    z.coerce
      .number()
      .pipe(z.union([z.literal(1), z.literal(2)]))
      .default(1),
  ),
});
export type CdekConfig = z.infer<typeof Env>;
export const cdekConfig = (env: Record<string, string | undefined>): CdekConfig => Env.parse(env);

/**
 * The CDEK adapter svc-carriers uses: the client against CDEK_URL when set; otherwise the built-in sandbox
 * is started (stop it on shutdown) and the same client talks to its `${url}/v2`.
 */
export async function createCdek(
  env: Record<string, string | undefined>,
  log: Logger,
): Promise<VendorSetup<Carrier> & { adapter: CdekClient }> {
  const config = cdekConfig(env);
  const clientOptions = {
    timeoutMs: config.CDEK_TIMEOUT_MS,
    orderType: config.CDEK_ORDER_TYPE,
    requestsPerSecond: config.CDEK_RPS,
  };
  if (config.CDEK_URL)
    return { adapter: new CdekClient({ baseUrl: config.CDEK_URL, ...clientOptions }), sandbox: null };
  const sandbox = await startCdekSandbox({
    host: config.CDEK_SANDBOX_HOST,
    port: config.CDEK_SANDBOX_PORT,
    requestsPerSecond: config.CDEK_SANDBOX_RPS,
    accounts: [
      { client_id: CDEK_SANDBOX_ACCOUNT.client_id, client_secret: CDEK_SANDBOX_ACCOUNT.access_token },
    ],
    log,
  });
  log.info({ url: sandbox.url }, `cdek: no CDEK_URL, using the built-in CDEK sandbox at ${sandbox.url}`);
  return { adapter: new CdekClient({ baseUrl: `${sandbox.url}/v2`, ...clientOptions }), sandbox };
}
