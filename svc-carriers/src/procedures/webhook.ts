import { isTrackedCarrier, type TrackedCarrier } from '@caravan/contracts';
import { isTransientDbError, type ServiceKit } from '@caravan/service-kit';
import express, { type Request, type Response } from 'express';
import {
  type Carrier,
  type CarrierCredentials,
  type PushedStatus,
  type TrackedWaybill,
  type WaybillTracker,
  type WebhookRequest,
} from '../adapters/carrier';
import { WebhookPushes } from '../domain/webhookPushes';
import { storeTrackedWaybill } from '../domain/waybills';

/** A development value: real deployments set CARRIERS_WEBHOOK_SECRET (it travels in the URL CDEK calls). */
export const DEV_WEBHOOK_SECRET = 'caravan-dev-carriers-webhook-secret';
/**
 * The token CDEK's webhooks must carry. Under NODE_ENV=production the development value (it is in the
 * source: anyone could move orders with a forged 'вручён') stops the service, as the other secrets do.
 */
export function webhookSecret(env: Record<string, string | undefined>, nodeEnv = env.NODE_ENV) {
  const secret = env.CARRIERS_WEBHOOK_SECRET || DEV_WEBHOOK_SECRET;
  if (nodeEnv === 'production' && secret === DEV_WEBHOOK_SECRET)
    throw new Error(
      'CARRIERS_WEBHOOK_SECRET is not set: the development secret cannot be used in production',
    );
  return secret;
}

export type WebhookSetup = {
  carriers: ReadonlyMap<TrackedCarrier, Carrier>;
  tracker: WaybillTracker | null;
  /** What the vendors that sign nothing (CDEK) must send back in the `token` query parameter. */
  secret: string;
  /** The tracker accounts a push may come from: it is trusted when one of their keys signed it. */
  trackerCredentials: () => Promise<CarrierCredentials[]>;
};

const requestOf = (req: Request): WebhookRequest => ({
  headers: req.headers,
  query: Object.fromEntries(
    Object.entries(req.query).map(([k, v]) => [k, typeof v === 'string' ? v : undefined]),
  ),
  rawBody: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
});

const answer = (res: Response, status: number, text: string) =>
  void res.status(status).type('text/plain').send(text);

/**
 * POST /api/carriers/webhook/:vendor, public (the gateway passes it without a session): trusted only by
 * the vendor's signature, or for CDEK the secret in the URL it was subscribed with. A forged push is
 * answered 401 and writes nothing; a replayed one 200 and changes nothing (the status log holds it).
 * The vendor retries whatever is not 2xx, so a database out of reach is a 503, never a 500.
 */
export function registerCarrierWebhook(kit: ServiceKit, setup: WebhookSetup) {
  const statuses = new WebhookPushes(kit);
  kit.publicApi.post(
    '/carriers/webhook/:vendor',
    express.raw({ type: () => true, limit: '512kb' }),
    async (req: Request, res: Response) => {
      const vendor = String(req.params.vendor);
      const request = requestOf(req);
      try {
        if (vendor === 'cnt' && setup.tracker)
          return await waybillPush(kit, setup, setup.tracker, request, res);
        const carrier = isTrackedCarrier(vendor) ? setup.carriers.get(vendor) : undefined;
        if (!carrier?.verifyWebhook) return answer(res, 404, 'unknown vendor');
        let pushes: PushedStatus[];
        try {
          pushes = carrier.verifyWebhook(request, setup.secret);
        } catch (err) {
          kit.log.warn({ vendor, err: err instanceof Error ? err.message : err }, 'carrier webhook refused');
          return answer(res, 401, 'forbidden');
        }
        if (pushes.length)
          await statuses.record(
            carrier.vendor,
            pushes.map((p) => ({ ...p, number: p.number || null })),
          );
        answer(res, 200, 'OK');
      } catch (err) {
        if (isTransientDbError(err)) kit.log.warn({ err, vendor }, 'carrier webhook: database unavailable');
        else kit.log.error({ err, vendor }, 'carrier webhook failed');
        answer(res, 503, 'try again');
      }
    },
  );
}

async function waybillPush(
  kit: ServiceKit,
  setup: WebhookSetup,
  tracker: WaybillTracker,
  request: WebhookRequest,
  res: Response,
) {
  let tracked: TrackedWaybill | null = null;
  for (const credentials of await setup.trackerCredentials()) {
    try {
      tracked = tracker.verifyPush(request, credentials);
      break;
    } catch {
      // another account's key, or not a push at all: the next account is tried, then it is refused
    }
  }
  if (!tracked) {
    kit.log.warn('tracker push refused: no account signed it');
    return answer(res, 401, 'forbidden');
  }
  const pushed = tracked;
  await kit.db.transaction((trx) => storeTrackedWaybill(trx, kit.outbox, pushed));
  kit.afterWrite();
  answer(res, 200, 'OK');
}
