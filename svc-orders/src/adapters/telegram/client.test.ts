import { GrammyError } from 'grammy';
import { TelegramClient } from './client';
import { SANDBOX_BOT, startTelegramSandbox, type TelegramSandbox } from './sandbox';

/**
 * The adapter's contract: the real grammY client against the local Bot API sandbox, which speaks
 * Telegram's protocol. The sandbox's clock is the test's: a wait the client sleeps moves it on.
 */

let sandbox: TelegramSandbox;
let clock: number;
let waits: number[];

const client = (o: { maxRetryWaitMs?: number; token?: string; apiRoot?: string } = {}) =>
  new TelegramClient({
    token: o.token ?? sandbox.token,
    apiRoot: o.apiRoot ?? sandbox.url,
    maxRetryWaitMs: o.maxRetryWaitMs,
    sleep: async (ms) => {
      waits.push(ms);
      clock += ms;
    },
  });

const control = async (path: string, body: unknown) => {
  const res = await fetch(`${sandbox.url}/sandbox/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.ok).toBe(true);
};
const received = (chatId: number) =>
  sandbox
    .chats()
    .find((c) => c.id === chatId)!
    .messages.filter((m) => m.from === 'bot')
    .map((m) => m.text);

let chatId = 500_000;
/** A chat that has written to the bot (Telegram lets a bot write only to those). */
const newChat = () => {
  const id = ++chatId;
  sandbox.write(id, '/start', 'Ирина');
  return id;
};

beforeAll(async () => {
  sandbox = await startTelegramSandbox({ port: 0, now: () => clock });
});
afterAll(() => sandbox.stop());
beforeEach(() => {
  clock = Date.parse('2026-11-24T10:00:00Z');
  waits = [];
});

describe('the Telegram client against the Bot API sandbox', () => {
  it('asks who the bot is (getMe)', async () => {
    expect(await client().getMe()).toMatchObject({
      id: SANDBOX_BOT.id,
      username: 'caravan_sandbox_bot',
      is_bot: true,
    });
  });

  it('refuses a wrong token as Telegram does (401 Unauthorized)', async () => {
    const error = await client({ token: '1:wrong' })
      .getMe()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GrammyError);
    expect(error).toMatchObject({ error_code: 401, description: 'Unauthorized' });
  });

  it('delivers a message to a chat that wrote to the bot', async () => {
    const chat = newChat();
    const outcome = await client().sendMessage(chat, 'Заказ «Игрушки»: товар выкуплен');
    expect(outcome).toEqual({ kind: 'sent', messageId: expect.any(Number) });
    expect(received(chat)).toEqual(['Заказ «Игрушки»: товар выкуплен']);
    expect(waits).toEqual([]);
  });

  it('waits out a 429 as retry_after says and then delivers', async () => {
    const chat = newChat();
    await control('fail', { mode: '429', times: 2, retry_after: 2 });
    const outcome = await client().sendMessage(chat, 'повтор после паузы');
    expect(outcome.kind).toBe('sent');
    expect(waits).toEqual([2000, 2000]);
    expect(received(chat)).toEqual(['повтор после паузы']);
  });

  it('hits the per-chat flood limit and recovers after the wait Telegram names', async () => {
    const chat = newChat();
    const telegram = client();
    for (let i = 1; i <= 6; i++)
      expect((await telegram.sendMessage(chat, `сообщение ${i}`)).kind).toBe('sent');
    // a burst of 5 passes; the sixth waited one second, as the sandbox's retry_after asked
    expect(waits).toEqual([1000]);
    expect(received(chat)).toHaveLength(6);
  });

  it('reports a 429 asking for longer than the client may wait, without waiting and without sending', async () => {
    const chat = newChat();
    await control('fail', { mode: '429', times: 1, retry_after: 30 });
    const outcome = await client({ maxRetryWaitMs: 5000 }).sendMessage(chat, 'не сейчас');
    expect(outcome).toEqual({ kind: 'rate_limited', retryAfterSeconds: 30 });
    expect(waits).toEqual([]);
    expect(received(chat)).toEqual([]);
  });

  it('reports a chat that blocked the bot (403) as blocked, distinct from other failures', async () => {
    const chat = newChat();
    await control(`chats/${chat}/block`, { blocked: true });
    expect(await client().sendMessage(chat, 'вы здесь?')).toEqual({
      kind: 'blocked',
      description: 'Forbidden: bot was blocked by the user',
    });
    expect(received(chat)).toEqual([]);
  });

  it('reports a chat that never wrote to the bot, a server error and no connection as failed', async () => {
    expect(await client().sendMessage(999_999_999, 'кому?')).toEqual({
      kind: 'failed',
      description: 'Bad Request: chat not found',
    });
    const chat = newChat();
    await control('fail', { mode: '500', times: 1 });
    expect(await client().sendMessage(chat, 'ошибка сервера')).toEqual({
      kind: 'failed',
      description: 'Internal Server Error',
    });
    const closed = await startTelegramSandbox({ port: 0 });
    await closed.stop();
    const offline = await client({ apiRoot: closed.url }).sendMessage(chat, 'нет связи');
    expect(offline).toEqual({ kind: 'failed', description: 'нет связи (ECONNREFUSED)' });
  });

  it('reads what chats wrote to the bot by long polling, each update once confirmed', async () => {
    const chat = newChat();
    const telegram = client();
    // everything pending so far, then confirm it by the next offset
    const pending = await telegram.getUpdates(undefined);
    const offset = pending[pending.length - 1]!.update_id + 1;
    const waiting = telegram.getUpdates(offset);
    sandbox.write(chat, 'K7M2P9QX');
    const updates = await waiting;
    expect(updates).toHaveLength(1);
    expect(updates[0]!.message).toMatchObject({ text: 'K7M2P9QX', chat: { id: chat, type: 'private' } });
    const again = telegram.getUpdates(updates[0]!.update_id + 1, AbortSignal.timeout(300));
    await expect(again).rejects.toThrow();
  });
});
