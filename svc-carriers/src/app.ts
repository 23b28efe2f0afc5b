import type { ServiceOptions } from '@caravan/service-kit';
import { migrations } from '../migrations';
import { subscriptions } from './events/subscriptions';
import { registerCountry } from './procedures/country';
import { registerCurrency } from './procedures/currency';
import { seed } from './seed';

export const carriersService = (env?: Record<string, string | undefined>): ServiceOptions => ({
  name: 'carriers',
  migrations,
  subscriptions,
  seed,
  env,
  configure(kit) {
    registerCountry(kit);
    registerCurrency(kit);
  },
});
