import type { EntityStore, ServiceOptions } from '@caravan/service-kit';
import { migrations } from '../migrations';
import { subscriptions } from './events/subscriptions';
import { registerClient } from './procedures/client';
import { registerClientOrder } from './procedures/clientOrder';
import { registerOrderBulk } from './procedures/clientOrderBulk';
import { registerClientOrderPosition, registerPositionAction } from './procedures/clientOrderPosition';
import { registerExcelImport } from './procedures/excelImport';
import { registerPositionBulk } from './procedures/positionsBulk';
import { registerProvider } from './procedures/provider';
import { registerUploads } from './procedures/upload';
import { seed } from './seed';

export const ordersService = (env?: Record<string, string | undefined>): ServiceOptions => {
  // each entity's writes reprice the order, so each needs the other's store; payments' events need it too
  const stores: { orders?: EntityStore; positions?: EntityStore } = {};
  return {
    name: 'orders',
    migrations,
    subscriptions: subscriptions(
      () => stores.orders!,
      () => stores.positions!,
    ),
    seed,
    env,
    configure(kit) {
      registerClient(kit);
      registerProvider(kit);
      registerUploads(kit);
      const positions = (stores.positions = registerClientOrderPosition(kit, () => stores.orders!));
      const orders = (stores.orders = registerClientOrder(kit, positions));
      registerPositionAction(kit, positions, orders);
      registerPositionBulk(kit, positions, () => orders);
      registerOrderBulk(kit, positions, () => orders);
      registerExcelImport(kit, () => orders, env);
    },
  };
};
