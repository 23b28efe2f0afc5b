import { client, clientOrder, clientOrderPosition, provider } from '@caravan/contracts';
import { listIndexMigration } from '@caravan/service-kit';

/** Sort and search indexes and reference title keys of every list of this service (ADR 0005). */
export const listIndexes = listIndexMigration('003_list_indexes', [
  { contract: client },
  { contract: provider },
]);

/**
 * Orders and positions: the columns their lists sort and filter by (not every field: a million orders
 * should not pay for forty indexes on each write), the title keys, trigram search.
 */
const ORDER_LIST_SPECS = [
  {
    contract: clientOrder,
    sort: [
      'created_at',
      'updated_at',
      'title',
      'client_id',
      'operator_id',
      'stage',
      'state',
      'order_number',
      'send_date',
      'to_ru_delivery_date',
      'total_price_rur',
      'weight',
      'client_title',
      'parent_order_title',
    ],
  },
  {
    contract: clientOrderPosition,
    sort: [
      'created_at',
      'title',
      'client_order_id',
      'stage',
      'buyout_state',
      'waybill',
      'type_id',
      'price_cny',
      'amount',
      'client_order_title',
      'provider_title',
    ],
  },
] satisfies Parameters<typeof listIndexMigration>[1];
export const orderListIndexes = listIndexMigration('005_order_list_indexes', ORDER_LIST_SPECS);

/**
 * The same again: the title keys' fill triggers skip the lookup when the reference is empty (a
 * position without a supplier), which a 10,000-row import pays per row. Indexes exist: only the
 * functions are replaced.
 */
export const titleKeysSkipNull = listIndexMigration('008_title_keys_skip_null', [
  { contract: client },
  { contract: provider },
  ...ORDER_LIST_SPECS,
]);
