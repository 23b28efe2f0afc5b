import type { Migration } from '@caravan/service-kit';

/**
 * The shipment history of each order (issue 18): every status its carrier reported, once. A status is
 * the same when the carrier, the vendor's status and its time are (a webhook and a poll both report it).
 * Positions are found by their waybill as the Chinese tracker gives it (normalizedWaybill).
 */
export const carrierStatus: Migration = {
  name: '060_carrier_status',
  async up(db, schema) {
    await db.schema.withSchema(schema).createTable('client_order_carrier_status', (t) => {
      t.bigIncrements('id');
      t.bigInteger('client_order_id').notNullable();
      t.bigInteger('shipment_id').notNullable();
      t.string('carrier', 20).notNullable();
      t.string('number', 100).notNullable();
      t.string('vendor_status', 100).notNullable();
      t.string('label', 200).notNullable();
      t.timestamp('status_at', { useTz: true }).notNullable();
      t.timestamp('confirmed_at', { useTz: true }).notNullable();
      t.string('city', 200);
      t.unique(['client_order_id', 'carrier', 'vendor_status', 'status_at']);
    });
    await db.raw(
      `create index client_order_position_waybill_normalized
         on ??.client_order_position (lower(btrim(waybill))) where not deleted`,
      [schema],
    );
  },
};
