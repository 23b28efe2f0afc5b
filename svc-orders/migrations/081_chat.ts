import type { Migration } from '@caravan/service-kit';
import { orderReachColumns } from './order_reach_columns';

/**
 * Chats (issue 19, docs/adr/0023): one per object (an order), its messages (text, files, author's id
 * and name as of sending), and how far each user has read each chat — the unread counts.
 */
export const chatMigration: Migration = {
  name: '081_chat',
  async up(db, schema) {
    const s = () => db.schema.withSchema(schema);
    await s().createTable('chat', (t) => {
      t.bigIncrements('id').primary();
      t.boolean('deleted').notNullable().defaultTo(false);
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.string('table_name', 50).notNullable().defaultTo('client_order');
      t.bigInteger('table_id').notNullable();
      t.unique(['table_name', 'table_id']);
    });
    await orderReachColumns(db, schema, 'chat');
    await s().createTable('chat_message', (t) => {
      t.bigIncrements('id').primary();
      t.boolean('deleted').notNullable().defaultTo(false);
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.bigInteger('chat_id').notNullable().references('id').inTable(`${schema}.chat`);
      t.text('title').notNullable().defaultTo('');
      t.jsonb('files').notNullable().defaultTo('[]');
      t.bigInteger('author_id').notNullable();
      t.string('fullname', 300).notNullable().defaultTo('');
      t.index(['chat_id', 'id']);
    });
    await s().createTable('chat_read', (t) => {
      t.bigInteger('chat_id').notNullable().references('id').inTable(`${schema}.chat`);
      t.bigInteger('user_id').notNullable();
      t.bigInteger('last_read_id').notNullable().defaultTo(0);
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.primary(['chat_id', 'user_id']);
      t.index(['user_id']);
    });
  },
};
