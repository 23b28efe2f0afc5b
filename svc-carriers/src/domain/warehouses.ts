import {
  isAdmin,
  MESSAGES,
  warehouseCountryId,
  WAREHOUSE_MESSAGES,
  type Identity,
  type WarehouseType,
} from '@caravan/contracts';
import { BusinessError, type Db } from '@caravan/service-kit';
import type { Knex } from 'knex';

/** Spec §9: consolidation and provider warehouses stand in Chinese cities, arrival ones in Russian. */
export async function checkWarehouseCity(trx: Db, type: WarehouseType, cityId: number) {
  const city = await trx('city').where({ id: cityId }).first('country_id');
  if (!city) throw new BusinessError(MESSAGES.notFound);
  if (Number(city.country_id) !== warehouseCountryId(type))
    throw new BusinessError(WAREHOUSE_MESSAGES.cityCountry(type));
}

/** Rows of warehouses linked to one of the identity's operators. */
export function linkedToOwnOperators(
  q: Knex.QueryBuilder,
  identity: Identity,
  column = 'warehouse_point.id',
) {
  if (!identity.roles.includes('operator')) return q.whereRaw('false');
  return q.whereIn(column, (sub) =>
    sub
      .select('warehouse_point_id')
      .from('operator_warehouse_point_link')
      .where('deleted', false)
      .whereIn('operator_id', identity.operator_ids),
  );
}

/** Clients create warehouses of their providers only; staff create any (spec §2: the 'новый склад' dialog). */
export function assertMayCreateWarehouse(identity: Identity, type: WarehouseType) {
  if (isAdmin(identity) || identity.roles.includes('operator') || type === 'provider') return;
  throw new BusinessError(MESSAGES.accessDenied);
}
