import {
  city,
  country,
  currency,
  extraService,
  logisticProductType,
  logisticRoute,
  logisticRouteProductTypeLink,
  logisticRouteWarehousePointLink,
  operator,
  operatorWarehousePointLink,
  packageDescription,
  warehousePoint,
  warehousePointContact,
} from '@caravan/contracts';
import { listIndexMigration } from '@caravan/service-kit';

/** Sort and search indexes and reference title keys of every list of this service (ADR 0005). */
export const listIndexes = listIndexMigration('004_list_indexes', [
  { contract: country },
  { contract: currency },
  { contract: logisticProductType },
  { contract: packageDescription },
  { contract: city },
  { contract: warehousePoint },
  { contract: warehousePointContact },
  { contract: operatorWarehousePointLink },
  { contract: operator },
  { contract: logisticRoute },
  { contract: logisticRouteProductTypeLink },
  { contract: logisticRouteWarehousePointLink },
  { contract: extraService },
]);
