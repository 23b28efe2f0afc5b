import type { Identity } from '@caravan/contracts';
import { IDENTITY_HEADER } from '@caravan/contracts';
import { DEV_IDENTITY_SECRET } from './config';
import { signIdentity } from './identity';

/** Test helpers: an identity as the gateway would sign it, and a call straight to a service. */
export const identityOf = (partial: Partial<Identity> & Pick<Identity, 'user_id' | 'roles'>): Identity => ({
  fullname: `user ${partial.user_id}`,
  state: 'working',
  client_ids: [],
  operator_ids: [],
  ...partial,
});

export async function callService(
  url: string,
  method: string,
  params: unknown,
  identity: Identity | null,
  secret = process.env.IDENTITY_TOKEN_SECRET ?? DEV_IDENTITY_SECRET,
): Promise<{ status: number; body: { ok: boolean; result: unknown; message?: string } }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (identity) headers[IDENTITY_HEADER] = signIdentity(identity, secret);
  const res = await fetch(`${url}/rpc`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ method, params }),
  });
  return { status: res.status, body: (await res.json()) as never };
}

/** Waits until `check` returns a truthy value, polling; fails with `what` after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 30000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
