import { baseColumns, type Migration } from '@caravan/service-kit';
import { finOperationListIndexes, finOperationMigration } from './fin_operation';
import { ledgerPost, ledgerPostMany, ledgerPostPrev, ledgerPostTrace } from './ledger_post';
import { listIndexes } from './list_indexes';
import { orderPaidTransfer } from './order_paid_transfer';
import {
  acquiringExpired,
  autoDebitSeen,
  orderReplicaByClient,
  paymentsListIndexes,
  paymentsMigration,
} from './payments';

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
  {
    name: '002_legal_entity_bank_account_exchange_rate',
    async up(db, schema) {
      const s = () => db.schema.withSchema(schema);
      await s().createTable('legal_entity', (t) => {
        baseColumns(t, db);
        t.string('title', 300).notNullable();
        t.string('title_full', 500).notNullable().defaultTo('');
        t.string('type', 20).notNullable().defaultTo('company');
        t.string('inn', 12).notNullable().index();
        t.string('kpp', 9).notNullable().defaultTo('');
        t.string('director_name', 200).notNullable().defaultTo('');
        t.string('accountant_name', 200).notNullable().defaultTo('');
        t.string('address', 500).notNullable().defaultTo('');
        t.text('description').notNullable().defaultTo('');
        // operators live in svc-carriers, clients in svc-orders: ids, not foreign keys
        t.bigInteger('operator_id').index();
        t.bigInteger('client_id').index();
      });
      await db.raw(
        'alter table ??.legal_entity add constraint legal_entity_one_owner check (operator_id is null or client_id is null)',
        [schema],
      );
      await s().createTable('bank_account', (t) => {
        baseColumns(t, db);
        t.string('title', 200).notNullable();
        t.bigInteger('legal_entity_id')
          .notNullable()
          .references('id')
          .inTable(`${schema}.legal_entity`)
          .index();
        t.string('account_number', 20).notNullable();
        t.string('bank_bik', 9).notNullable();
        t.string('bank_account_number', 20).notNullable().defaultTo('');
        t.string('bank_title_full', 300).notNullable().defaultTo('');
        t.string('bank_title_short', 200).notNullable().defaultTo('');
        t.text('comment').notNullable().defaultTo('');
      });
      await s().createTable('exchange_rate', (t) => {
        baseColumns(t, db);
        t.date('date').notNullable();
        t.bigInteger('operator_id');
        for (const kind of [
          'cbr_rate',
          'client_buy_rate',
          'client_sell_rate',
          'incoming_buy_rate',
          'incoming_sell_rate',
        ])
          for (const currency of ['cny', 'usd']) t.decimal(`${kind}_${currency}`, 14, 4);
        t.index(['operator_id', 'date']);
      });
    },
  },
  listIndexes,
  finOperationMigration,
  finOperationListIndexes,
  paymentsMigration,
  paymentsListIndexes,
  orderReplicaByClient,
  autoDebitSeen,
  orderPaidTransfer,
  acquiringExpired,
  ledgerPost,
  ledgerPostPrev,
  ledgerPostTrace,
  ledgerPostMany,
];
