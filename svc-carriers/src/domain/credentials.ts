import type { CarrierVendor, TransportCompanyData } from '@caravan/contracts';
import type { Db } from '@caravan/service-kit';
import type { CarrierCredentials } from '../adapters/carrier';
import { isSealed, seal, unseal } from './secretBox';

/** What a reader is shown instead of a stored token. */
export const MASKED_SECRET = '***';

type StoredEntry = { type?: string; api_data?: Partial<CarrierCredentials> };

/** The operator's API credentials for one vendor, decrypted, or null when none are set. */
export async function credentialsOf(
  db: Db,
  operator_id: number,
  carrier: CarrierVendor,
): Promise<CarrierCredentials | null> {
  const row = (await db('operator').where({ id: operator_id }).first('transport_company_data')) as
    { transport_company_data: StoredEntry[] } | undefined;
  const entry = (row?.transport_company_data ?? []).find((d) => d.type === carrier);
  const api = entry?.api_data;
  if (!api || !(api.client_id || api.access_token)) return null;
  return { client_id: api.client_id ?? '', access_token: unseal(api.access_token ?? '') };
}

/**
 * The carriers' data an operator write gives, as it is to be stored, changed in place (so the entity's
 * history records only sealed tokens): '***' keeps the stored token of that carrier, '' clears it, any
 * other value is sealed.
 */
export function sealGivenTransportData(
  given: TransportCompanyData[],
  stored: readonly StoredEntry[] | null | undefined,
): void {
  for (const entry of given) {
    const token = entry.api_data.access_token;
    if (token === MASKED_SECRET) {
      const kept = (stored ?? []).find((s) => s.type === entry.type)?.api_data?.access_token ?? '';
      entry.api_data.access_token = kept && !isSealed(kept) ? seal(kept) : kept;
    } else if (token) entry.api_data.access_token = seal(token);
  }
}

/** Every plain token of the operators' carriers' data sealed (migration 011 and the demo seed). */
export async function sealStoredTokens(db: Db, table = 'operator'): Promise<number> {
  const rows = (await db(table).select('id', 'transport_company_data')) as Array<{
    id: number;
    transport_company_data: StoredEntry[];
  }>;
  let sealed = 0;
  for (const row of rows) {
    const plain = (row.transport_company_data ?? []).filter(
      (d) => d.api_data?.access_token && !isSealed(d.api_data.access_token),
    );
    if (!plain.length) continue;
    for (const d of plain) d.api_data!.access_token = seal(d.api_data!.access_token!);
    await db(table)
      .where({ id: row.id })
      .update({ transport_company_data: JSON.stringify(row.transport_company_data) });
    sealed += 1;
  }
  return sealed;
}

/**
 * SQL of the carriers' data as readers see it: the token replaced by '***' when set ('' when not).
 * No '?' in it: the entity layer passes it through knex.raw.
 */
export const MASKED_TRANSPORT_DATA_SQL = `coalesce((
  select jsonb_agg(case when e.d -> 'api_data' is null then e.d
    else jsonb_set(e.d, '{api_data,access_token}',
      to_jsonb(case when coalesce(e.d -> 'api_data' ->> 'access_token', '') = '' then '' else '${MASKED_SECRET}' end))
    end order by e.n)
  from jsonb_array_elements(operator.transport_company_data) with ordinality as e(d, n)), '[]'::jsonb)`;
