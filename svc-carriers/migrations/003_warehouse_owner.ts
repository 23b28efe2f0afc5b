import type { Migration } from '@caravan/service-kit';

/**
 * Warehouses get an owner (docs/access.md): the operator or the client who edits and deletes it; a
 * link to an operator only lets the operator use it. Existing warehouses linked to exactly one
 * operator were already editable by that operator alone: it becomes their owner; the rest stay the
 * platform's (admins only).
 */
export const warehouseOwner: Migration = {
  name: '003_warehouse_owner',
  async up(db, schema) {
    await db.schema.withSchema(schema).alterTable('warehouse_point', (t) => {
      t.bigInteger('operator_id').references('id').inTable(`${schema}.operator`).index();
      // clients live in svc-orders: an id, not a foreign key
      t.bigInteger('client_id').index();
    });
    await db.raw(
      `alter table ??.warehouse_point add constraint warehouse_point_one_owner
         check (operator_id is null or client_id is null)`,
      [schema],
    );
    await db.raw(
      `update ??.warehouse_point w set operator_id = l.operator_id
         from (select warehouse_point_id, min(operator_id) as operator_id
                 from ??.operator_warehouse_point_link where not deleted
                group by warehouse_point_id having count(distinct operator_id) = 1) l
        where l.warehouse_point_id = w.id`,
      [schema, schema],
    );
  },
};
