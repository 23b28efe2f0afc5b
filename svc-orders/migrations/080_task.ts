import { task } from '@caravan/contracts';
import { baseColumns, createListIndexes, type Migration } from '@caravan/service-kit';
import { orderReachColumns } from './order_reach_columns';

/**
 * Tasks on orders (issue 19, docs/adr/0023): type, deadline, responsible and content set by staff; the
 * result, success rate and who finished it when, written only by task_action_to_finished. The list
 * sorts by deadline and filters by responsible, author and open/finished; the order's title is kept as
 * a title key. Users (a task's responsible) are replicated from the gateway: an index finds their links.
 */
export const taskMigration: Migration = {
  name: '080_task',
  async up(db, schema) {
    await db.schema.withSchema(schema).createTable('task', (t) => {
      baseColumns(t, db);
      t.integer('task_type_id').notNullable();
      t.string('table_name', 50).notNullable().defaultTo('client_order');
      t.bigInteger('table_id').notNullable();
      t.bigInteger('executor_id').notNullable();
      t.timestamp('deadline', { useTz: true }).notNullable();
      t.text('content').notNullable().defaultTo('');
      t.bigInteger('author_id');
      t.text('result');
      t.smallint('success_rate');
      t.timestamp('finished_at', { useTz: true });
      t.bigInteger('finished_by');
      t.index(['table_name', 'table_id']);
      t.index(['executor_id', 'deadline']);
      t.index(['author_id', 'deadline']);
    });
    await db.raw(
      `alter table ??.task add constraint task_success_rate_range check (success_rate between 0 and 10)`,
      [schema],
    );
    await orderReachColumns(db, schema, 'task');
    await createListIndexes(db, schema, [
      { contract: task, sort: ['created_at', 'deadline', 'task_type_id', 'table_id', 'finished_at'] },
    ]);
    // who is linked to a client or an operator (task responsibles, chat participants)
    await db.raw(
      `create index replica_identity_link on ??.replica (((data->>'user_table_id')::bigint))
         where entity in ('client_user_link', 'operator_user_link')`,
      [schema],
    );
  },
};
