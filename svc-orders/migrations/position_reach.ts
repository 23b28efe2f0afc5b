import type { Migration } from '@caravan/service-kit';

/**
 * A position carries its order's client and operator (kept by triggers, like the title keys): the
 * positions list reaches a client's or an operator's positions by an index walk on its own columns,
 * not by testing each position's order while walking every position newest first (a client reaches
 * 1/1000 of them: 26,000 positions tested for a page of 10).
 */
const INDEXES: [name: string, columns: string][] = [
  ['client_order_position_client_reach', 'client_id, deleted, created_at, id'],
  ['client_order_position_operator_reach', 'operator_id, deleted, created_at, id'],
  ['client_order_position_client_stage_reach', 'client_id, stage, deleted, created_at, id'],
  ['client_order_position_operator_stage_reach', 'operator_id, stage, deleted, created_at, id'],
];

export const positionReach: Migration = {
  name: '007_position_reach',
  async up(db, schema) {
    await db.raw(
      'alter table ??.client_order_position add column client_id bigint, add column operator_id bigint',
      [schema],
    );
    await db.raw(
      `update ??.client_order_position p set client_id = o.client_id, operator_id = o.operator_id
         from ??.client_order o where o.id = p.client_order_id`,
      [schema, schema],
    );
    await db.raw(
      `create or replace function ??.client_order_position_reach_fill() returns trigger language plpgsql as $$
begin
  select o.client_id, o.operator_id into new.client_id, new.operator_id
    from "${schema}".client_order o where o.id = new.client_order_id;
  return new;
end $$`,
      [schema],
    );
    await db.raw(
      `create trigger client_order_position_reach_fill before insert or update of client_order_id
         on ??.client_order_position for each row execute function ??.client_order_position_reach_fill()`,
      [schema, schema],
    );
    await db.raw(
      `create or replace function ??.client_order_position_reach_cascade() returns trigger language plpgsql as $$
begin
  update "${schema}".client_order_position set client_id = new.client_id, operator_id = new.operator_id
   where client_order_id = new.id;
  return null;
end $$`,
      [schema],
    );
    await db.raw(
      `create trigger client_order_position_reach_cascade after update of client_id, operator_id
         on ??.client_order for each row
         when (old.client_id is distinct from new.client_id or old.operator_id is distinct from new.operator_id)
         execute function ??.client_order_position_reach_cascade()`,
      [schema, schema],
    );
    for (const [name, columns] of INDEXES)
      await db.raw(`create index if not exists ?? on ??.client_order_position (${columns})`, [name, schema]);
  },
};
