import type { Migration } from '@caravan/service-kit';

/**
 * Indexes for the orders lists as their readers open them (issue 9, deploy/local/bench/orders.mjs):
 * a client's or an operator's orders newest first, and a stage tab. Each index leads with the columns
 * the list compares with '=' (the reader's client or operator, the stage, deleted) and ends with the
 * seek key of the default sort (created_at, id): the page is an index walk from the cursor and the
 * capped count an index-only scan, instead of filtering a walk over every order (a client reaches
 * 1/1000 of them) or fetching a row for each of an operator's 50,000 orders to count 1,001 of one stage.
 * `stage` in its own collation, as the filter compares it (the sort indexes use the sort collation).
 */
const INDEXES: [table: string, name: string, columns: string][] = [
  ['client_order', 'client_order_client_reach', 'client_id, deleted, created_at, id'],
  ['client_order', 'client_order_operator_reach', 'operator_id, deleted, created_at, id'],
  ['client_order', 'client_order_stage_reach', 'stage, deleted, created_at, id'],
  ['client_order', 'client_order_client_stage_reach', 'client_id, stage, deleted, created_at, id'],
  ['client_order', 'client_order_operator_stage_reach', 'operator_id, stage, deleted, created_at, id'],
  ['client_order_position', 'client_order_position_stage_reach', 'stage, deleted, created_at, id'],
];

export const reachIndexes: Migration = {
  name: '006_orders_reach_indexes',
  async up(db, schema) {
    for (const [table, name, columns] of INDEXES)
      await db.raw(`create index if not exists ?? on ??.?? (${columns})`, [name, schema, table]);
    // ANALYZE samples positions stored order by order and takes ~150,000 distinct orders for 1,000,000:
    // the planner then expects 35 positions an order and counts a client's positions by scanning every
    // order. About five an order (−0.2 of the rows) is what the data holds; it applies at the next ANALYZE.
    await db.raw(
      'alter table ??.client_order_position alter column client_order_id set (n_distinct = -0.2)',
      [schema],
    );
  },
};
