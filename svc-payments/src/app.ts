import type { ServiceOptions } from '@caravan/service-kit';
import { migrations } from '../migrations';
import { acquirerConfig, createAcquirer } from './adapters/modulbank';
import { subscriptions } from './events/subscriptions';
import { registerExchangeRate } from './procedures/exchange_rate';
import { registerFinOperation, registerWalletTransfer } from './procedures/finOperation';
import { registerInvoiceDownload } from './procedures/invoice';
import { registerLegalEntity } from './procedures/legal_entity';
import {
  registerAcquirerCallback,
  registerOrderDues,
  registerPaymentEntities,
  registerPaymentReceive,
  registerSbpCreate,
} from './procedures/payment';
import { registerReconciliation } from './procedures/reconciliation';
import { registerWallet } from './procedures/wallet';
import { seed } from './seed';

/**
 * Where the acquirer posts its callbacks: the gateway's public URL (PUBLIC_URL), the path the gateway
 * passes to svc-payments without a session.
 */
const callbackUrl = (env: Record<string, string | undefined>) =>
  `${(env.PUBLIC_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '')}/api/acquiring/callback`;

export const paymentsService = (env: Record<string, string | undefined> = process.env): ServiceOptions => ({
  name: 'payments',
  migrations,
  subscriptions,
  seed,
  env,
  async configure(kit) {
    const wallets = registerWallet(kit);
    const operations = registerFinOperation(kit);
    registerWalletTransfer(kit, wallets, operations);
    registerLegalEntity(kit);
    registerExchangeRate(kit);
    registerInvoiceDownload(kit);
    const stores = { wallets, operations, ...registerPaymentEntities(kit) };
    const config = acquirerConfig(env);
    const { acquirer, sandbox } = await createAcquirer(config, kit.log);
    if (sandbox) kit.onStop(() => sandbox.stop());
    const setup = { acquirer, callbackUrl: callbackUrl(env), testing: config.MODULBANK_TESTING === '1' };
    registerPaymentReceive(kit, stores);
    registerSbpCreate(kit, stores, setup);
    registerAcquirerCallback(kit, stores, setup);
    registerOrderDues(kit);
    registerReconciliation(kit, stores, setup, {
      afterSeconds: config.PAYMENTS_RECONCILE_AFTER_SECONDS,
      everySeconds: config.PAYMENTS_RECONCILE_EVERY_SECONDS,
    });
  },
});
