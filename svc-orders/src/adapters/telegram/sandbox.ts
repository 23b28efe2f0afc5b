import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readRequestBody, type Logger } from '@caravan/service-kit';

/**
 * A local Telegram Bot API (vendor-apis §7) for development and tests: `/bot<token>/<method>` with
 * Telegram's envelope ({ok, result} or {ok:false, error_code, description, parameters}) for getMe,
 * sendMessage, getUpdates (long polling) and deleteWebhook; Telegram's limits (about one message a
 * second per chat: a burst beyond answers 429 with retry_after) and its refusals (403 for a chat that
 * blocked the bot, 400 for a chat that never wrote to it). The Russian page at '/' shows what each chat
 * received and lets a tester write to the bot as a chat (how a link code is sent); '/sandbox/…' drives
 * it from tests.
 */

/** The bot the sandbox plays; its token is what svc-orders uses when TELEGRAM_BOT_TOKEN is empty. */
export const SANDBOX_BOT = {
  id: 7_000_000_001,
  is_bot: true as const,
  first_name: 'Caravan (песочница)',
  username: 'caravan_sandbox_bot',
  can_join_groups: false,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
  can_connect_to_business: false,
  has_main_web_app: false,
};
export const SANDBOX_TOKEN = `${SANDBOX_BOT.id}:caravan-sandbox-token`;

/** Telegram's flood limit as the sandbox applies it: a burst of this many, then one a second per chat. */
const PER_CHAT_BURST = 5;
const PER_CHAT_PER_SECOND = 1;
const LONGEST_POLL_SECONDS = 50;
const MAX_BODY = 64 * 1024;

export type SandboxMessage = {
  message_id: number;
  /** 'bot': the bot sent it to the chat; 'user': the chat wrote it to the bot. */
  from: 'bot' | 'user';
  text: string;
  date: number;
};

export type SandboxChat = {
  id: number;
  first_name: string;
  username?: string;
  /** The user blocked the bot: sendMessage answers 403. */
  blocked: boolean;
  messages: SandboxMessage[];
};

type Update = { update_id: number; message: Record<string, unknown> };

export const FAILURE_MODES = ['429', '500'] as const;
export type FailureMode = (typeof FAILURE_MODES)[number];

class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly parameters?: Record<string, unknown>,
  ) {
    super(description);
  }
}

class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface TelegramSandboxOptions {
  host?: string;
  /** 0: any free port */
  port?: number;
  token?: string;
  log?: Logger;
  now?: () => number;
}

