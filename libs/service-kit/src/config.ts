import { z } from 'zod';

/** Development-only secret; production refuses to start with it (see loadConfig). */
export const DEV_IDENTITY_SECRET = 'caravan-local-development-identity-secret-0001';

export const BaseEnv = z.object({
  NODE_ENV: z.string().default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(0),
  DATABASE_URL: z.string().default('postgres://postgres@127.0.0.1:5432/caravan'),
  KAFKA_BROKERS: z.string().default('127.0.0.1:9092'),
  KAFKA_TOPIC_PREFIX: z.string().default(''),
  /** SCRAM-SHA-512 login to the brokers (a Strimzi KafkaUser, deploy/k8s); none when the username is empty. */
  KAFKA_SASL_USERNAME: z.string().default(''),
  KAFKA_SASL_PASSWORD: z.string().default(''),
  IDENTITY_TOKEN_SECRET: z.string().min(32).default(DEV_IDENTITY_SECRET),
  /** How long a relay holds the keys it claimed; must outlast one send (docs/events.md). */
  OUTBOX_CLAIM_SECONDS: z.coerce.number().int().min(1).default(60),
  /** The OpenTelemetry collector's OTLP/HTTP base URL (traces to <url>/v1/traces); empty: no tracing at all. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.union([z.literal(''), z.url()]).default(''),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SEED_DEMO: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
});
export type BaseConfig = z.infer<typeof BaseEnv>;

/** Reads and validates the environment; a bad variable stops the service with a clear message. */
export function loadConfig<S extends z.ZodRawShape>(
  extra: S,
  env: Record<string, string | undefined> = process.env,
): BaseConfig & z.infer<z.ZodObject<S>> {
  const parsed = BaseEnv.extend(extra).safeParse(env);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid environment: ${detail}`);
  }
  const config = parsed.data as BaseConfig & z.infer<z.ZodObject<S>>;
  if (config.NODE_ENV === 'production' && config.IDENTITY_TOKEN_SECRET === DEV_IDENTITY_SECRET) {
    throw new Error('IDENTITY_TOKEN_SECRET must be set in production');
  }
  return config;
}

/** The brokers' login, when one is configured: a username without its password is a mistake, not anonymity. */
export function kafkaSasl(config: Pick<BaseConfig, 'KAFKA_SASL_USERNAME' | 'KAFKA_SASL_PASSWORD'>) {
  if (!config.KAFKA_SASL_USERNAME) return undefined;
  if (!config.KAFKA_SASL_PASSWORD)
    throw new Error('KAFKA_SASL_PASSWORD must be set with KAFKA_SASL_USERNAME');
  return {
    mechanism: 'scram-sha-512' as const,
    username: config.KAFKA_SASL_USERNAME,
    password: config.KAFKA_SASL_PASSWORD,
  };
}

export const kafkaBrokers = (config: Pick<BaseConfig, 'KAFKA_BROKERS'>) =>
  config.KAFKA_BROKERS.split(',')
    .map((b) => b.trim())
    .filter(Boolean);
