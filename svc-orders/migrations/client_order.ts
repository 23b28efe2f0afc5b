import { baseColumns, type Migration } from '@caravan/service-kit';

const money = (t: { decimal(name: string, p: number, s: number): unknown }, ...names: string[]) =>
  names.forEach((n) => t.decimal(n, 14, 2));

/**
 * Orders and their positions (spec §3): money numeric(14,2), weights numeric(15,3), volumes
 * numeric(15,4); nested data (delivery data, options, warnings, receipts, files) as jsonb. References
 * into other services' data (operators, warehouses, routes, product types, rates) are plain ids.
 */
export const clientOrderMigration: Migration = {
  name: '004_client_order_position',
  async up(db, schema) {
    const s = () => db.schema.withSchema(schema);
    await s().createTable('client_order', (t) => {
      baseColumns(t, db);
      t.string('title', 200).notNullable().defaultTo('');
      t.bigInteger('client_id').notNullable().references('id').inTable(`${schema}.client`).index();
      t.bigInteger('operator_id').notNullable().index();
      t.string('order_number', 500).notNullable().defaultTo('');
      t.string('stage', 30).notNullable().defaultTo('draft');
      t.string('state', 20).notNullable().defaultTo('active');
      t.bigInteger('consolidation_warehouse_id');
      t.bigInteger('to_warehouse_id');
      t.bigInteger('logistic_route_id').notNullable();
      t.string('buyout_type', 20).notNullable().defaultTo('operator');
      t.bigInteger('package_id');
      t.string('delivery_type', 20).notNullable().defaultTo('to_door');
      t.jsonb('delivery_data');
      t.string('transport_company_rus', 30);
      t.string('transport_company_rus_order_number', 100).notNullable().defaultTo('');
      t.string('transport_company_rus_order_uuid', 100).notNullable().defaultTo('');
      t.string('transport_company_rus_delivery_state', 100).notNullable().defaultTo('');
      t.string('shipment_article', 200).notNullable().defaultTo('');
      t.jsonb('options').notNullable().defaultTo('{"receiver_str":""}');
      t.date('send_date');
      t.date('to_ru_delivery_date');
      t.date('to_door_delivery_date');
      t.boolean('customs_passed').notNullable().defaultTo(false);
      t.text('description').notNullable().defaultTo('');
      t.decimal('weight', 15, 3);
      t.decimal('volume', 15, 4);
      t.decimal('density', 15, 2);
      t.integer('amount');
      money(
        t,
        'buyout_price_rur',
        'logistic_route_price_usd',
        'package_price_rur',
        'to_ru_delivery_price',
        'to_ru_delivery_price_rur',
        'to_door_delivery_price_rur',
        'total_price_rur',
        'product_paid_rur',
        'delivery_paid_rur',
      );
      t.bigInteger('to_ru_delivery_currency_id');
      t.string('product_payment_state', 30).notNullable().defaultTo('not_paid');
      t.string('delivery_payment_state', 30).notNullable().defaultTo('not_paid');
      t.decimal('cdek_commission', 5, 2);
      t.jsonb('extra_service').notNullable().defaultTo('[]');
      t.text('comment').notNullable().defaultTo('');
      t.bigInteger('rate_id');
      t.bigInteger('parent_order_id').references('id').inTable(`${schema}.client_order`).index();
      t.jsonb('warning_arr').notNullable().defaultTo('[]');
    });
    // an order without a title is named by its number ('заказ 12'): the id exists before the trigger runs
    await db.raw(
      `create or replace function ??.client_order_default_title() returns trigger language plpgsql as $$
begin
  if new.title = '' then new.title := 'заказ ' || new.id; end if;
  return new;
end $$`,
      [schema],
    );
    await db.raw(
      `create trigger client_order_default_title before insert on ??.client_order
       for each row execute function ??.client_order_default_title()`,
      [schema, schema],
    );
    await s().createTable('client_order_position', (t) => {
      baseColumns(t, db);
      t.bigInteger('client_order_id')
        .notNullable()
        .references('id')
        .inTable(`${schema}.client_order`)
        .index();
      t.string('title', 500).notNullable();
      t.string('title_original', 500).notNullable().defaultTo('');
      t.string('title_ru', 500).notNullable().defaultTo('');
      t.string('link', 2000).notNullable().defaultTo('');
      t.string('waybill', 100).notNullable().defaultTo('');
      t.bigInteger('type_id');
      t.string('stage', 30).notNullable().defaultTo('draft');
      t.string('buyout_state', 20).notNullable().defaultTo('not_done');
      t.decimal('price_cny', 14, 2);
      t.decimal('amount', 14, 2);
      t.decimal('weight', 15, 3);
      t.decimal('volume', 15, 4);
      t.jsonb('product_images').notNullable().defaultTo('[]');
      t.jsonb('warehouse_images').notNullable().defaultTo('[]');
      t.jsonb('files').notNullable().defaultTo('[]');
      t.bigInteger('source_id');
      t.bigInteger('provider_id').references('id').inTable(`${schema}.provider`);
      t.jsonb('consolidation_receive_table').notNullable().defaultTo('[]');
      t.date('to_consolidation_warehouse_delivery_date');
      money(
        t,
        'to_consolidation_warehouse_delivery_price_cny',
        'to_ru_delivery_price_cny',
        'to_door_delivery_price_rur',
        'buyout_price_rur',
        'sell_price_no_nds_rur',
        'sell_price_nds_rur',
      );
      t.boolean('transport_company_rus_insurance').notNullable().defaultTo(false);
      t.jsonb('warehouse_cnt_data');
      t.boolean('is_waybill_tracking').notNullable().defaultTo(false);
      t.jsonb('options').notNullable().defaultTo('{"unconfirmed_data":[]}');
    });
  },
};
