import { baseColumns, type Migration } from '@caravan/service-kit';

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
];
