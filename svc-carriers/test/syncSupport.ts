import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CARRIER_MESSAGES, ENTITY_TOPICS, EVENT_TYPES, SHIPMENT_TOPIC } from '@caravan/contracts';
import { readRequestBody, startService, type RunningService } from '@caravan/service-kit';
import { randomUUID } from 'node:crypto';
import {
  CarrierError,
  type Carrier,
  type CarrierCredentials,
  type ShipmentState,
} from '../src/adapters/carrier';
import { carriersService } from '../src/app';

/** What the test's shipments and the shared sync tests use: svc-carriers with no background rounds. */
export async function startCarriers(name: string, env: Record<string, string> = {}) {
  return startService(
    carriersService({
      ...process.env,
      PORT: '0',
      KAFKA_TOPIC_PREFIX: `${process.env.KAFKA_TOPIC_PREFIX ?? ''}${name}-`,
      CARRIERS_SYNC_EVERY_SECONDS: '0',
      ...env,
    }),
  );
}

const readBody = (req: IncomingMessage) => readRequestBody(req, Infinity);

/**
 * A third party's stand-in: a PEC-like status service on a local port. POST /cargos/status
 * {cargoCodes} answers each known code's status history; it counts how often each code was asked
 * and can answer 429 with Retry-After to the next requests.
 */
export class FakeVendor {
  readonly asked = new Map<string, number>();
  readonly requestTimes: number[] = [];
  statuses = new Map<string, Array<{ status: string; at: string; city: string | null }>>();
  tooManyRequests = 0;
  retryAfterSeconds = 1;
  private server: Server | null = null;
  url = '';

  async start() {
    this.server = createServer((req, res) => {
      void readBody(req).then((body) => {
        this.requestTimes.push(Date.now());
        if (req.headers.authorization !== 'Bearer vendor-key') {
          res.writeHead(401, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ error: { title: 'Неверный ключ API' } }));
        }
        if (this.tooManyRequests > 0) {
          this.tooManyRequests--;
          res.writeHead(429, { 'retry-after': String(this.retryAfterSeconds) });
          return res.end();
        }
        const { cargoCodes } = JSON.parse(body) as { cargoCodes: string[] };
        for (const code of cargoCodes) this.asked.set(code, (this.asked.get(code) ?? 0) + 1);
        const cargos = cargoCodes
          .filter((code) => this.statuses.has(code))
          .map((code) => ({ cargo: { code }, history: this.statuses.get(code) }));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ cargos }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop() {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

/** A small Carrier speaking FakeVendor's protocol with a real HTTP client, as the vendor adapters do. */
export class FakeVendorCarrier implements Carrier {
  readonly vendor = 'pec' as const;
  readonly batchSize = 15;
  constructor(
    private readonly url: string,
    readonly rateLimit = { requestsPerSecond: 500 },
  ) {}

  async getStatuses(credentials: CarrierCredentials, numbers: readonly string[]): Promise<ShipmentState[]> {
    let res: Response;
    try {
      res = await fetch(`${this.url}/cargos/status`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${credentials.access_token}` },
        body: JSON.stringify({ cargoCodes: numbers }),
        signal: AbortSignal.timeout(5000),
      });
    } catch {
      throw new CarrierError('pec', 'unavailable', CARRIER_MESSAGES.noAnswer('pec'));
    }
    if (res.status === 429)
      throw new CarrierError(
        'pec',
        'rate_limited',
        CARRIER_MESSAGES.noAnswer('pec'),
        Number(res.headers.get('retry-after') ?? '1') * 1000,
      );
    if (res.status === 401) {
      const body = (await res.json()) as { error: { title: string } };
      throw new CarrierError('pec', 'auth', CARRIER_MESSAGES.refused('pec', body.error.title));
    }
    if (!res.ok) throw new CarrierError('pec', 'unavailable', CARRIER_MESSAGES.noAnswer('pec'));
    const body = (await res.json()) as {
      cargos: Array<{
        cargo: { code: string };
        history: Array<{ status: string; at: string; city: string | null }>;
      }>;
    };
    return body.cargos.map((c) => ({
      number: c.cargo.code,
      uuid: null,
      statuses: c.history.map((h) => ({ vendor_status: h.status, status_at: h.at, city: h.city })),
      details: {},
    }));
  }

  stageFor() {
    return null;
  }
}

/** An operator whose PEC access is `vendor-key`, as an admin would have saved it. */
export async function operatorWithKey(svc: RunningService, key = 'vendor-key') {
  const [row] = (await svc
    .db('operator')
    .insert({
      title: `оператор ${randomUUID().slice(0, 8)}`,
      transport_company_data: JSON.stringify([
        { type: 'pec', api_data: { client_id: 'login', access_token: key }, recipient_cost_commission: '0' },
        {
          type: 'cdek',
          api_data: { client_id: 'cdek-id', access_token: 'cdek-secret' },
          recipient_cost_commission: '0',
        },
      ]),
    })
    .returning('id')) as Array<{ id: number }>;
  return Number(row!.id);
}

// each test file its own block of order ids (files share the database and may start in the same second)
let nextOrderId = (1 + Math.floor(Math.random() * 1_000_000)) * 100_000;
export const newOrderId = () => ++nextOrderId;

/** Shipments written straight into the table, due now (as after the order replica made them). */
export async function dueShipments(
  svc: RunningService,
  operatorId: number,
  count: number,
  carrier = 'pec',
): Promise<Array<{ id: number; number: string; client_order_id: number }>> {
  const rows = Array.from({ length: count }, () => {
    const client_order_id = newOrderId();
    return {
      client_order_id,
      operator_id: operatorId,
      client_id: 1,
      carrier,
      number: `T${client_order_id}`,
      next_check_at: new Date(Date.now() - 1000),
    };
  });
  const out: Array<{ id: number; number: string; client_order_id: number }> = [];
  for (let i = 0; i < rows.length; i += 500)
    out.push(
      ...((await svc
        .db('shipment')
        .insert(rows.slice(i, i + 500))
        .returning(['id', 'number', 'client_order_id'])) as Array<{
        id: number;
        number: string;
        client_order_id: number;
      }>),
    );
  return out.map((r) => ({ ...r, id: Number(r.id), client_order_id: Number(r.client_order_id) }));
}

/** The status events svc-carriers wrote for a shipment, oldest first. */
export async function statusEvents(svc: RunningService, shipmentId: number) {
  const rows = (await svc
    .db('outbox')
    .where({ topic: SHIPMENT_TOPIC, key: String(shipmentId) })
    .orderBy('id')
    .select('event')) as Array<{
    event: { data: { vendor_status: string; status_at: string; final: boolean } };
  }>;
  return rows.map((r) => r.event.data);
}

/** An order change as svc-orders publishes it, handed to the service's own consumer (no broker needed). */
export async function orderChanged(svc: RunningService, id: number, row: Record<string, unknown>) {
  const envelope = {
    id: randomUUID(),
    type: EVENT_TYPES.entityChanged,
    version: 1,
    occurred_at: new Date().toISOString(),
    source: 'svc-orders',
    key: String(id),
    actor: null,
    data: { entity: 'client_order', id, op: 'updated', row: { id, deleted: false, ...row } },
  };
  const consumer = svc.consumers.find((c) => c['subscription'].topics.includes(ENTITY_TOPICS.client_order));
  if (!consumer) throw new Error('no consumer of client_order');
  return consumer.handle(ENTITY_TOPICS.client_order, Buffer.from(JSON.stringify(envelope)));
}
