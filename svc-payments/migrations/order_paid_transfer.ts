import type { Migration } from '@caravan/service-kit';

/**
 * Money follows the goods (ADR 0013): an order's account counts its changes (`seq`), and each order
 * payment carries the sequence of its order's account after it; a transfer of paid amount between two
 * orders is one order_payment (type transfer) naming the order the money came from, with that order's
 * paid amounts and sequence after it. svc-orders applies the newest sequence of each order.
 */
export const orderPaidTransfer: Migration = {
  name: '020_order_paid_transfer',
  async up(db, schema) {
    await db.schema.withSchema(schema).alterTable('order_account', (t) => {
      t.bigInteger('seq').notNullable().defaultTo(0);
    });
    await db.schema.withSchema(schema).alterTable('order_payment', (t) => {
      t.bigInteger('paid_seq');
      t.bigInteger('source_order_id');
      t.decimal('source_product_paid_rur', 14, 2);
      t.decimal('source_delivery_paid_rur', 14, 2);
      t.bigInteger('source_paid_seq');
    });
  },
};
