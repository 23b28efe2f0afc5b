import { loadConfig } from '@caravan/service-kit';
import { z } from 'zod';

/** A semantic version (a folder name on the remote's origin), or empty for none. */
const remoteVersion = z
  .string()
  .regex(/^$|^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/, 'a version such as 1.2.0, or empty')
  .default('');

export const GatewayEnv = {
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  SERVICE_URL_ORDERS: z.url().default('http://127.0.0.1:4001'),
  SERVICE_URL_PAYMENTS: z.url().default('http://127.0.0.1:4002'),
  SERVICE_URL_CARRIERS: z.url().default('http://127.0.0.1:4003'),
  REMOTE_URL_MF_ORDERS: z.url().default('http://127.0.0.1:8081'),
  REMOTE_URL_MF_WALLET: z.url().default('http://127.0.0.1:8082'),
  REMOTE_URL_MF_DIRECTORIES: z.url().default('http://127.0.0.1:8083'),
  /** A pinned release of a remote: its origin's `/<version>/` folder; empty: the origin's root (ADR 0035). */
  REMOTE_MF_ORDERS_VERSION: remoteVersion,
  REMOTE_MF_WALLET_VERSION: remoteVersion,
  REMOTE_MF_DIRECTORIES_VERSION: remoteVersion,
  SHELL_DIST: z.string().default(''),
  /** Where the browser reaches the product: the base of the links in mails. */
  PUBLIC_URL: z.url().default('http://127.0.0.1:8080'),
  /** SMTP server for mail; locally the mail catcher of deploy/local. */
  SMTP_URL: z.string().default('smtp://127.0.0.1:1025'),
  MAIL_FROM: z.string().default('Caravan <no-reply@caravan.local>'),
  ADMIN_EMAIL: z.email().default('admin@caravan.local'),
  ADMIN_PASSWORD: z.string().min(7).default('caravan-admin'),
  DEMO_PASSWORD: z.string().min(7).default('caravan123'),
  SESSION_IDLE_HOURS: z.coerce.number().positive().default(168),
  SESSION_ABSOLUTE_DAYS: z.coerce.number().positive().default(30),
  /** Failed logins to one account from one address per 15 minutes. */
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().positive().default(10),
  /** Failed logins from one address per 15 minutes, whatever the accounts. */
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().positive().default(50),
  /** Failed logins to one account per 15 minutes from addresses that never signed in to it. */
  LOGIN_MAX_FAILURES_PER_ACCOUNT_FROM_STRANGERS: z.coerce.number().int().positive().default(100),
  /** Registrations started from one address per hour. */
  REGISTRATION_MAX_PER_IP: z.coerce.number().int().positive().default(10),
  /** Proxies whose X-Forwarded-For is believed (express 'trust proxy': addresses, CIDRs, 'loopback'); none by default. */
  TRUSTED_PROXIES: z.string().default(''),
  /** How long a cached session identity is used without an invalidation event (the bound while Kafka is down). */
  IDENTITY_CACHE_TTL_MS: z.coerce.number().int().min(0).default(10_000),
};

export const loadGatewayConfig = (env?: Record<string, string | undefined>) => loadConfig(GatewayEnv, env);
export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;
