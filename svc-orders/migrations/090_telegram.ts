import type { Migration } from '@caravan/service-kit';

/**
 * Telegram (docs/adr/0022-telegram.md): each user's link with a chat of the bot (the spec's telegram_id of
 * a user), the one-time codes that make it, and every message sent through the order's telegram dialog.
 * The users' links to clients and operators come from the gateway's identity events as replicas
 * (entities client_user_link, operator_user_link, user): who is on the other side of an order.
 */
export const telegram: Migration = {
  name: '090_telegram',
  async up(db, schema) {
    const s = () => db.schema.withSchema(schema);
    await s().createTable('telegram_link', (t) => {
      t.bigInteger('user_id').primary();
      t.bigInteger('chat_id').notNullable();
      t.string('username', 100);
      t.string('first_name', 200);
      t.string('state', 10).notNullable().defaultTo('linked');
      t.timestamp('linked_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('broken_at', { useTz: true });
      t.string('broken_reason', 300);
    });
    await s().createTable('telegram_link_code', (t) => {
      t.bigIncrements('id');
      t.bigInteger('user_id').notNullable().index();
      t.string('code_hash', 64).notNullable().unique();
      /** who asked, for the bot's answer ('привязан к Caravan (Ирина Смирнова)') */
      t.string('fullname', 300).notNullable().defaultTo('');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('expires_at', { useTz: true }).notNullable();
      t.timestamp('used_at', { useTz: true });
    });
    await s().createTable('telegram_message', (t) => {
      t.bigIncrements('id');
      t.bigInteger('client_order_id').notNullable().index();
      t.bigInteger('sender_user_id').notNullable();
      t.bigInteger('recipient_user_id').notNullable();
      t.bigInteger('chat_id').notNullable();
      t.text('text').notNullable();
      /** sent | blocked | rate_limited | failed */
      t.string('outcome', 20).notNullable();
      t.string('error', 300);
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    });
    for (const [link, column] of [
      ['client_user_link', 'client_id'],
      ['operator_user_link', 'operator_id'],
    ] as const)
      await db.raw(
        `create index replica_${link}_owner on ??.replica (((data->>'${column}')::bigint)) where entity = '${link}' and not deleted`,
        [schema],
      );
  },
};
