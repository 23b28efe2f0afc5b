import type { Knex } from 'knex';

/**
 * A row set on an order (a task, a chat) carries the order's client and operator, kept by triggers as
 * the positions' are (migration 007): its list reaches a client's or an operator's rows by an index walk
 * on its own columns, and its events say who may see them (the gateway's SSE filter).
 */
export async function orderReachColumns(db: Knex, schema: string, table: string) {
  await db.raw('alter table ??.?? add column client_id bigint, add column operator_id bigint', [
    schema,
    table,
  ]);
  await db.raw(
    `create or replace function ??.??() returns trigger language plpgsql as $$
begin
  select o.client_id, o.operator_id into new.client_id, new.operator_id
    from "${schema}".client_order o where o.id = new.table_id and new.table_name = 'client_order';
  return new;
end $$`,
    [schema, `${table}_reach_fill`],
  );
  await db.raw(
    `create trigger ?? before insert or update of table_name, table_id on ??.??
       for each row execute function ??.??()`,
    [`${table}_reach_fill`, schema, table, schema, `${table}_reach_fill`],
  );
  await db.raw(
    `create or replace function ??.??() returns trigger language plpgsql as $$
begin
  update "${schema}".${table} set client_id = new.client_id, operator_id = new.operator_id
   where table_name = 'client_order' and table_id = new.id;
  return null;
end $$`,
    [schema, `${table}_reach_cascade`],
  );
  await db.raw(
    `create trigger ?? after update of client_id, operator_id on ??.client_order for each row
       when (old.client_id is distinct from new.client_id or old.operator_id is distinct from new.operator_id)
       execute function ??.??()`,
    [`${table}_reach_cascade`, schema, schema, `${table}_reach_cascade`],
  );
  await db.raw('create index ?? on ??.?? (client_id, deleted, id)', [`${table}_client_reach`, schema, table]);
  await db.raw('create index ?? on ??.?? (operator_id, deleted, id)', [
    `${table}_operator_reach`,
    schema,
    table,
  ]);
}
