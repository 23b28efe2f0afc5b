import { acquiringPayment, orderPayment } from '@caravan/contracts';
import { baseColumns, listIndexMigration, type Migration } from '@caravan/service-kit';

/**
 * Payments through the acquirer and the orders' payments (docs/adr/0012-payments.md):
 * - acquiring_payment: what the payer was asked for, pending until the acquirer's signed callback;
 * - order_payment: one row per payment of an order with the order's paid amounts after it;
 * - order_account: the order's paid amounts, the row a payment of the order locks.
 * The database refuses an amount of 0 or less and one idempotency key twice per order.
 */
export const paymentsMigration: Migration = {
  name: '006_payments',
  async up(db, schema) {
    const s = () => db.schema.withSchema(schema);
    await s().createTable('acquiring_payment', (t) => {
      baseColumns(t, db);
      t.string('operation_type', 20).notNullable();
      t.string('type', 10).notNullable();
      t.bigInteger('wallet_id');
      t.bigInteger('client_order_id');
      t.string('kind', 10);
      t.bigInteger('client_id').notNullable();
      t.bigInteger('operator_id');
      t.bigInteger('user_id').notNullable();
      t.decimal('amount', 14, 2).notNullable();
      t.decimal('amount_with_fee', 14, 2).notNullable();
      t.string('state', 10).notNullable().defaultTo('pending');
      t.string('message', 500).notNullable().defaultTo('');
      t.string('transaction_id', 200).notNullable().defaultTo('');
      t.string('payer_url', 1000).notNullable().defaultTo('');
      t.string('comment', 500).notNullable().defaultTo('');
      t.boolean('test').notNullable().defaultTo(false);
      t.index(['wallet_id', 'id']);
      t.index(['client_order_id', 'id']);
      t.index(['client_id', 'id']);
    });
    await s().createTable('order_payment', (t) => {
      baseColumns(t, db);
      t.bigInteger('client_order_id').notNullable();
      t.bigInteger('client_id').notNullable();
      t.bigInteger('operator_id');
      t.string('kind', 10).notNullable();
      t.string('type', 10).notNullable();
      t.decimal('amount', 14, 2).notNullable();
      t.decimal('product_paid_rur', 14, 2).notNullable();
      t.decimal('delivery_paid_rur', 14, 2).notNullable();
      t.bigInteger('acquiring_payment_id');
      t.bigInteger('fin_operation_id');
      t.string('comment', 500).notNullable().defaultTo('');
      t.string('idempotency_key', 200).notNullable().defaultTo('');
      t.boolean('test').notNullable().defaultTo(false);
      t.index(['client_order_id', 'id']);
      t.index(['client_id', 'id']);
    });
    await s().createTable('order_account', (t) => {
      t.bigInteger('client_order_id').primary();
      t.decimal('product_paid_rur', 14, 2).notNullable().defaultTo(0);
      t.decimal('delivery_paid_rur', 14, 2).notNullable().defaultTo(0);
    });
    await db.raw(
      `alter table ??.acquiring_payment
         add constraint acquiring_payment_amount_positive check (amount > 0 and amount_with_fee >= amount),
         add constraint acquiring_payment_state check (state in ('pending', 'done', 'failed'));
       alter table ??.order_payment
         add constraint order_payment_amount_positive check (amount > 0);
       create unique index order_payment_once on ??.order_payment (client_order_id, idempotency_key)
         where idempotency_key <> '';
       create unique index acquiring_payment_order_once on ??.order_payment (acquiring_payment_id)
         where acquiring_payment_id is not null`,
      [schema, schema, schema, schema],
    );
  },
};

export const paymentsListIndexes = listIndexMigration('007_payments_list_indexes', [
  { contract: acquiringPayment, sort: ['created_at', 'amount', 'state', 'type'] },
  { contract: orderPayment, sort: ['created_at', 'client_order_id', 'amount', 'kind', 'type'] },
]);

/** The orders of a client (the wallet widget's dues, the write-off) and an order's positions (invoices) in the replica. */
export const orderReplicaByClient: Migration = {
  name: '008_replica_orders_by_client',
  async up(db, schema) {
    await db.raw(
      `create index replica_client_order_by_client on ??.replica (((data->>'client_id')::bigint), id)
       where entity = 'client_order'`,
      [schema],
    );
    // an invoice reads the positions of its orders
    await db.raw(
      `create index replica_position_by_order on ??.replica (((data->>'client_order_id')::bigint))
       where entity = 'client_order_position'`,
      [schema],
    );
  },
};

/** Auto-debit looks at an order once, when it is first seen waiting for payment (ADR 0012). */
export const autoDebitSeen: Migration = {
  name: '009_auto_debit',
  async up(db, schema) {
    await db.schema.withSchema(schema).createTable('auto_debit', (t) => {
      t.bigInteger('client_order_id').primary();
      t.string('outcome', 500).notNullable().defaultTo('');
      t.timestamp('at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    });
  },
};

/**
 * Reconciliation (ADR 0014): a payment the bank declined or never started, asked about when no callback
 * came, is 'expired'; the job finds the pending ones oldest first.
 */
export const acquiringExpired: Migration = {
  name: '040_acquiring_payment_expired',
  async up(db, schema) {
    await db.raw(
      `alter table ??.acquiring_payment
         drop constraint acquiring_payment_state,
         add constraint acquiring_payment_state check (state in ('pending', 'done', 'failed', 'expired'));
       create index acquiring_payment_pending on ??.acquiring_payment (created_at, id) where state = 'pending'`,
      [schema, schema],
    );
  },
};
