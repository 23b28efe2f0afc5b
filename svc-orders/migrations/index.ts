import { baseColumns, type Migration } from '@caravan/service-kit';
import { clientOrderMigration } from './client_order';
import { listIndexes, orderListIndexes, titleKeysSkipNull } from './list_indexes';
import { orderVersion } from './order_version';
import { positionReach } from './position_reach';
import { reachIndexes } from './reach_indexes';
import { orderPaidSeq } from './order_paid_seq';
import { carrierStatus } from './060_carrier_status';
import { telegram } from './090_telegram';
import { notificationTables } from './070_notification';
import { taskMigration } from './080_task';
import { chatMigration } from './081_chat';
import { notificationDelivery } from './100_notification_delivery';
import { telegramSender } from './110_telegram_sender';

export const migrations: Migration[] = [
  {
    name: '001_client',
    async up(db, schema) {
      await db.schema.withSchema(schema).createTable('client', (t) => {
        baseColumns(t, db);
        t.string('title', 200).notNullable();
        t.string('type', 20).notNullable().defaultTo('self');
        t.boolean('incognito').notNullable().defaultTo(false);
      });
    },
  },
  {
    name: '002_client_details_provider_file',
    async up(db, schema) {
      await db.schema.withSchema(schema).alterTable('client', (t) => {
        // legal entities live in svc-payments: ids, not foreign keys
        t.specificType('legal_entity_id', 'bigint[]').notNullable().defaultTo('{}');
        t.jsonb('delivery_data_list').notNullable().defaultTo('[]');
      });
      await db.schema.withSchema(schema).createTable('provider', (t) => {
        baseColumns(t, db);
        t.string('title', 200).notNullable().defaultTo('');
        t.string('name_str', 200).notNullable();
        t.bigInteger('client_id').notNullable().references('id').inTable(`${schema}.client`).index();
        t.string('shop_link', 1000).notNullable().defaultTo('');
        t.text('comment').notNullable().defaultTo('');
        // warehouses live in svc-carriers
        t.specificType('warehouse_point_id', 'bigint[]').notNullable().defaultTo('{}');
      });
      await db.schema.withSchema(schema).createTable('file', (t) => {
        t.uuid('id').primary();
        t.string('name', 300).notNullable();
        t.string('mime', 100).notNullable();
        t.integer('size').notNullable();
        t.binary('data').notNullable();
        t.bigInteger('user_id');
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      });
      await db.raw(
        `create index replica_live_operator on ??.replica (id) where entity = 'operator' and not deleted`,
        [schema],
      );
    },
  },
  listIndexes,
  clientOrderMigration,
  orderListIndexes,
  reachIndexes,
  positionReach,
  titleKeysSkipNull,
  orderPaidSeq,
  orderVersion,
  carrierStatus,
  telegram,
  notificationTables,
  taskMigration,
  chatMigration,
  notificationDelivery,
  telegramSender,
];
