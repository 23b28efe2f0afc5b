import type { Migration } from '@caravan/service-kit';

/**
 * Shipments followed by svc-carriers (docs/adr/0020): one per client order whose Russian carrier is
 * tracked and who has a waybill number or uuid, derived from the order replica; `shipment_status` is the
 * log of every status a vendor reported (unique per shipment, status and moment: a repeated push or poll
 * stores nothing twice); `cnt_waybill` the Chinese domestic waybills registered with the tracker.
 * Orders and clients live in svc-orders: ids, not foreign keys.
 */
export const shipments: Migration = {
  name: '010_shipments',
  async up(db, schema) {
    const s = () => db.schema.withSchema(schema);
    await s().createTable('shipment', (t) => {
      t.bigIncrements('id').primary();
      t.bigInteger('client_order_id').notNullable().unique();
      t.bigInteger('operator_id').notNullable().index();
      t.bigInteger('client_id').notNullable();
      t.string('carrier', 20).notNullable();
      t.string('number', 100);
      t.string('uuid', 100);
      t.string('vendor_status', 200);
      t.timestamp('status_at', { useTz: true });
      t.boolean('final').notNullable().defaultTo(false);
      t.timestamp('last_confirmed_at', { useTz: true });
      t.text('last_error');
      t.timestamp('next_check_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.integer('failures').notNullable().defaultTo(0);
      t.string('lease_owner', 64);
      t.timestamp('lease_until', { useTz: true });
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.index(['carrier', 'number']);
      t.index(['carrier', 'uuid']);
    });
    // what the scheduler claims: the shipments still followed, by when they are due
    await db.raw('create index shipment_due on ??.shipment (next_check_at) where not final', [schema]);
    await s().createTable('shipment_status', (t) => {
      t.bigIncrements('id').primary();
      t.bigInteger('shipment_id').notNullable().references('id').inTable(`${schema}.shipment`);
      t.string('vendor_status', 200).notNullable();
      t.timestamp('status_at', { useTz: true }).notNullable();
      t.string('city', 200);
      t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.unique(['shipment_id', 'vendor_status', 'status_at']);
    });
    await s().createTable('cnt_waybill', (t) => {
      t.bigIncrements('id').primary();
      // normalizedWaybill: trimmed, lower case
      t.string('waybill', 100).notNullable().unique();
      t.bigInteger('order_id');
      t.string('warehouse_alias', 100).notNullable().defaultTo('');
      t.string('status', 50).notNullable().defaultTo('NotFound');
      t.jsonb('events').notNullable().defaultTo('[]');
      t.boolean('arrived').notNullable().defaultTo(false);
      t.text('last_error');
      t.timestamp('next_check_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    });
  },
};
