import type { Migration } from '@caravan/service-kit';

/**
 * The delivery queue of notifications beyond the app (docs/adr/0028): one row per notification and chosen
 * channel, written in the inbox's transaction; a worker outside it claims rows for a while
 * (`claimed_until`), sends them and marks them sent, or moves `due_at` on after a failure, or gives up.
 */
export const notificationDelivery: Migration = {
  name: '100_notification_delivery',
  async up(db, schema) {
    await db.schema.withSchema(schema).createTable('notification_delivery', (t) => {
      t.bigIncrements('id');
      t.bigInteger('user_table_id').notNullable();
      t.string('channel', 20).notNullable();
      t.bigInteger('notification_id').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      /** not before: an email waits out its batching window; a failed send its backoff */
      t.timestamp('due_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('claimed_until', { useTz: true });
      t.integer('attempts').notNullable().defaultTo(0);
      t.timestamp('sent_at', { useTz: true });
      t.timestamp('gave_up_at', { useTz: true });
      t.string('last_error', 500);
      t.unique(['notification_id', 'channel']);
    });
    await db.raw(
      `create index notification_delivery_pending on ??.notification_delivery (channel, due_at)
        where sent_at is null and gave_up_at is null`,
      [schema],
    );
    await db.raw(
      `create index notification_delivery_user_pending on ??.notification_delivery (user_table_id, channel)
        where sent_at is null and gave_up_at is null`,
      [schema],
    );
  },
};
