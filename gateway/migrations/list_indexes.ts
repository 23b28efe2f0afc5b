import { clientUserLink, operatorUserLink, user } from '@caravan/contracts';
import { listIndexMigration } from '@caravan/service-kit';

/** Sort and search indexes of the user directory and the link lists (ADR 0005). */
export const listIndexes = listIndexMigration('004_list_indexes', [
  { contract: user, table: 'user_table' },
  { contract: clientUserLink },
  { contract: operatorUserLink },
]);
