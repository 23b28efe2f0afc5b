import type { Migration } from '@caravan/service-kit';

/** The order card's Telegram sends of one sender in the last minute (TELEGRAM_SENDS_PER_MINUTE) are found by index. */
export const telegramSender: Migration = {
  name: '110_telegram_sender',
  async up(db, schema) {
    await db.raw(
      'create index if not exists telegram_message_sender on ??.telegram_message (sender_user_id, created_at)',
      [schema],
    );
  },
};
