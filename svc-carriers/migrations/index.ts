import { baseColumns, type Migration } from '@caravan/service-kit';
import type { Knex } from 'knex';
import { listIndexes } from './list_indexes';
import { warehouseOwner } from './003_warehouse_owner';
import { shipments } from './010_shipments';
import { carrierCredentials } from './011_carrier_credentials';

/** A link table: two references, one live link per pair. */
async function linkTable(
  db: Knex,
  schema: string,
  name: string,
  left: [string, string],
  right: [string, string],
) {
  await db.schema.withSchema(schema).createTable(name, (t) => {
    baseColumns(t, db);
    t.bigInteger(left[0]).notNullable().references('id').inTable(`${schema}.${left[1]}`).index();
    t.bigInteger(right[0]).notNullable().references('id').inTable(`${schema}.${right[1]}`).index();
  });
  await db.raw(`create unique index ?? on ??.?? (??, ??) where not deleted`, [
    `${name}_live_pair`,
    schema,
    name,
    left[0],
    right[0],
  ]);
}

export const migrations: Migration[] = [
  {
    name: '001_country_currency',
    async up(db, schema) {
      await db.schema.withSchema(schema).createTable('country', (t) => {
        baseColumns(t, db);
        t.string('title', 200).notNullable();
        t.string('title_en', 200).notNullable().defaultTo('');
        t.string('title_ru', 200).notNullable().defaultTo('');
      });
      await db.schema.withSchema(schema).createTable('currency', (t) => {
        baseColumns(t, db);
        t.string('title', 50).notNullable();
        t.string('symbol', 5).notNullable().defaultTo('');
      });
    },
  },
  {
    name: '002_directories',
    async up(db, schema) {
      const s = () => db.schema.withSchema(schema);
      const ref = (t: Knex.CreateTableBuilder, column: string, table: string, nullable = true) => {
        const c = t.bigInteger(column).references('id').inTable(`${schema}.${table}`);
        if (!nullable) c.notNullable();
        c.index();
      };
      await s().createTable('city', (t) => {
        baseColumns(t, db);
        t.string('title', 200).notNullable();
        t.string('title_en', 200).notNullable().defaultTo('');
        t.string('title_ru', 200).notNullable().defaultTo('');
        ref(t, 'country_id', 'country', false);
      });
      await s().createTable('logistic_product_type', (t) => {
        baseColumns(t, db);
        t.string('title', 200).notNullable();
      });
      await s().createTable('package_description', (t) => {
        baseColumns(t, db);
        t.string('title', 200).notNullable();
        t.string('title_cn', 200).notNullable().defaultTo('');
        t.jsonb('images').notNullable().defaultTo('[]');
      });
      await s().createTable('warehouse_point', (t) => {
        baseColumns(t, db);
        t.string('title', 200).notNullable();
        t.string('type', 20).notNullable();
        ref(t, 'city_id', 'city', false);
        t.string('address', 500).notNullable().defaultTo('');
        t.string('address_eng', 500).notNullable().defaultTo('');
        t.string('postcode', 6).notNullable().defaultTo('');
        t.text('comment').notNullable().defaultTo('');
      });
      await s().createTable('operator', (t) => {
        baseColumns(t, db);
        t.string('title', 200).notNullable();
        t.string('email', 320).notNullable().defaultTo('');
        t.string('phone', 12);
        t.boolean('incognito').notNullable().defaultTo(false);
        t.string('tax_type', 30);
        t.decimal('tax_rate', 5, 2).notNullable().defaultTo(0);
        t.decimal('nds_rate', 5, 2).notNullable().defaultTo(0);
        ref(t, 'consolidation_warehouse_id', 'warehouse_point');
        ref(t, 'to_warehouse_id', 'warehouse_point');
        ref(t, 'warehouse_id', 'warehouse_point');
        t.bigInteger('route_id');
        ref(t, 'package_id', 'package_description');
        // legal entities and bank accounts live in svc-payments: ids, not foreign keys
        t.specificType('legal_entity_id', 'bigint[]').notNullable().defaultTo('{}');
        t.bigInteger('bank_account_id');
        t.jsonb('working_hours').notNullable().defaultTo('{}');
        t.jsonb('transport_company_data').notNullable().defaultTo('[]');
        t.jsonb('client_list').notNullable().defaultTo('[]');
        t.text('comment').notNullable().defaultTo('');
      });
      await s().createTable('warehouse_point_contact', (t) => {
        baseColumns(t, db);
        t.string('title', 200).notNullable();
        t.string('contact_name', 200).notNullable();
        t.string('phone', 12).notNullable();
        ref(t, 'operator_id', 'operator', false);
        ref(t, 'warehouse_point_id', 'warehouse_point', false);
      });
      await linkTable(
        db,
        schema,
        'operator_warehouse_point_link',
        ['operator_id', 'operator'],
        ['warehouse_point_id', 'warehouse_point'],
      );
      await s().createTable('logistic_route', (t) => {
        baseColumns(t, db);
        t.string('title', 200).notNullable();
        t.string('type', 20).notNullable();
        t.string('state', 20).notNullable().defaultTo('draft').index();
        ref(t, 'operator_id', 'operator', false);
        ref(t, 'from_city_id', 'city', false);
        t.integer('days_from');
        t.integer('days_to');
        t.decimal('buyout_commission', 5, 2).notNullable().defaultTo(0);
        t.jsonb('density_table').notNullable().defaultTo('[]');
        t.text('description').notNullable().defaultTo('');
        t.text('comment').notNullable().defaultTo('');
      });
      await db.raw(
        'alter table ??.operator add constraint operator_route_fk foreign key (route_id) references ??.logistic_route (id)',
        [schema, schema],
      );
      await linkTable(
        db,
        schema,
        'logistic_route_logistic_product_type_link',
        ['logistic_route_id', 'logistic_route'],
        ['logistic_product_type_id', 'logistic_product_type'],
      );
      await linkTable(
        db,
        schema,
        'logistic_route_warehouse_point_link',
        ['logistic_route_id', 'logistic_route'],
        ['warehouse_point_id', 'warehouse_point'],
      );
      await s().createTable('extra_service', (t) => {
        baseColumns(t, db);
        t.string('title', 200).notNullable();
        t.string('type', 20).notNullable();
        ref(t, 'operator_id', 'operator', false);
        ref(t, 'warehouse_point_id', 'warehouse_point');
        ref(t, 'package_description_id', 'package_description');
        t.string('transport_company', 30);
        t.string('unit', 10).notNullable().defaultTo('kg');
        t.string('process_lang', 5).notNullable().defaultTo('ru');
        ref(t, 'client_price_currency_id', 'currency', false);
        t.boolean('client_price_fix').notNullable().defaultTo(false);
        t.decimal('client_price_from', 14, 2).notNullable().defaultTo(0);
        t.decimal('client_price_to', 14, 2);
        ref(t, 'cost_price_currency_id', 'currency', false);
        t.decimal('cost_price_from', 14, 2).notNullable().defaultTo(0);
        t.decimal('cost_price_to', 14, 2);
        t.text('comment').notNullable().defaultTo('');
      });
    },
  },
  warehouseOwner,
  listIndexes,
  shipments,
  carrierCredentials,
];
