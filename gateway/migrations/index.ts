import { baseColumns, kitMigrations, Outbox, type Migration } from '@caravan/service-kit';
import { publishIdentityRows } from '../src/domain/identityEvents';
import { listIndexes } from './list_indexes';

/** The identity schema: users, sessions, user↔client and user↔operator links, login attempts. */
export const migrations: Migration[] = [
  {
    name: '001_identity',
    async up(db, schema) {
      // a fresh builder per statement: a knex SchemaBuilder accumulates and would re-run earlier ones
      const s = () => db.schema.withSchema(schema);
      await s().createTable('user_table', (t) => {
        baseColumns(t, db);
        t.string('email', 320).notNullable();
        t.string('password_hash', 300).notNullable();
        t.string('first_name', 100).notNullable().defaultTo('');
        t.string('last_name', 100).notNullable().defaultTo('');
        t.string('grade', 100).notNullable().defaultTo('');
        t.string('phone', 20);
        t.text('photo');
        t.specificType('roles', 'text[]').notNullable().defaultTo('{}');
        t.string('state', 20).notNullable().defaultTo('waiting_auth');
        t.string('telegram_id', 50);
        t.jsonb('options').notNullable().defaultTo('{}');
      });
      await db.raw('create unique index user_table_email_unique on ??.user_table (lower(email))', [schema]);
      await s().createTable('session', (t) => {
        t.bigIncrements('id').primary();
        t.bigInteger('user_id').notNullable().references('id').inTable(`${schema}.user_table`);
        t.string('token_hash', 64).notNullable().unique();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.timestamp('revoked_at', { useTz: true });
        t.string('ip', 64);
      });
      for (const link of ['client_user_link', 'operator_user_link'] as const) {
        const column = link === 'client_user_link' ? 'client_id' : 'operator_id';
        await s().createTable(link, (t) => {
          baseColumns(t, db);
          t.bigInteger(column).notNullable();
          t.bigInteger('user_table_id').notNullable().references('id').inTable(`${schema}.user_table`);
          t.index(['user_table_id']);
        });
      }
      await s().createTable('login_attempt', (t) => {
        t.bigIncrements('id').primary();
        t.string('email', 320).notNullable();
        t.string('ip', 64).notNullable();
        t.boolean('success').notNullable();
        t.timestamp('at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.index(['email', 'at']);
        t.index(['ip', 'at']);
      });
    },
  },
  {
    name: '002_email_tokens',
    async up(db, schema) {
      await db.schema.withSchema(schema).alterTable('user_table', (t) => {
        t.timestamp('email_confirmed_at', { useTz: true });
      });
      // users created before email confirmation existed (seeded) count as confirmed
      await db(`${schema}.user_table`).update({ email_confirmed_at: db.fn.now() });
      await db.schema.withSchema(schema).createTable('email_token', (t) => {
        t.bigIncrements('id').primary();
        t.bigInteger('user_id').notNullable().references('id').inTable(`${schema}.user_table`);
        t.string('purpose', 20).notNullable();
        t.string('token_hash', 64).notNullable().unique();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('expires_at', { useTz: true }).notNullable();
        t.timestamp('used_at', { useTz: true });
      });
    },
  },
  {
    name: '003_registration_attempts',
    async up(db, schema) {
      await db.schema.withSchema(schema).createTable('registration_attempt', (t) => {
        t.bigIncrements('id').primary();
        t.string('ip', 64).notNullable();
        t.timestamp('at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.index(['ip', 'at']);
      });
      // the login throttle asks which addresses already signed in to an account
      await db.raw('create index login_attempt_success on ??.login_attempt (email, ip) where success', [
        schema,
      ]);
    },
  },
  listIndexes,
  {
    name: '005_registration_in_the_link',
    async up(db, schema) {
      // what a registration asks of an unconfirmed account travels in its link (password hash, names)
      await db.schema.withSchema(schema).alterTable('email_token', (t) => {
        t.jsonb('pending');
      });
    },
  },
  // history (who changed which user field) and the outbox for the generic entity helpers
  ...kitMigrations,
  {
    name: '050_login_device',
    async up(db, schema) {
      // the browser an attempt came from (the hash of its device cookie): a known device is the owner's
      await db.schema.withSchema(schema).alterTable('login_attempt', (t) => {
        t.string('device', 64);
        t.index(['email', 'device', 'at']);
      });
    },
  },
  {
    name: '071_publish_identity',
    async up(db) {
      // services keep an identity replica since issue 19 (svc-orders: who hears a notification): the users
      // and links made before it are published once, as created
      await publishIdentityRows(db, new Outbox('gateway'), {
        users: await db('user_table').orderBy('id'),
        clientLinks: await db('client_user_link').orderBy('id'),
        operatorLinks: await db('operator_user_link').orderBy('id'),
      });
    },
  },
  {
    name: '100_publish_user_email',
    async up(db) {
      // a user's identity event carries their email since svc-orders mails notifications (docs/adr/0028):
      // the users written before are published once more, so its replica knows their addresses
      await publishIdentityRows(db, new Outbox('gateway'), { users: await db('user_table').orderBy('id') });
    },
  },
];
