import {
  operatorWarehousePointLink,
  warehousePoint,
  warehousePointContact,
  type WarehouseType,
} from '@caravan/contracts';
import { registerEntity, titleOf, type ServiceKit } from '@caravan/service-kit';
import { assertMayCreateWarehouse, checkWarehouseCity, linkedToOwnOperators } from '../domain/warehouses';
import { topicOf } from './reference';

/**
 * Warehouses: everyone reads them (orders choose from them); staff create any, clients only their
 * providers' ones; an operator changes the warehouses linked to their operator; admins everything.
 */
export function registerWarehousePoint(kit: ServiceKit) {
  registerEntity(kit.registry, {
    contract: warehousePoint,
    read: 'any',
    write: 'any',
    readScope: 'all',
    writeScope: (q, identity) => linkedToOwnOperators(q, identity),
    createScope: 'all',
    computed: { city_title: titleOf('warehouse_point', 'city_id', 'city') },
    topic: topicOf('warehouse_point'),
    rules: async ({ trx, identity, prev, next, given }) => {
      if (!prev) assertMayCreateWarehouse(identity, next.type as WarehouseType);
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
