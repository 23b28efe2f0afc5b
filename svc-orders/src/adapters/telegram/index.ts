import type { Logger } from '@caravan/service-kit';
import { z } from 'zod';
import { TelegramClient } from './client';
import { SANDBOX_TOKEN, startTelegramSandbox, type TelegramSandbox } from './sandbox';

export { TelegramClient, honourRetryAfter, type SendOutcome } from './client';
export { startTelegramSandbox, SANDBOX_BOT, SANDBOX_TOKEN, type TelegramSandbox } from './sandbox';

/** An unset or empty variable takes the default (docker-compose passes empty strings). */
const orDefault = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema);

const Env = z.object({
  /** the bot's token from @BotFather; empty = the built-in sandbox */
  TELEGRAM_BOT_TOKEN: z.string().trim().default(''),
  TELEGRAM_API_ROOT: orDefault(z.url({ protocol: /^https?$/ }).default('https://api.telegram.org')),
  TELEGRAM_SANDBOX_PORT: orDefault(z.coerce.number().int().min(0).max(65535).default(0)),
  TELEGRAM_SANDBOX_HOST: orDefault(z.string().default('127.0.0.1')),
  /** where a browser reaches the sandbox's page (the link next to a code on /profile); default its own URL */
  TELEGRAM_SANDBOX_PUBLIC_URL: orDefault(z.string().default('')),
  /** 1: this replica reads the bot's updates (long polling); run one poller per bot */
  TELEGRAM_POLLING: orDefault(z.enum(['0', '1']).default('1')),
  TELEGRAM_TIMEOUT_MS: orDefault(z.coerce.number().int().positive().default(10_000)),
});
export type TelegramConfig = z.infer<typeof Env>;
export const telegramConfig = (env: Record<string, string | undefined>): TelegramConfig => Env.parse(env);

export type TelegramSetup = {
  client: TelegramClient;
  /** Started because no TELEGRAM_BOT_TOKEN is set: stopped with the service. */
  sandbox: TelegramSandbox | null;
  /** Where a user sends their code: t.me, or the sandbox's page. */
  botLink(username: string, code: string): string;
  polling: boolean;
};

/**
 * The Telegram adapter of svc-orders (docs/adr/0022): the Bot API at TELEGRAM_API_ROOT with
 * TELEGRAM_BOT_TOKEN; without a token the built-in sandbox is started and the same client talks to it.
 */
export async function createTelegram(
  env: Record<string, string | undefined>,
  log: Logger,
): Promise<TelegramSetup> {
  const config = telegramConfig(env);
  const timeoutSeconds = Math.ceil(config.TELEGRAM_TIMEOUT_MS / 1000);
  const polling = config.TELEGRAM_POLLING === '1';
  if (config.TELEGRAM_BOT_TOKEN)
    return {
      client: new TelegramClient({
        token: config.TELEGRAM_BOT_TOKEN,
        apiRoot: config.TELEGRAM_API_ROOT,
        timeoutSeconds,
      }),
      sandbox: null,
      botLink: (username, code) => `https://t.me/${username}?start=${code}`,
      polling,
    };
  const sandbox = await startTelegramSandbox({
    host: config.TELEGRAM_SANDBOX_HOST,
    port: config.TELEGRAM_SANDBOX_PORT,
    token: SANDBOX_TOKEN,
    log,
  });
  log.info(
    { url: sandbox.url },
    `telegram: no TELEGRAM_BOT_TOKEN, using the built-in Bot API sandbox at ${sandbox.url}`,
  );
  const pageUrl = config.TELEGRAM_SANDBOX_PUBLIC_URL || sandbox.url;
  return {
    client: new TelegramClient({ token: sandbox.token, apiRoot: sandbox.url, timeoutSeconds }),
    sandbox,
    botLink: (_username, code) => `${pageUrl}/?start=${code}`,
    polling,
  };
}
