import { bankAccount, exchangeRate, legalEntity, wallet } from '@caravan/contracts';
import { listIndexMigration } from '@caravan/service-kit';

/** Sort and search indexes and reference title keys of every list of this service (ADR 0005). */
export const listIndexes = listIndexMigration('003_list_indexes', [
  { contract: wallet },
  { contract: legalEntity },
  { contract: bankAccount },
  { contract: exchangeRate },
]);
