import { baseColumns, type Migration } from '@caravan/service-kit';

/**
 * Notifications (issue 19, docs/adr/0021): one row per recipient with its own read state. A row is
 * made once per recipient and source (`source_key`: the event, or the fact it tells of), so a replayed
 * event makes no second one; position notices of one order and stage gather in one unread row
 * (`group_key`). Each user's channel choice has a table of its own. The identity replica (links of
 * users to clients and operators, admins) decides the recipients.
 */
export const notificationTables: Migration = {
  name: '070_notification',
  async up(db, schema) {
    await db.schema.withSchema(schema).createTable('notification', (t) => {
      baseColumns(t, db);
      t.bigInteger('user_table_id').notNullable();
      t.string('label', 300).notNullable();
      t.text('message').notNullable();
      t.string('type', 20).notNullable().defaultTo('info');
      t.string('category', 40).notNullable();
      t.string('table_name', 40).notNullable().defaultTo('client_order');
      t.bigInteger('item_id');
      t.boolean('is_read').notNullable().defaultTo(false);
      t.timestamp('read_at', { useTz: true });
      t.jsonb('options').notNullable().defaultTo('{}');
      t.string('source_key', 300).notNullable();
      t.string('group_key', 300);
      // source first: the consolidation check asks whether a fact was told at all, whoever to
      t.unique(['source_key', 'user_table_id']);
    });
    const raw = (sql: string) => db.raw(sql, [schema]);
    // the drawer: a user's unread ones, newest first; the admin list: everyone's, newest first
    await raw(`create index notification_user_unread on ??.notification (user_table_id, created_at desc, id desc)
               where not is_read and not deleted`);
    await raw(
      `create index notification_user_created on ??.notification (user_table_id, created_at desc, id desc)`,
    );
    await raw(`create index notification_created on ??.notification (created_at desc, id desc)`);
    // one unread gathering row per user and group: two consumers adding to it at once cannot make two
    await raw(`create unique index notification_user_group_unread on ??.notification (user_table_id, group_key)
               where not is_read and group_key is not null`);

    await db.schema.withSchema(schema).createTable('notification_channel', (t) => {
      t.bigInteger('user_table_id').primary();
      t.boolean('email').notNullable().defaultTo(false);
      t.boolean('telegram').notNullable().defaultTo(false);
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    });

    // recipients: the users of a client, of an operator, the admins (the identity replica)
    await raw(`create index replica_client_user_link_client on ??.replica (((data->>'client_id')::bigint))
               where entity = 'client_user_link'`);
    await raw(`create index replica_operator_user_link_operator on ??.replica (((data->>'operator_id')::bigint))
               where entity = 'operator_user_link'`);
    await raw(`create index replica_user_admin on ??.replica (id)
               where entity = 'user' and data->'roles' @> '["admin"]'`);
    // the consolidation check: positions on their way to the warehouse, by the day they were expected
    await raw(`create index client_order_position_expected on ??.client_order_position
               (to_consolidation_warehouse_delivery_date)
               where stage = 'warehouse_waiting' and not deleted`);
  },
};
