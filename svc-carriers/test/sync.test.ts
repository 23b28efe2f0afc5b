import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually, type RunningService } from '@caravan/service-kit';
import { SHIPMENT_TOPIC } from '@caravan/contracts';
import { CNT_SANDBOX_ACCOUNT, createCnt } from '../src/adapters/cnt';
import { recordStatuses, shipmentOfOrder } from '../src/domain/shipments';
import { registerWaybill } from '../src/domain/waybills';
import { ShipmentSync, syncSettings } from '../src/domain/sync';
import {
  dueShipments,
  FakeVendor,
  FakeVendorCarrier,
  newOrderId,
  operatorWithKey,
  orderChanged,
  startCarriers,
  statusEvents,
} from './syncSupport';

let svc: RunningService;
let vendor: FakeVendor;
let operatorId: number;

beforeAll(async () => {
  svc = await startCarriers('sync');
  vendor = new FakeVendor();
  await vendor.start();
  operatorId = await operatorWithKey(svc);
});
afterAll(async () => {
  await vendor.stop();
  await svc.stop();
});

const settings = { ...syncSettings({}), everySeconds: 0 };
const syncOf = (carrier = new FakeVendorCarrier(vendor.url)) =>
  new ShipmentSync(
    { db: svc.db, outbox: svc.outbox, log: svc.log, carriers: new Map([['pec', carrier]]) },
    settings,
  );
/** Nothing else the other tests left due takes part in a round. */
const onlyThese = async (ids: number[]) =>
  svc
    .db('shipment')
    .whereNotIn('id', ids)
    .update({ next_check_at: new Date(Date.now() + 3_600_000) });

describe('the order replica decides which shipments are followed', () => {
  test('an order sent to Russia with a PEC number is followed; one that leaves the carrier is not', async () => {
    const id = newOrderId();
    const order = { operator_id: operatorId, client_id: 7, transport_company_rus: 'pec' };
    await orderChanged(svc, id, {
      ...order,
      stage: 'warehouse_received',
      transport_company_rus_order_number: 'PEC000000001',
    });
    expect(await shipmentOfOrder(svc.db, id)).toBeUndefined();

    await orderChanged(svc, id, {
      ...order,
      stage: 'sent_to_ru',
      transport_company_rus_order_number: 'PEC000000001',
    });
    expect(await shipmentOfOrder(svc.db, id)).toMatchObject({
      carrier: 'pec',
      number: 'PEC000000001',
      final: false,
    });

    await orderChanged(svc, id, { ...order, stage: 'sent_to_ru', transport_company_rus: 'kce' });
    expect(await shipmentOfOrder(svc.db, id)).toMatchObject({ final: true });
  });
});

describe('recordStatuses', () => {
  test('a status reported twice makes one event; an older one arriving late is logged but never published', async () => {
    const [s] = await dueShipments(svc, operatorId, 1);
    const now = { confirmed_at: new Date(), outbox: svc.outbox };
    const accepted = {
      vendor_status: 'Принят к перевозке',
      status_at: '2026-11-20T10:00:00+03:00',
      city: 'Москва',
    };
    const onTheWay = { vendor_status: 'В пути', status_at: '2026-11-21T10:00:00+03:00', city: null };

    await svc.db.transaction((trx) => recordStatuses(trx, s!, [onTheWay], now));
    await svc.db.transaction((trx) => recordStatuses(trx, s!, [onTheWay], now));
    await svc.db.transaction((trx) => recordStatuses(trx, s!, [accepted], now));

    expect((await statusEvents(svc, s!.id)).map((e) => e.vendor_status)).toEqual(['В пути']);
    expect(await svc.db('shipment_status').where({ shipment_id: s!.id }).count({ n: '*' })).toEqual([
      { n: 2 },
    ]);
    expect(await shipmentOfOrder(svc.db, s!.client_order_id)).toMatchObject({ vendor_status: 'В пути' });
  });

  test('the delivered status ends the following', async () => {
    const [s] = await dueShipments(svc, operatorId, 1);
    const delivered = {
      vendor_status: 'Выдан получателю',
      status_at: '2026-11-22T12:00:00+03:00',
      city: 'Казань',
    };
    await svc.db.transaction((trx) =>
      recordStatuses(trx, s!, [delivered], { confirmed_at: new Date(), outbox: svc.outbox }),
    );
    expect(await statusEvents(svc, s!.id)).toEqual([expect.objectContaining({ final: true })]);
    expect(await shipmentOfOrder(svc.db, s!.client_order_id)).toMatchObject({ final: true });
  });
});

