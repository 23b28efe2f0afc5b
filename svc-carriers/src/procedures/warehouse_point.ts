import {
  operatorWarehousePointLink,
  warehousePoint,
  warehousePointContact,
  type WarehouseType,
} from '@caravan/contracts';
import { registerEntity, titleOf, type ServiceKit } from '@caravan/service-kit';
import {
  assertMayCreateWarehouse,
  assertOneOwner,
  checkWarehouseCity,
  ownerOfNewWarehouse,
} from '../domain/warehouses';
import { topicOf } from './reference';

/**
 * Warehouses: everyone reads them (orders choose from them); staff create any, clients only their
 * providers' ones. Each has an owner (operator_id or client_id, filled from the creator) who edits and
 * deletes it, with the admins; an admin's warehouse has none. Linking an operator to a warehouse
 * (operator_warehouse_point_link) lets the operator use it, never change it.
 */
export function registerWarehousePoint(kit: ServiceKit) {
  registerEntity(kit.registry, {
    contract: warehousePoint,
    read: 'any',
    write: 'any',
    readScope: 'all',
    createDefaults: ownerOfNewWarehouse,
    computed: { city_title: titleOf('warehouse_point', 'city_id', 'city') },
    topic: topicOf('warehouse_point'),
    rules: async ({ trx, identity, prev, next, given }) => {
      if (!prev) assertMayCreateWarehouse(identity, next.type as WarehouseType);
      assertOneOwner(next);
      if (!prev || 'type' in given || 'city_id' in given)
        await checkWarehouseCity(trx, next.type as WarehouseType, next.city_id as number);
    },
  });

  registerEntity(kit.registry, {
    contract: warehousePointContact,
    read: 'staff',
    write: 'staff',
    computed: {
      operator_title: titleOf('warehouse_point_contact', 'operator_id', 'operator'),
      warehouse_point_title: titleOf('warehouse_point_contact', 'warehouse_point_id', 'warehouse_point'),
    },
  });

  registerEntity(kit.registry, {
    contract: operatorWarehousePointLink,
    read: 'any',
    write: 'staff',
    readScope: 'all',
    computed: {
      operator_title: titleOf('operator_warehouse_point_link', 'operator_id', 'operator'),
      warehouse_point_title: titleOf(
        'operator_warehouse_point_link',
        'warehouse_point_id',
        'warehouse_point',
      ),
    },
    topic: topicOf('operator_warehouse_point_link'),
  });
}
