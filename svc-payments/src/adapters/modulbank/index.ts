import type { Logger } from '@caravan/service-kit';
import { z } from 'zod';
import { ModulbankClient } from './client';
import { callbackSchedule, startSandboxAcquirer, type SandboxAcquirer } from './sandbox';

export {
  ModulbankClient,
  ACQUIRER_MESSAGES,
  type ModulbankClientOptions,
  type ModulbankTransaction,
} from './client';
export {
  startSandboxAcquirer,
  signedForm,
  callbackSchedule,
  SANDBOX_CALLBACK_SCHEDULE_MS,
  SANDBOX_TEST_CARD,
  type SandboxAcquirerOptions,
} from './sandbox';
export { qrPngBase64 } from './qr';

/** The sandbox's shop and secret: what the built-in sandbox and its client share when none is set. */
export const SANDBOX_MERCHANT = 'caravan-sandbox-merchant';
export const SANDBOX_SECRET = 'caravan-sandbox-secret-not-for-production';

/** An unset or empty variable takes the default (docker-compose passes empty strings). */
const orDefault = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema);

const Env = z.object({
  /** 'https://pay.modulbank.ru'; empty = the built-in sandbox */
  MODULBANK_URL: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]).default(''),
  MODULBANK_MERCHANT: orDefault(z.string().default(SANDBOX_MERCHANT)),
  MODULBANK_SECRET: orDefault(z.string().default(SANDBOX_SECRET)),
  /** '1': every payment goes to the bank as a test (testing=1) */
  MODULBANK_TESTING: orDefault(z.enum(['0', '1']).default('1')),
  ACQUIRER_SANDBOX_PORT: orDefault(z.coerce.number().int().min(0).max(65535).default(0)),
  ACQUIRER_SANDBOX_HOST: orDefault(z.string().default('127.0.0.1')),
  /** where payers' browsers reach the sandbox when not at its host (a host name or 'https://…') */
  ACQUIRER_SANDBOX_PUBLIC_HOST: z.string().default(''),
  /** the sandbox's pauses before repeated callback posts, seconds ('60,300,900,3600,10800'; empty = that) */
  ACQUIRER_SANDBOX_CALLBACK_SCHEDULE: z.string().default(''),
  /** reconciliation (ADR 0014): a payment pending this long without a callback is asked about; 300 */
  PAYMENTS_RECONCILE_AFTER_SECONDS: orDefault(z.coerce.number().min(0).default(300)),
  /** how often the reconciliation runs, seconds; 60 (0 = never) */
  PAYMENTS_RECONCILE_EVERY_SECONDS: orDefault(z.coerce.number().min(0).default(60)),
});
export type AcquirerConfig = z.infer<typeof Env>;
export const acquirerConfig = (env: Record<string, string | undefined>): AcquirerConfig => Env.parse(env);

/**
 * Under NODE_ENV=production the bank must be real: a URL, its own secret, test mode off — the sandbox
 * (whose payer page pays without asking anyone) never takes a production service's payments.
 */
export function assertFitForProduction(config: AcquirerConfig, nodeEnv = process.env.NODE_ENV) {
  if (nodeEnv !== 'production') return;
  const problems = [
    !config.MODULBANK_URL && 'MODULBANK_URL is not set (the sandbox bank would take payments)',
    config.MODULBANK_SECRET === SANDBOX_SECRET && 'MODULBANK_SECRET is the sandbox one',
    config.MODULBANK_TESTING === '1' && 'MODULBANK_TESTING=1 (test mode)',
  ].filter(Boolean);
  if (problems.length) throw new Error(`acquirer not fit for production: ${problems.join('; ')}`);
}

/**
 * The acquirer svc-payments uses (ARCHITECTURE §9): the Modulbank client against MODULBANK_URL when
 * set; otherwise the built-in sandbox is started and the same client talks to it. `sandbox` is that
 * server (stop it on shutdown), null with a real bank.
 */
export async function createAcquirer(
  config: AcquirerConfig,
  log: Logger,
): Promise<{ acquirer: ModulbankClient; sandbox: SandboxAcquirer | null }> {
  assertFitForProduction(config);
  const credentials = {
    merchant: config.MODULBANK_MERCHANT,
    secret: config.MODULBANK_SECRET,
    testing: config.MODULBANK_TESTING === '1',
  };
  if (config.MODULBANK_URL) {
    if (config.MODULBANK_SECRET === SANDBOX_SECRET)
      log.warn('acquirer: MODULBANK_URL is set but MODULBANK_SECRET is the sandbox one');
    return {
      acquirer: new ModulbankClient({ baseUrl: config.MODULBANK_URL, ...credentials }),
      sandbox: null,
    };
  }
  const sandbox = await startSandboxAcquirer({
    host: config.ACQUIRER_SANDBOX_HOST,
    port: config.ACQUIRER_SANDBOX_PORT,
    merchant: config.MODULBANK_MERCHANT,
    secret: config.MODULBANK_SECRET,
    publicHost: config.ACQUIRER_SANDBOX_PUBLIC_HOST || undefined,
    callbackScheduleMs: callbackSchedule(config.ACQUIRER_SANDBOX_CALLBACK_SCHEDULE),
    log,
  });
  log.info(
    { url: sandbox.url },
    `acquirer: no MODULBANK_URL, using the built-in sandbox acquirer at ${sandbox.url}`,
  );
  return { acquirer: new ModulbankClient({ baseUrl: sandbox.url, ...credentials }), sandbox };
}
