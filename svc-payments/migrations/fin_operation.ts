import { finOperation } from '@caravan/contracts';
import { baseColumns, listIndexMigration, type Migration } from '@caravan/service-kit';

/**
 * The wallet ledger (docs/adr/0011-wallet-ledger.md): one row per movement of one wallet, the balance
 * before and after; the database refuses a movement of 0 or less, a negative balance after, and the
 * same idempotency key twice for one wallet and direction.
 */
export const finOperationMigration: Migration = {
  name: '004_fin_operation',
  async up(db, schema) {
    await db.schema.withSchema(schema).createTable('fin_operation', (t) => {
      baseColumns(t, db);
      t.bigInteger('wallet_id').notNullable();
      t.bigInteger('client_id').notNullable();
      t.bigInteger('operator_id');
      t.decimal('amount', 14, 2).notNullable();
      t.string('cause', 30).notNullable();
      t.text('comment').notNullable().defaultTo('');
      t.string('datetime', 40).notNullable();
      t.string('direction', 3).notNullable();
      t.bigInteger('sender_id');
      t.bigInteger('receiver_id');
      t.string('state', 20).notNullable().defaultTo('done');
      t.string('type', 20).notNullable();
      t.decimal('wallet_amount_before', 14, 2).notNullable();
      t.decimal('wallet_amount_after', 14, 2).notNullable();
      t.string('idempotency_key', 200).notNullable().defaultTo('');
      t.boolean('test').notNullable().defaultTo(false);
      t.index(['wallet_id', 'id']);
      t.index(['client_id', 'id']);
    });
    await db.raw(
      `alter table ??.fin_operation
         add constraint fin_operation_amount_positive check (amount > 0),
         add constraint fin_operation_after_not_negative check (wallet_amount_after >= 0),
         add constraint fin_operation_direction check (direction in ('in', 'out')),
         add constraint fin_operation_balance check (
           wallet_amount_after = wallet_amount_before + case direction when 'in' then amount else -amount end)`,
      [schema],
    );
    await db.raw(
      `create unique index fin_operation_once on ??.fin_operation (wallet_id, direction, idempotency_key)
       where idempotency_key <> ''`,
      [schema],
    );
  },
};

export const finOperationListIndexes = listIndexMigration('005_fin_operation_list_indexes', [
  {
    contract: finOperation,
    sort: ['created_at', 'wallet_id', 'client_id', 'amount', 'cause', 'direction', 'type'],
  },
]);
