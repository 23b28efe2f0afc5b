import type { Db, Logger } from '@caravan/service-kit';
import type { Update } from 'grammy/types';
import type { TelegramClient } from '../adapters/telegram';
import { handleChatText } from './telegram';

const BACKOFF_MS = [1000, 2000, 5000, 10_000, 30_000];

/**
 * The bot's side of linking (docs/adr/0022): long polling of getUpdates; each private text message is
 * answered (a code links the chat). An update is confirmed (the next offset) only once handled, so a
 * restart or a database failure hands it over again; handling one twice answers the same.
 */
export class TelegramBot {
  private stopped = false;
  private readonly abort = new AbortController();
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly client: TelegramClient,
    private readonly log: Logger,
  ) {}

  start() {
    this.running ??= this.loop();
  }

  async stop() {
    this.stopped = true;
    this.abort.abort();
    await this.running;
  }

  /** Answers one update; false when it is not for the bot (a group, a photo). */
  async handle(update: Update): Promise<boolean> {
    const message = update.message;
    if (!message?.text || message.chat.type !== 'private') return false;
    const reply = await handleChatText(
      this.db,
      { id: message.chat.id, username: message.chat.username, first_name: message.chat.first_name },
      message.text,
    );
    const sent = await this.client.sendMessage(message.chat.id, reply);
    if (sent.kind !== 'sent')
      this.log.warn({ chat: message.chat.id, sent }, 'telegram: the bot could not answer');
    return true;
  }

  private async loop() {
    let offset: number | undefined;
    let failures = 0;
    while (!this.stopped) {
      try {
        const updates = await this.client.getUpdates(offset, this.abort.signal);
        for (const update of updates) {
          await this.handle(update);
          offset = update.update_id + 1;
        }
        failures = 0;
      } catch (err) {
        if (this.stopped) return;
        const wait = BACKOFF_MS[Math.min(failures++, BACKOFF_MS.length - 1)]!;
        this.log.warn({ err: (err as Error).message, retryInMs: wait }, 'telegram: reading updates failed');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait);
          this.abort.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    }
  }
}
