import { IDENTITY_HEADER, type Identity } from '@caravan/contracts';
import {
  callService,
  DEV_IDENTITY_SECRET,
  eventually,
  freePort,
  signIdentity,
  startService,
  type RunningService,
} from '@caravan/service-kit';
import { admin, type Any, type OrdersWorld } from '../../svc-orders/test/support';
import { acquirerConfig } from '../src/adapters/modulbank';
import { paymentsService } from '../src/app';

/** svc-payments beside the orders world of svc-orders' tests: what the payment test files share. */
export type Reply = { ok: boolean; result: Any; message?: string };

/** The sandbox bank's merchant and secret, as the service's adapter reads them with nothing configured. */
export const sandboxMerchant = {
  merchant: acquirerConfig({}).MODULBANK_MERCHANT,
  secret: acquirerConfig({}).MODULBANK_SECRET,
};

export { freePort };

/** A svc-payments on a free port, on its own topic prefix, whose bank calls back to `PUBLIC_URL`. */
export async function startPayments(name: string, env: Record<string, string> = {}) {
  const port = await freePort();
  return startService(
    paymentsService({
      ...process.env,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      KAFKA_TOPIC_PREFIX: `${process.env.KAFKA_TOPIC_PREFIX ?? ''}${name}-`,
      ...env,
    }),
  );
}

/** Operator A's yuan rate of 12.5 ₽, known to svc-orders: the orders of the world get prices. */
export async function withRate(payments: RunningService, w: OrdersWorld) {
  await callService(
    payments.url,
    'exchange_rate_update',
    {
      id: -1,
      date: '2026-11-21',
      operator_id: w.opA.id,
      client_sell_rate_cny: '12.5',
      client_sell_rate_usd: '95',
    },
    admin,
  );
  await eventually('the rate in svc-orders', async () =>
    w.orders
      .db('replica')
      .where({ entity: 'exchange_rate' })
      .whereRaw(`(data->>'operator_id')::int = ?`, [w.opA.id])
      .first(),
  );
}

/** A call to one of the service's Express paths (`/api/<path>`), signed as the gateway signs it. */
export async function httpCall(service: RunningService, path: string, body: unknown, who: Identity) {
  const res = await fetch(`${service.url}/api/${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [IDENTITY_HEADER]: signIdentity(who, process.env.IDENTITY_TOKEN_SECRET ?? DEV_IDENTITY_SECRET),
    },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Reply;
}
