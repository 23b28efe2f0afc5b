import type { Migration } from '@caravan/service-kit';

/**
 * The order's row version (docs/adr/0018-order-fields-and-versions.md): every update of a client_order
 * row raises it, whichever path writes it (the generic update, a stage move, repricing, payments), so
 * a write based on an older reading is told so instead of silently overwriting another's.
 */
export const orderVersion: Migration = {
  name: '030_client_order_version',
  async up(db, schema) {
    await db.raw('alter table ??.client_order add column version integer not null default 0', [schema]);
    await db.raw(
      `create or replace function ??.client_order_version_raise() returns trigger language plpgsql as $$
begin
  new.version := old.version + 1;
  return new;
end $$`,
      [schema],
    );
    await db.raw(
      `create trigger client_order_version_raise before update on ??.client_order
         for each row execute function ??.client_order_version_raise()`,
      [schema, schema],
    );
  },
};
