import { baseColumns, type Migration } from '@caravan/service-kit';

export const migrations: Migration[] = [
  {
    name: '001_wallet',
    async up(db, schema) {
      await db.schema.withSchema(schema).createTable('wallet', (t) => {
        baseColumns(t, db);
        t.string('title', 200).notNullable();
        t.string('label', 200).notNullable().defaultTo('');
        t.bigInteger('client_id').notNullable().index();
        t.bigInteger('operator_id').index();
        t.integer('currency_id').notNullable().defaultTo(2);
        t.decimal('amount', 14, 2).notNullable().defaultTo(0);
        t.jsonb('options').notNullable().defaultTo('{}');
      });
      await db.raw('alter table ??.wallet add constraint wallet_amount_not_negative check (amount >= 0)', [
        schema,
      ]);
    },
  },
];
