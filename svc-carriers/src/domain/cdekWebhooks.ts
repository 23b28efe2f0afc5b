import type { ServiceKit } from '@caravan/service-kit';
import type { CdekClient } from '../adapters/cdek';
import { credentialsOf } from './credentials';

/** Where CDEK posts status changes: the gateway's public path, with our secret as the `token` CDEK sends back. */
export const cdekWebhookUrl = (publicUrl: string, secret: string) =>
  `${publicUrl.replace(/\/$/, '')}/api/carriers/webhook/cdek?token=${encodeURIComponent(secret)}`;

/**
 * At start, when the service has a public URL: each operator's CDEK account is subscribed to ORDER_STATUS
 * (a second subscription replaces the first at CDEK). A failure is logged and the sync still polls.
 */
export async function subscribeCdekWebhooks(
  kit: ServiceKit,
  cdek: CdekClient,
  publicUrl: string,
  secret: string,
) {
  const operators = (await kit
    .db('operator')
    .where({ deleted: false })
    .whereRaw(`transport_company_data @> '[{"type": "cdek"}]'::jsonb`)
    .select('id')) as Array<{ id: number }>;
  const url = cdekWebhookUrl(publicUrl, secret);
  for (const { id } of operators) {
    try {
      const credentials = await credentialsOf(kit.db, Number(id), 'cdek');
      if (credentials) await cdek.subscribeWebhook(credentials, url);
    } catch (err) {
      kit.log.warn(
        { operator_id: id, err: err instanceof Error ? err.message : String(err) },
        'cdek webhook subscription failed',
      );
    }
  }
}
