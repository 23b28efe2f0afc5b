import { Bot, GrammyError, HttpError, type Api, type Transformer } from 'grammy';
import type { Update, UserFromGetMe } from 'grammy/types';

/**
 * The Telegram Bot API through grammY (vendor-apis §7): getMe, sendMessage and getUpdates against the
 * real API or the built-in sandbox (`apiRoot`). A 429 is waited out as Telegram's `retry_after` asks, as
 * long as the waits stay within `maxRetryWaitMs`; a 403 (the user blocked the bot, deactivated, never
 * started it) is its own outcome, so the caller marks the link broken.
 */

export type Sleep = (ms: number) => Promise<void>;
export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** What one sendMessage came to. */
export type SendOutcome =
  | { kind: 'sent'; messageId: number }
  | { kind: 'blocked'; description: string }
  | { kind: 'rate_limited'; retryAfterSeconds: number }
  | { kind: 'failed'; description: string };

export interface TelegramClientOptions {
  token: string;
  /** https://api.telegram.org, or the sandbox's URL */
  apiRoot: string;
  /** How long one call may take (getUpdates adds its long-poll wait to it). */
  timeoutSeconds?: number;
  /** The longest the client itself waits out 429s for one call; beyond, the call reports rate_limited. */
  maxRetryWaitMs?: number;
  sleep?: Sleep;
}

export const DEFAULT_MAX_RETRY_WAIT_MS = 5000;
/** How long one getUpdates waits on the server for an update (Telegram allows up to 50). */
export const POLL_SECONDS = 20;

/**
 * A grammY API transformer: a 429 answer is retried after its `parameters.retry_after` seconds while
 * the waits of this call add up to at most `maxWaitMs`; otherwise the 429 goes back to the caller.
 */
export function honourRetryAfter(maxWaitMs: number, sleep: Sleep): Transformer {
  return async (prev, method, payload, signal) => {
    let waited = 0;
    for (;;) {
      const res = await prev(method, payload, signal);
      const seconds = !res.ok && res.error_code === 429 ? res.parameters?.retry_after : undefined;
      if (seconds === undefined) return res;
      const ms = seconds * 1000;
      if (waited + ms > maxWaitMs || signal?.aborted) return res;
      await sleep(ms);
      waited += ms;
    }
  };
}

/** Why a call failed, in a few words: Telegram's description, else the network's reason. */
export function failureReason(error: unknown): string {
  if (error instanceof GrammyError) return error.description;
  if (error instanceof HttpError) {
    const cause = error.error as { code?: unknown; message?: unknown; cause?: { code?: unknown } } | null;
    const code = cause?.cause?.code ?? cause?.code;
    if (typeof code === 'string') return `нет связи (${code})`;
    return typeof cause?.message === 'string' ? cause.message : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

export class TelegramClient {
  private readonly bot: Bot;
  private readonly poller: Bot;
  private me: UserFromGetMe | null = null;

  constructor(private readonly options: TelegramClientOptions) {
    const retry = honourRetryAfter(
      options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS,
      options.sleep ?? realSleep,
    );
    const timeoutSeconds = options.timeoutSeconds ?? 10;
    this.bot = new Bot(options.token, { client: { apiRoot: options.apiRoot, timeoutSeconds } });
    this.bot.api.config.use(retry);
    // getUpdates holds the request open for its long-poll timeout: a client of its own with a longer limit
    this.poller = new Bot(options.token, {
      client: { apiRoot: options.apiRoot, timeoutSeconds: timeoutSeconds + POLL_SECONDS },
    });
    this.poller.api.config.use(retry);
  }

  get apiRoot() {
    return this.options.apiRoot;
  }

  /** The bot itself (getMe), asked once. */
  async getMe(): Promise<UserFromGetMe> {
    this.me ??= await this.bot.api.getMe();
    return this.me;
  }

  async sendMessage(chatId: number | string, text: string): Promise<SendOutcome> {
    try {
      const message = await this.bot.api.sendMessage(chatId, text);
      return { kind: 'sent', messageId: message.message_id };
    } catch (error) {
      if (error instanceof GrammyError && error.error_code === 403)
        return { kind: 'blocked', description: error.description };
      if (error instanceof GrammyError && error.error_code === 429)
        return { kind: 'rate_limited', retryAfterSeconds: error.parameters.retry_after ?? 1 };
      return { kind: 'failed', description: failureReason(error) };
    }
  }

  /** Long polling: the updates after `offset`, waiting up to POLL_SECONDS for the first one. */
  getUpdates(offset: number | undefined, signal?: AbortSignal): Promise<Update[]> {
    // grammY types its signal as the abort-controller polyfill's; Node's own is what it gets at run time
    return this.poller.api.getUpdates(
      { offset, timeout: POLL_SECONDS, allowed_updates: ['message'] },
      signal as Parameters<Api['getUpdates']>[1],
    );
  }
}
