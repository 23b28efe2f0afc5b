import { randomUUID } from 'node:crypto';
import type { RunningService } from '@caravan/service-kit';
import { CNT_SANDBOX_ACCOUNT, cntSign } from '../src/adapters/cnt';
import { shipmentOfOrder } from '../src/domain/shipments';
import { dueShipments, operatorWithKey, startCarriers, statusEvents } from './syncSupport';

const SECRET = 'webhook-test-secret';
let svc: RunningService;
let operatorId: number;

beforeAll(async () => {
  svc = await startCarriers('webhook', { CARRIERS_WEBHOOK_SECRET: SECRET });
  operatorId = await operatorWithKey(svc);
});
afterAll(() => svc.stop());

/** CDEK's ORDER_STATUS webhook body (vendor-apis §1). */
const orderStatus = (number: string, uuid: string, code: string, at: string) => ({
  type: 'ORDER_STATUS',
  date_time: at,
  uuid,
  attributes: { is_return: false, cdek_number: number, code, status_date_time: at, city_name: 'Новосибирск' },
});

const push = (token: string, body: unknown) =>
  fetch(`${svc.url}/api/carriers/webhook/cdek?token=${encodeURIComponent(token)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function cdekShipment() {
  const [s] = await dueShipments(svc, operatorId, 1, 'cdek');
  const uuid = randomUUID();
  await svc.db('shipment').where({ id: s!.id }).update({ uuid });
  return { ...s!, uuid };
}

test('a CDEK status pushed twice is recorded once and makes one event', async () => {
  const s = await cdekShipment();
  const body = orderStatus(s.number, s.uuid, 'ACCEPTED_IN_RECIPIENT_CITY', '2026-11-24T10:15:00+0700');

  const first = await push(SECRET, body);
  const replay = await push(SECRET, body);

  expect([first.status, replay.status]).toEqual([200, 200]);
  const events = await statusEvents(svc, s.id);
  expect(events).toEqual([
    expect.objectContaining({
      vendor_status: 'ACCEPTED_IN_RECIPIENT_CITY',
      stage: 'sent_to_door',
      final: false,
    }),
  ]);
  expect(await shipmentOfOrder(svc.db, s.client_order_id)).toMatchObject({
    vendor_status: 'ACCEPTED_IN_RECIPIENT_CITY',
    status_at: new Date('2026-11-24T03:15:00Z'),
  });
});

test('an older status pushed after a newer one is stored but never published backwards', async () => {
  const s = await cdekShipment();
  await push(SECRET, orderStatus(s.number, s.uuid, 'DELIVERED', '2026-11-25T12:00:00+0300'));
  const late = await push(
    SECRET,
    orderStatus(s.number, s.uuid, 'TAKEN_BY_COURIER', '2026-11-25T09:00:00+0300'),
  );

  expect(late.status).toBe(200);
  expect((await statusEvents(svc, s.id)).map((e) => e.vendor_status)).toEqual(['DELIVERED']);
  expect(await svc.db('shipment_status').where({ shipment_id: s.id }).pluck('vendor_status')).toHaveLength(2);
  expect(await shipmentOfOrder(svc.db, s.client_order_id)).toMatchObject({
    vendor_status: 'DELIVERED',
    final: true,
  });
});

test('webhooks arriving together (applied in one group) are each logged once and never published backwards', async () => {
  const shipments = await Promise.all(Array.from({ length: 20 }, () => cdekShipment()));
  const earlier = (s: { number: string; uuid: string }) =>
    orderStatus(s.number, s.uuid, 'SENT_TO_RECIPIENT_CITY', '2026-11-26T09:00:00+0300');
  const later = (s: { number: string; uuid: string }) =>
    orderStatus(s.number, s.uuid, 'ACCEPTED_IN_RECIPIENT_CITY', '2026-11-26T15:00:00+0300');

  const answers = await Promise.all(
    shipments.flatMap((s) => [push(SECRET, earlier(s)), push(SECRET, later(s)), push(SECRET, earlier(s))]),
  );

  expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
  for (const s of shipments) {
    const published = (await statusEvents(svc, s.id)).map((e) => Date.parse(e.status_at));
    expect(published).toEqual([...new Set(published)].sort((a, b) => a - b));
    expect(published.at(-1)).toBe(Date.parse('2026-11-26T12:00:00Z'));
    expect(await svc.db('shipment_status').where({ shipment_id: s.id }).pluck('vendor_status')).toHaveLength(
      2,
    );
    expect(await shipmentOfOrder(svc.db, s.client_order_id)).toMatchObject({
      vendor_status: 'ACCEPTED_IN_RECIPIENT_CITY',
    });
  }
});

test('a push the database refuses fails alone: the webhooks grouped with it are recorded', async () => {
  const [good, bad] = [await cdekShipment(), await cdekShipment()];
  const [a, b] = await Promise.all([
    push(SECRET, orderStatus(good.number, good.uuid, 'TAKEN_BY_COURIER', '2026-11-27T10:00:00+0300')),
    push(SECRET, orderStatus(bad.number, bad.uuid, 'X'.repeat(300), '2026-11-27T10:00:00+0300')),
  ]);

  expect([a.status, b.status]).toEqual([200, 503]);
  expect((await statusEvents(svc, good.id)).map((e) => e.vendor_status)).toEqual(['TAKEN_BY_COURIER']);
  expect(await statusEvents(svc, bad.id)).toEqual([]);
});

test('a forged push is refused with 401 and writes nothing', async () => {
  const s = await cdekShipment();
  const forged = await push(
    'guessed',
    orderStatus(s.number, s.uuid, 'DELIVERED', '2026-11-25T12:00:00+0300'),
  );
  const unsigned = await fetch(`${svc.url}/api/carriers/webhook/cdek`, { method: 'POST', body: 'not json' });

  expect([forged.status, unsigned.status]).toEqual([401, 401]);
  expect(await svc.db('shipment_status').where({ shipment_id: s.id })).toEqual([]);
  expect(await statusEvents(svc, s.id)).toEqual([]);
});

test('a vendor without webhooks is not found, not an error', async () => {
  const res = await fetch(`${svc.url}/api/carriers/webhook/nobody`, { method: 'POST', body: '{}' });
  expect(res.status).toBe(404);
});

describe('the Chinese tracker pushes', () => {
  const waybill = `SF${Date.now()}`;
  const pushBody = (
    status: string,
    events: Array<{ time_iso: string; description: string; location: string }>,
  ) =>
    JSON.stringify({
      event: 'TRACKING_UPDATED',
      data: {
        number: waybill,
        tag: 'moscow',
        param: null,
        track_info: {
          latest_status: { status },
          latest_event: events[0] ?? null,
          tracking: { providers: [{ events }] },
        },
      },
    });
  const send = (body: string, key = CNT_SANDBOX_ACCOUNT.access_token) =>
    fetch(`${svc.url}/api/carriers/webhook/cnt`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', sign: cntSign(body, key) },
      body,
    });
  const waybillEvents = () =>
    svc.db('outbox').where({ key: waybill.toLowerCase() }).orderBy('id').pluck('event');

  test('a signed push updates the waybill once, a replay publishes nothing more, a forged one is refused', async () => {
    const arrived = pushBody('Delivered', [
      { time_iso: '2026-11-23T18:00:00+08:00', description: 'Доставлено на склад', location: 'Иу' },
      { time_iso: '2026-11-22T09:00:00+08:00', description: 'Принято', location: 'Шэньчжэнь' },
    ]);

    const first = await send(arrived);
    const replay = await send(arrived);
    const forged = await send(arrived, 'stolen-key');

    expect([first.status, replay.status, forged.status]).toEqual([200, 200, 401]);
    const events = (await waybillEvents()) as Array<{ type: string; data: Record<string, unknown> }>;
    expect(events.map((e) => e.type)).toEqual(['carrier.waybill_tracked']);
    expect(events[0]!.data).toMatchObject({
      status: 'Delivered',
      arrived: true,
      event: 'Доставлено на склад',
    });
    expect(await svc.db('cnt_waybill').where({ waybill: waybill.toLowerCase() }).first()).toMatchObject({
      status: 'Delivered',
      arrived: true,
    });
  });
});
