import type { ServiceOptions } from '@caravan/service-kit';
import { migrations } from '../migrations';
import { subscriptions } from './events/subscriptions';
import { registerExchangeRate } from './procedures/exchange_rate';
import { registerFinOperation, registerWalletTransfer } from './procedures/finOperation';
import { registerLegalEntity } from './procedures/legal_entity';
import { registerWallet } from './procedures/wallet';
import { seed } from './seed';

export const paymentsService = (env?: Record<string, string | undefined>): ServiceOptions => ({
  name: 'payments',
  migrations,
  subscriptions,
  seed,
  env,
  configure(kit) {
    const wallets = registerWallet(kit);
    registerWalletTransfer(kit, wallets, registerFinOperation(kit));
    registerLegalEntity(kit);
    registerExchangeRate(kit);
  },
});
