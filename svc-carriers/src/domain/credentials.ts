import type { CarrierVendor } from '@caravan/contracts';
import type { Db } from '@caravan/service-kit';
import type { CarrierCredentials } from '../adapters/carrier';

/**
 * The operator's API credentials for one vendor, or null when none are set.
 * PLACEHOLDER (track sync): reads operator.transport_company_data[].api_data as stored; the calls track
 * replaces the body with the decryption of the stored data (migration 011). The signature stays.
 */
export async function credentialsOf(
  db: Db,
  operator_id: number,
  carrier: CarrierVendor,
): Promise<CarrierCredentials | null> {
  const row = (await db('operator').where({ id: operator_id }).first('transport_company_data')) as
    { transport_company_data: Array<{ type?: string; api_data?: Partial<CarrierCredentials> }> } | undefined;
  const entry = (row?.transport_company_data ?? []).find((d) => d.type === carrier);
  const api = entry?.api_data;
  if (!api || !(api.client_id || api.access_token)) return null;
  return { client_id: api.client_id ?? '', access_token: api.access_token ?? '' };
}
