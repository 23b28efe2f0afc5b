import type { ServiceKit, ServiceOptions } from '@caravan/service-kit';
import { migrations } from '../migrations';
import { suggestionsConfig, createSuggestions } from './adapters/dadata';
import { createCarriers } from './adapters/index';
import { cdekWebhookSubscriber, subscribeCdekWebhooks } from './domain/cdekWebhooks';
import { ShipmentSync, syncSettings } from './domain/sync';
import { subscriptions } from './events/subscriptions';
import { registerCarrierCalls } from './procedures/carrierCalls';
import { registerCity } from './procedures/city';
import { registerExtraService } from './procedures/extra_service';
import { registerLogisticRoute } from './procedures/logistic_route';
import { registerOperator } from './procedures/operator';
import { registerReferences } from './procedures/reference';
import { registerSuggestions } from './procedures/suggestions';
import { registerWarehousePoint } from './procedures/warehouse_point';
import { registerCarrierWebhook, webhookSecret } from './procedures/webhook';
import { seed } from './seed';
import { secretKeyFrom, useSecretKey } from './domain/secretBox';

export const carriersService = (env?: Record<string, string | undefined>): ServiceOptions => ({
  name: 'carriers',
  migrations,
  subscriptions,
  seed,
  env,
  async configure(kit) {
    // a production service refuses to start without its own key (CARRIER_MESSAGES.developmentKeyInProduction)
    useSecretKey(secretKeyFrom(env ?? process.env));
    registerReferences(kit);
    registerCity(kit);
    registerWarehousePoint(kit);
    registerOperator(kit);
    registerLogisticRoute(kit);
    registerExtraService(kit);
    registerSuggestions(kit, createSuggestions(suggestionsConfig(env ?? process.env), kit.log));
    await startTracking(kit, env ?? process.env);
  },
});

/**
 * Carriers and tracking (ADR 0020): the vendors' adapters (or their sandboxes), the webhook, the
 * background sync and CDEK's webhook subscriptions; all stopped with the service.
 */
async function startTracking(kit: ServiceKit, env: Record<string, string | undefined>) {
  const setup = await createCarriers(env, kit.log);
  const secret = webhookSecret(env);
  const ensureCdekWebhook = env.PUBLIC_URL
    ? cdekWebhookSubscriber(kit, setup.cdek, env.PUBLIC_URL, secret)
    : undefined;
  registerCarrierCalls(kit, setup, { ensureCdekWebhook });
  registerCarrierWebhook(kit, {
    carriers: setup.carriers,
    tracker: setup.tracker,
    secret,
    trackerCredentials: async () => (setup.trackerAccount ? [setup.trackerAccount] : []),
  });
  const sync = new ShipmentSync(
    {
      db: kit.db,
      outbox: kit.outbox,
      log: kit.log,
      afterWrite: kit.afterWrite,
      carriers: setup.carriers,
      tracker: setup.tracker,
      trackerAccount: setup.trackerAccount,
    },
    syncSettings(env),
  );
  // the sync stops first: no round is left asking a sandbox that is already gone
  kit.onStop(() => sync.stop());
  for (const sandbox of setup.sandboxes) kit.onStop(() => sandbox.stop());
  await sync.start();
  if (ensureCdekWebhook)
    subscribeCdekWebhooks(kit, ensureCdekWebhook).catch((err: unknown) =>
      kit.log.warn({ err }, 'cdek webhook subscriptions failed'),
    );
}
