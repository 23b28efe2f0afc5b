import type { Migration } from '@caravan/service-kit';

/**
 * Money follows the goods (ADR 0013): the newest sequence of svc-payments' account of each order that
 * svc-orders applied. Paid amounts now also shrink (a transfer to another order), so an older payment
 * event arriving late is recognised by its smaller sequence, not by a smaller amount.
 */
export const orderPaidSeq: Migration = {
  name: '020_order_paid_seq',
  async up(db, schema) {
    await db.schema.withSchema(schema).createTable('order_paid_seq', (t) => {
      t.bigInteger('client_order_id').primary();
      t.bigInteger('seq').notNullable();
    });
  },
};