export interface TelegramSandbox {
  url: string;
  token: string;
  chats(): SandboxChat[];
  /** A chat writes to the bot (the page's form does the same). */
  write(chatId: number, text: string, firstName?: string): SandboxMessage;
  stop(): Promise<void>;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const readBody = (req: IncomingMessage): Promise<string> =>
  readRequestBody(req, MAX_BODY, () => new ApiError(413, 'Request Entity Too Large'));

/** Telegram takes parameters as a query string, x-www-form-urlencoded or JSON (vendor-apis §7). */
async function paramsOf(req: IncomingMessage, url: URL): Promise<Record<string, unknown>> {
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
  const text = await readBody(req);
  if (!text.trim()) return params;
  const type = req.headers['content-type'] ?? '';
  if (type.includes('application/x-www-form-urlencoded'))
    return { ...params, ...Object.fromEntries(new URLSearchParams(text)) };
  try {
    const body = JSON.parse(text) as unknown;
    if (body && typeof body === 'object' && !Array.isArray(body))
      return { ...params, ...(body as Record<string, unknown>) };
  } catch {
    // falls through
  }
  throw new ApiError(400, "Bad Request: can't parse request body");
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

const integer = (value: unknown) =>
  value === undefined || value === null || value === '' ? undefined : Number(value);

export async function startTelegramSandbox(options: TelegramSandboxOptions = {}): Promise<TelegramSandbox> {
  const token = options.token ?? SANDBOX_TOKEN;
  const now = options.now ?? Date.now;
  const chats = new Map<number, SandboxChat>();
  const updates: Update[] = [];
  const waiters = new Set<() => void>();
  const buckets = new Map<number, { tokens: number; at: number }>();
  let nextUpdateId = 1;
  let nextMessageId = 1;
  let failure: { mode: FailureMode; left: number; retryAfter: number } | null = null;

  const seconds = () => Math.floor(now() / 1000);
  const chatOf = (id: number, firstName?: string): SandboxChat => {
    let chat = chats.get(id);
    if (!chat) {
      chat = { id, first_name: firstName?.trim() || `Пользователь ${id}`, blocked: false, messages: [] };
      chats.set(id, chat);
    } else if (firstName?.trim()) chat.first_name = firstName.trim();
    return chat;
  };
  const chatJson = (chat: SandboxChat) => ({
    id: chat.id,
    first_name: chat.first_name,
    ...(chat.username ? { username: chat.username } : {}),
    type: 'private',
  });

  /** Seconds until the chat may receive again, or 0 (a token taken). */
  const takeToken = (chatId: number): number => {
    const at = now();
    const bucket = buckets.get(chatId) ?? { tokens: PER_CHAT_BURST, at };
    bucket.tokens = Math.min(PER_CHAT_BURST, bucket.tokens + ((at - bucket.at) / 1000) * PER_CHAT_PER_SECOND);
    bucket.at = at;
    buckets.set(chatId, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / PER_CHAT_PER_SECOND));
  };

  const write = (chatId: number, text: string, firstName?: string): SandboxMessage => {
    const chat = chatOf(chatId, firstName);
    const message: SandboxMessage = { message_id: nextMessageId++, from: 'user', text, date: seconds() };
    chat.messages.push(message);
    updates.push({
      update_id: nextUpdateId++,
      message: {
        message_id: message.message_id,
        from: { id: chat.id, is_bot: false, first_name: chat.first_name, language_code: 'ru' },
        chat: chatJson(chat),
        date: message.date,
        text,
        ...(text.startsWith('/')
          ? { entities: [{ type: 'bot_command', offset: 0, length: text.split(/\s/)[0]!.length }] }
          : {}),
      },
    });
    for (const wake of [...waiters]) wake();
    return message;
  };

  const methods: Record<string, (p: Record<string, unknown>) => Promise<unknown> | unknown> = {
    getMe: () => SANDBOX_BOT,
    deleteWebhook: () => true,
    getWebhookInfo: () => ({ url: '', has_custom_certificate: false, pending_update_count: updates.length }),
    sendMessage: (p) => {
      const chatId = integer(p.chat_id);
      const text = typeof p.text === 'string' ? p.text : p.text === undefined ? '' : String(p.text);
      if (chatId === undefined || Number.isNaN(chatId))
        throw new ApiError(400, 'Bad Request: chat_id is empty');
      if (!text.trim()) throw new ApiError(400, 'Bad Request: message text is empty');
      if (text.length > 4096) throw new ApiError(400, 'Bad Request: message is too long');
      const chat = chats.get(chatId);
      if (!chat) throw new ApiError(400, 'Bad Request: chat not found');
      if (chat.blocked) throw new ApiError(403, 'Forbidden: bot was blocked by the user');
      const wait = takeToken(chatId);
      if (wait) throw new ApiError(429, `Too Many Requests: retry after ${wait}`, { retry_after: wait });
      const message: SandboxMessage = { message_id: nextMessageId++, from: 'bot', text, date: seconds() };
      chat.messages.push(message);
      return {
        message_id: message.message_id,
        from: {
          id: SANDBOX_BOT.id,
          is_bot: true,
          first_name: SANDBOX_BOT.first_name,
          username: SANDBOX_BOT.username,
        },
        chat: chatJson(chat),
        date: message.date,
        text,
      };
    },
    getUpdates: async (p) => {
      const offset = integer(p.offset);
      // Telegram forgets the updates before the offset: they are confirmed
      if (offset !== undefined) while (updates.length && updates[0]!.update_id < offset) updates.shift();
      const limit = Math.min(100, Math.max(1, integer(p.limit) ?? 100));
      const timeout = Math.min(LONGEST_POLL_SECONDS, Math.max(0, integer(p.timeout) ?? 0));
      if (!updates.length && timeout > 0)
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            waiters.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, timeout * 1000);
          waiters.add(wake);
        });
      return updates.slice(0, limit);
    },
  };

  const api = async (req: IncomingMessage, res: ServerResponse, url: URL, method: string, given: string) => {
    try {
      if (given !== token) throw new ApiError(401, 'Unauthorized');
      const handler = Object.hasOwn(methods, method) ? methods[method] : undefined;
      if (!handler) throw new ApiError(404, 'Not Found: method not found');
      const params = await paramsOf(req, url);
      if (failure && failure.left > 0 && method !== 'getUpdates') {
        failure.left--;
        if (failure.mode === '429')
          throw new ApiError(429, `Too Many Requests: retry after ${failure.retryAfter}`, {
            retry_after: failure.retryAfter,
          });
        throw new ApiError(500, 'Internal Server Error');
      }
      send(res, 200, { ok: true, result: await handler(params) });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      send(res, error.code, {
        ok: false,
        error_code: error.code,
        description: error.description,
        ...(error.parameters ? { parameters: error.parameters } : {}),
      });
    }
  };

  const control = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const path = url.pathname;
    const form = (req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded');
    const done = (status: number, body: unknown, chat?: number) =>
      form
        ? (res.writeHead(303, { location: chat ? `/?chat=${chat}` : '/' }), res.end())
        : send(res, status, body);
    try {
      if (path === '/sandbox/chats' && req.method === 'GET')
        return send(res, 200, { chats: [...chats.values()] });
      const body = req.method === 'POST' ? await paramsOf(req, new URL('http://x/')) : {};
      if (path === '/sandbox/write' && req.method === 'POST') {
        const chatId = integer(body.chat_id);
        const text = String(body.text ?? '').trim();
        if (!chatId || !Number.isSafeInteger(chatId) || chatId <= 0)
          throw new ControlError(400, 'id чата: целое положительное число');
        if (!text) throw new ControlError(400, 'напишите сообщение');
        const message = write(
          chatId,
          text,
          typeof body.first_name === 'string' ? body.first_name : undefined,
        );
        return done(201, message, chatId);
      }
      const block = /^\/sandbox\/chats\/(\d+)\/block$/.exec(path);
      if (block && req.method === 'POST') {
        const chat = chats.get(Number(block[1]));
        if (!chat) throw new ControlError(404, 'нет такого чата');
        chat.blocked = body.blocked === undefined ? !chat.blocked : String(body.blocked) === 'true';
        return done(200, chat, chat.id);
      }
      if (path === '/sandbox/fail' && req.method === 'POST') {
        const mode = String(body.mode) as FailureMode;
        const times = integer(body.times) ?? 1;
        const retryAfter = integer(body.retry_after) ?? 1;
        if (!FAILURE_MODES.includes(mode) || !Number.isInteger(times) || times < 0 || !(retryAfter >= 1))
          throw new ControlError(400, `mode: ${FAILURE_MODES.join(' | ')}; times, retry_after: целые числа`);
        failure = { mode, left: times, retryAfter };
        return done(200, { mode, times, retry_after: retryAfter });
      }
      throw new ControlError(404, 'нет такой команды песочницы');
    } catch (error) {
      if (error instanceof ControlError || error instanceof ApiError)
        return send(res, error instanceof ControlError ? error.status : error.code, { error: error.message });
      throw error;
    }
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const handle = async () => {
      const call = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
      if (call) return api(req, res, url, call[2]!, decodeURIComponent(call[1]!));
      if (url.pathname === '/' && req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        return res.end(page([...chats.values()], url.searchParams));
      }
      if (url.pathname.startsWith('/sandbox/')) return control(req, res, url);
      send(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
    };
    handle().catch((error: unknown) => {
      options.log?.error({ err: error }, 'telegram sandbox: request failed');
      if (!res.headersSent)
        send(res, 500, { ok: false, error_code: 500, description: 'Internal Server Error' });
      else res.end();
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    url: `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`,
    token,
    chats: () => [...chats.values()],
    write,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        for (const wake of [...waiters]) wake();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

const time = (date: number) =>
  new Date((date + 3 * 3600) * 1000).toISOString().slice(0, 19).replace('T', ' ');

/** The page: every chat with what it received from the bot and wrote to it, and the form to write as a chat. */
function page(chats: SandboxChat[], query: URLSearchParams): string {
  const start = query.get('start');
  const text = start ? `/start ${start}` : (query.get('text') ?? '');
  const selected =
    Number(query.get('chat')) || chats[chats.length - 1]?.id || 100_000 + Math.floor(Math.random() * 900_000);
  const sections = [...chats]
    .reverse()
    .map((chat) => {
      const items = chat.messages
        .map(
          (m) =>
            `<li class="from-${m.from}"><span class="who">${m.from === 'bot' ? 'бот' : escapeHtml(chat.first_name)}</span> <span class="muted">${time(m.date)}</span><div class="text">${escapeHtml(m.text)}</div></li>`,
        )
        .join('');
      return `<section data-chat="${chat.id}"><h2>${escapeHtml(chat.first_name)} <span class="muted">чат ${chat.id}${chat.blocked ? ' · бот заблокирован' : ''}</span></h2>
<form method="post" action="/sandbox/chats/${chat.id}/block"><input type="hidden" name="blocked" value="${String(!chat.blocked)}"><button type="submit">${chat.blocked ? 'разблокировать бота' : 'заблокировать бота'}</button></form>
<ul>${items || '<li class="muted">сообщений нет</li>'}</ul></section>`;
    })
    .join('');
  const current = chats.find((c) => c.id === selected);
  return `<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Песочница Telegram</title>
<style>body{font:15px/1.4 system-ui,sans-serif;margin:20px;color:#1c2127;max-width:760px}
section{border:1px solid #dde1e6;border-radius:6px;padding:8px 14px;margin:12px 0}h2{font-size:17px}
ul{list-style:none;padding:0}li{margin:8px 0;padding:6px 10px;border-radius:6px;background:#f6f7f9}
li.from-bot{background:#e7f0fb}.text{white-space:pre-wrap}.muted{color:#5f6b7c;font-weight:normal;font-size:13px}
label{display:block;margin:6px 0}input,textarea{font:inherit;padding:4px 6px}textarea{width:100%}button{padding:6px 12px;cursor:pointer}</style></head>
<body><h1>Песочница Telegram: бот @${SANDBOX_BOT.username}</h1>
<p class="muted">ненастоящий Telegram: здесь видно, что бот отправил каждому чату; форма пишет боту от имени чата (так отправляют код привязки со страницы профиля)</p>
<form method="post" action="/sandbox/write" aria-label="написать боту">
<h2>Написать боту</h2>
<label>id чата <input name="chat_id" type="number" min="1" value="${selected}"></label>
<label>имя <input name="first_name" value="${escapeHtml(current?.first_name ?? 'Тестовый пользователь')}"></label>
<label>сообщение <textarea name="text" rows="2">${escapeHtml(text)}</textarea></label>
<button type="submit">отправить боту</button></form>
${sections || '<p class="muted">чатов пока нет: напишите боту</p>'}
<p class="muted">обновите страницу, чтобы увидеть новые сообщения бота</p>
</body></html>`;
}