describe('the background sync', () => {
  test('two replicas over 1,000 shipments ask the vendor about each exactly once in a round', async () => {
    const shipments = await dueShipments(svc, operatorId, 1000);
    await onlyThese(shipments.map((s) => s.id));
    for (const s of shipments)
      vendor.statuses.set(s.number, [{ status: 'В пути', at: '2026-11-21T10:00:00+03:00', city: null }]);
    vendor.asked.clear();

    const [a, b] = await Promise.all([syncOf().runRound(), syncOf().runRound()]);

    expect(shipments.filter((s) => vendor.asked.get(s.number) !== 1)).toEqual([]);
    expect(a.answered + b.answered).toBe(1000);
    // keys are shipment ids; the other topics' rows of this shared schema are keyed by their own ids
    const events = await svc
      .db('outbox')
      .where({ topic: SHIPMENT_TOPIC })
      .whereIn(
        'key',
        shipments.map((s) => String(s.id)),
      )
      .count({ n: '*' });
    expect(events).toEqual([{ n: 1000 }]);
    // the next round finds nothing due: the next check is an interval away
    expect((await syncOf().runRound()).asked).toBe(0);
  }, 120_000);

  test('a 429 pauses the vendor for its Retry-After, then the batch is asked again and recorded', async () => {
    const [s] = await dueShipments(svc, operatorId, 1);
    await onlyThese([s!.id]);
    vendor.statuses.set(s!.number, [{ status: 'Прибыл', at: '2026-11-22T08:00:00+03:00', city: 'Казань' }]);
    vendor.tooManyRequests = 1;
    vendor.retryAfterSeconds = 1;
    vendor.requestTimes.length = 0;

    const outcome = await syncOf().runRound();

    expect(outcome).toMatchObject({ asked: 2, answered: 1, failed: 0 });
    expect(vendor.requestTimes[1]! - vendor.requestTimes[0]!).toBeGreaterThanOrEqual(950);
    expect((await statusEvents(svc, s!.id)).map((e) => e.vendor_status)).toEqual(['Прибыл']);
  });

  test('a refused key is kept in words on the shipment and asked again only after an hour', async () => {
    const other = await operatorWithKey(svc, 'revoked-key');
    const [s] = await dueShipments(svc, other, 1);
    await onlyThese([s!.id]);

    const outcome = await syncOf().runRound();

    expect(outcome.failed).toBe(1);
    const shipment = await shipmentOfOrder(svc.db, s!.client_order_id);
    expect(shipment?.last_error).toBe('ПЭК: Неверный ключ API');
    expect(shipment!.next_check_at.getTime() - Date.now()).toBeGreaterThan(50 * 60_000);
  });

  test('a vendor that does not answer backs the shipment off and says so in words', async () => {
    const [s] = await dueShipments(svc, operatorId, 1);
    await onlyThese([s!.id]);
    const closed = new FakeVendorCarrier('http://127.0.0.1:1');

    await syncOf(closed).runRound();

    const shipment = await shipmentOfOrder(svc.db, s!.client_order_id);
    expect(shipment).toMatchObject({ last_error: 'сервис ПЭК не ответил', failures: 1 });
    expect(shipment!.next_check_at.getTime()).toBeGreaterThan(Date.now() + 20_000);
  });
});

describe('the Chinese waybills', () => {
  test('a registered waybill is polled from the tracker, stored and published, then left for an interval', async () => {
    const cnt = await createCnt({}, svc.log);
    try {
      const waybill = `YT${Date.now()}`;
      const registered = await registerWaybill(svc.db, cnt.adapter, CNT_SANDBOX_ACCOUNT, {
        waybill,
        order_id: 77,
        warehouse_alias: 'moscow',
      });
      expect(registered.accepted).toBe(true);
      const later = { next_check_at: new Date(Date.now() + 3_600_000) };
      await svc.db('shipment').update(later);
      await svc.db('cnt_waybill').whereNot({ waybill: waybill.toLowerCase() }).update(later);
      const sync = new ShipmentSync(
        {
          db: svc.db,
          outbox: svc.outbox,
          log: svc.log,
          carriers: new Map(),
          tracker: cnt.adapter,
          trackerAccount: CNT_SANDBOX_ACCOUNT,
        },
        settings,
      );

      const outcome = await sync.runRound();

      expect(outcome.failed).toBe(0);
      const row = await svc.db('cnt_waybill').where({ waybill: waybill.toLowerCase() }).first();
      expect(row.status).not.toBe('NotFound');
      expect(row.next_check_at.getTime()).toBeGreaterThan(Date.now() + 600_000);
      const events = await svc.db('outbox').where({ key: waybill.toLowerCase() }).pluck('event');
      expect(events).toEqual([
        expect.objectContaining({
          type: 'carrier.waybill_tracked',
          data: expect.objectContaining({ client_order_id: 77 }),
        }),
      ]);
    } finally {
      await cnt.sandbox?.stop();
    }
  });
});

describe('a replica that stops answering mid-round', () => {
  test('its shipments go to another replica once its lease ends, and its late failure overwrites nothing', async () => {
    const silent = createServer(() => {
      // accepts the request and never answers: a replica stuck (or killed) mid-round
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const shipments = await dueShipments(svc, operatorId, 3);
      await onlyThese(shipments.map((s) => s.id));
      for (const s of shipments)
        vendor.statuses.set(s.number, [{ status: 'В пути', at: '2026-11-21T10:00:00+03:00', city: null }]);
      const short = { ...settings, leaseSeconds: 1 };
      const stuck = new ShipmentSync(
        {
          db: svc.db,
          outbox: svc.outbox,
          log: svc.log,
          carriers: new Map([['pec', new FakeVendorCarrier(silentUrl)]]),
        },
        short,
      );
      const healthy = new ShipmentSync(
        {
          db: svc.db,
          outbox: svc.outbox,
          log: svc.log,
          carriers: new Map([['pec', new FakeVendorCarrier(vendor.url)]]),
        },
        short,
      );

      const stuckRound = stuck.runRound();
      await eventually(
        'the stuck replica holds the shipments',
        async () =>
          (
            await svc
              .db('shipment')
              .whereIn(
                'id',
                shipments.map((s) => s.id),
              )
              .where({ lease_owner: stuck.owner })
          ).length === 3 || undefined,
      );
      expect((await healthy.runRound()).asked).toBe(0);
      await new Promise((r) => setTimeout(r, 1100));
      const taken = await healthy.runRound();
      await stuckRound;

      expect(taken.answered).toBe(3);
      for (const s of shipments)
        expect(await shipmentOfOrder(svc.db, s.client_order_id)).toMatchObject({
          vendor_status: 'В пути',
          last_error: null,
          failures: 0,
        });
    } finally {
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  }, 30_000);
});
