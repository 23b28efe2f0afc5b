import type { ServiceOptions } from '@caravan/service-kit';
import { migrations } from '../migrations';
import { suggestionsConfig, createSuggestions } from './adapters/dadata';
import { subscriptions } from './events/subscriptions';
import { registerCity } from './procedures/city';
import { registerExtraService } from './procedures/extra_service';
import { registerLogisticRoute } from './procedures/logistic_route';
import { registerOperator } from './procedures/operator';
import { registerReferences } from './procedures/reference';
import { registerSuggestions } from './procedures/suggestions';
import { registerWarehousePoint } from './procedures/warehouse_point';
import { seed } from './seed';

export const carriersService = (env?: Record<string, string | undefined>): ServiceOptions => ({
  name: 'carriers',
  migrations,
  subscriptions,
  seed,
  env,
  configure(kit) {
    registerReferences(kit);
    registerCity(kit);
    registerWarehousePoint(kit);
    registerOperator(kit);
    registerLogisticRoute(kit);
    registerExtraService(kit);
    registerSuggestions(kit, createSuggestions(suggestionsConfig(env ?? process.env), kit.log));
  },
});
