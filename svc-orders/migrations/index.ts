import { baseColumns, type Migration } from '@caravan/service-kit';

export const migrations: Migration[] = [
  {
    name: '001_client',
    async up(db, schema) {
      await db.schema.withSchema(schema).createTable('client', (t) => {
        baseColumns(t, db);
        t.string('title', 200).notNullable();
        t.string('type', 20).notNullable().defaultTo('self');
        t.boolean('incognito').notNullable().defaultTo(false);
      });
    },
  },
];
