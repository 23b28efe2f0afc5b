import knex, { type Knex } from 'knex';
import pg from 'pg';
import { traceQueries } from './tracing';

// bigint ids fit in a JS number for any realistic table; numeric (money) stays a string on purpose.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
const INT8_ARRAY = 1016 as Parameters<typeof pg.types.getTypeParser>[0]; // bigint[]: no named constant in pg-types
const parseInt8Array = pg.types.getTypeParser(INT8_ARRAY) as (v: string) => (string | null)[];
pg.types.setTypeParser(INT8_ARRAY, (v) => parseInt8Array(v).map((x) => (x === null ? null : Number(x))));
// A day is a day: 'YYYY-MM-DD' as stored, not a Date at the server's midnight.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

export type Db = Knex;

/** A knex for one schema; while tracing is on, its statements in a traced action are spans (tracing.ts). */
export function createDb(url: string, schema: string, poolMax = 10): Knex {
  const db = knex({
    client: 'pg',
    connection: url,
    searchPath: [schema, 'public'],
    pool: { min: 0, max: poolMax },
  });
  traceQueries(db);
  return db;
}

export type Migration = {
  name: string;
  up(db: Knex, schema: string): Promise<void>;
  down?(db: Knex, schema: string): Promise<void>;
};

/**
 * Runs a service's migrations into its own schema. Replicas starting together queue on an advisory
 * lock held by one connection: knex's own lock table cannot guard its creation.
 */
export async function migrate(db: Knex, schema: string, migrations: readonly Migration[]): Promise<string[]> {
  type Conn = { query(sql: string, values: unknown[]): Promise<unknown> };
  const conn = (await db.client.acquireConnection()) as Conn;
  try {
    await conn.query('select pg_advisory_lock(hashtext($1))', [`caravan-migrate-${schema}`]);
    return await migrateLocked(db, schema, migrations);
  } finally {
    await conn
      .query('select pg_advisory_unlock(hashtext($1))', [`caravan-migrate-${schema}`])
      .catch(() => {});
    await db.client.releaseConnection(conn);
  }
}

async function migrateLocked(db: Knex, schema: string, migrations: readonly Migration[]): Promise<string[]> {
  await db.raw('create schema if not exists ??', [schema]);
  const source: Knex.MigrationSource<Migration> = {
    getMigrations: async () => [...migrations],
    getMigrationName: (m) => m.name,
    getMigration: async (m) => ({
      up: (k: Knex) => m.up(k, schema),
      down: (k: Knex) => (m.down ? m.down(k, schema) : Promise.resolve()),
    }),
  };
  const [, applied] = await db.migrate.latest({ migrationSource: source, schemaName: schema });
  return applied as string[];
}

/** id, deleted, created_at, updated_at: what every entity row carries (ARCHITECTURE §7). */
export function baseColumns(t: Knex.CreateTableBuilder, db: Knex) {
  t.bigIncrements('id').primary();
  t.boolean('deleted').notNullable().defaultTo(false);
  t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
}

/** Tables every service has: outbox, inbox, history and the generic replica store. */
export const kitMigrations: Migration[] = [
  {
    name: '000_kit_outbox_inbox_history_replica',
    async up(db, schema) {
      // a fresh builder per statement: a knex SchemaBuilder accumulates and would re-run earlier ones
      const s = () => db.schema.withSchema(schema);
      await s().createTable('outbox', (t) => {
        t.bigIncrements('id').primary();
        t.uuid('event_id').notNullable().unique();
        t.string('topic').notNullable();
        t.string('key').notNullable();
        t.jsonb('event').notNullable();
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.timestamp('sent_at', { useTz: true });
        t.integer('attempts').notNullable().defaultTo(0);
        t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.text('last_error');
      });
      await db.raw('create index outbox_pending on ??.outbox (id) where sent_at is null', [schema]);
      await s().createTable('inbox', (t) => {
        t.uuid('event_id').primary();
        t.string('topic').notNullable();
        t.string('type').notNullable();
        t.timestamp('handled_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
      });
      await s().createTable('history', (t) => {
        t.bigIncrements('id').primary();
        t.string('table_name').notNullable();
        t.bigInteger('item_id').notNullable();
        t.bigInteger('user_id');
        t.string('user_full_name').notNullable().defaultTo('');
        t.timestamp('datetime', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.string('field').notNullable();
        t.jsonb('old_value');
        t.jsonb('new_value');
        t.index(['table_name', 'item_id']);
      });
      await s().createTable('replica', (t) => {
        t.string('entity').notNullable();
        t.bigInteger('id').notNullable();
        t.jsonb('data').notNullable();
        t.boolean('deleted').notNullable().defaultTo(false);
        t.timestamp('occurred_at', { useTz: true }).notNullable();
        t.uuid('event_id').notNullable();
        t.primary(['entity', 'id']);
      });
    },
  },
  {
    name: '001_kit_outbox_claims_replica_seq_idempotency',
    async up(db, schema) {
      const s = () => db.schema.withSchema(schema);
      // a relay claims whole keys for a while instead of holding row locks during the send (docs/events.md)
      await s().alterTable('outbox', (t) => {
        t.uuid('claimed_by');
        t.timestamp('claimed_until', { useTz: true });
      });
      await db.raw('create index outbox_pending_by_key on ??.outbox (topic, key, id) where sent_at is null', [
        schema,
      ]);
      await s().alterTable('replica', (t) => {
        t.bigInteger('seq');
      });
      // a create or action repeated with the same Idempotency-Key answers the first reply (registry.ts)
      await s().createTable('idempotency', (t) => {
        t.bigInteger('user_id').notNullable();
        t.string('key', 200).notNullable();
        t.string('request_hash', 64).notNullable();
        t.text('reply'); // the reply's JSON as sent: replayed byte for byte
        t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
        t.primary(['user_id', 'key']);
        t.index(['created_at']);
      });
    },
  },
  {
    // two subscriptions of one service may read one topic (svc-payments: the orders' replica and the
    // auto-debit): each counts an event once for itself, not once for both
    name: '002_kit_inbox_per_subscription',
    async up(db, schema) {
      await db.raw(
        `alter table ??.inbox add column subscription varchar(100) not null default '';
         alter table ??.inbox drop constraint inbox_pkey;
         alter table ??.inbox add primary key (subscription, event_id)`,
        [schema, schema, schema],
      );
    },
  },
  {
    // the trace context of the action that wrote the row: the relay's send continues it (docs/adr/0033)
    name: '003_kit_outbox_trace',
    async up(db, schema) {
      await db.schema.withSchema(schema).alterTable('outbox', (t) => {
        t.jsonb('trace');
      });
    },
  },
];
