import type { ServiceKit } from '@caravan/service-kit';
import type { CdekClient } from '../adapters/cdek';
import type { CarrierCredentials } from '../adapters/carrier';
import { credentialsOf } from './credentials';

/** Where CDEK posts status changes: the gateway's public path, with our secret as the `token` CDEK sends back. */
export const cdekWebhookUrl = (publicUrl: string, secret: string) =>
  `${publicUrl.replace(/\/$/, '')}/api/carriers/webhook/cdek?token=${encodeURIComponent(secret)}`;

/** Subscribes a CDEK account to ORDER_STATUS; a failure is logged (the sync still polls) and tried again next time. */
export type CdekWebhookSubscriber = (credentials: CarrierCredentials) => Promise<void>;

/**
 * Each CDEK account is subscribed once per process: at start for the operators already stored, and before
 * an account's first waybill for one added since (a fresh database is seeded after start; the sandbox
 * forgets subscriptions when it restarts; at CDEK a second subscription of a type replaces the first).
 */
export function cdekWebhookSubscriber(
  kit: ServiceKit,
  cdek: CdekClient,
  publicUrl: string,
  secret: string,
): CdekWebhookSubscriber {
  const subscribed = new Set<string>();
  const url = cdekWebhookUrl(publicUrl, secret);
  return async (credentials) => {
    if (subscribed.has(credentials.client_id)) return;
    try {
      await cdek.subscribeWebhook(credentials, url);
      subscribed.add(credentials.client_id);
    } catch (err) {
      kit.log.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'cdek webhook subscription failed',
      );
    }
  };
}

/** At start: every operator with CDEK data gets its account subscribed. */
export async function subscribeCdekWebhooks(kit: ServiceKit, subscribe: CdekWebhookSubscriber) {
  const operators = (await kit
    .db('operator')
    .where({ deleted: false })
    .whereRaw(`transport_company_data @> '[{"type": "cdek"}]'::jsonb`)
    .select('id')) as Array<{ id: number }>;
  for (const { id } of operators) {
    const credentials = await credentialsOf(kit.db, Number(id), 'cdek');
    if (credentials) await subscribe(credentials);
  }
}
