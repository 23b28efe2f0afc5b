import {
  isAdmin,
  MESSAGES,
  warehouseCountryId,
  WAREHOUSE_MESSAGES,
  type Identity,
  type WarehouseType,
} from '@caravan/contracts';
import { BusinessError, type Db } from '@caravan/service-kit';

/** Spec §9: consolidation and provider warehouses stand in Chinese cities, arrival ones in Russian. */
export async function checkWarehouseCity(trx: Db, type: WarehouseType, cityId: number) {
  const city = await trx('city').where({ id: cityId }).first('country_id');
  if (!city) throw new BusinessError(MESSAGES.notFound);
  if (Number(city.country_id) !== warehouseCountryId(type))
    throw new BusinessError(WAREHOUSE_MESSAGES.cityCountry(type));
}

/**
 * The owner of a new warehouse when the call names none: the creator's operator, or the client of a
 * client creating a provider's warehouse; an admin's warehouse is the platform's (admins only).
 */
export function ownerOfNewWarehouse(identity: Identity): Record<string, number> {
  if (isAdmin(identity)) return {};
  if (identity.roles.includes('operator') && identity.operator_ids.length === 1)
    return { operator_id: identity.operator_ids[0]! };
  if (identity.roles.includes('client') && identity.client_ids.length === 1)
    return { client_id: identity.client_ids[0]! };
  return {};
}

/** One owner at most: an operator or a client. */
export function assertOneOwner(row: Record<string, unknown>) {
  if (row.operator_id && row.client_id) throw new BusinessError(WAREHOUSE_MESSAGES.ownerBoth);
}

/** Clients create warehouses of their providers only; staff create any (spec §2: the 'новый склад' dialog). */
export function assertMayCreateWarehouse(identity: Identity, type: WarehouseType) {
  if (isAdmin(identity) || identity.roles.includes('operator') || type === 'provider') return;
  throw new BusinessError(MESSAGES.accessDenied);
}
