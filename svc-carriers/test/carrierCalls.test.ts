import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CARRIER_MESSAGES,
  CARRIER_MOVABLE_FROM,
  IDENTITY_HEADER,
  SHIPMENT_TOPIC,
  type Identity,
} from '@caravan/contracts';
import {
  callService,
  DEV_IDENTITY_SECRET,
  identityOf,
  signIdentity,
  type RunningService,
} from '@caravan/service-kit';
import { startCdekSandbox, type CdekSandbox } from '../src/adapters/cdek';
import { OZON_SANDBOX_ACCOUNT, startOzonSandbox, type OzonSandbox } from '../src/adapters/ozon';
import { PEC_SANDBOX_ACCOUNT, startPecSandbox } from '../src/adapters/pec';
import { newOrderId, orderChanged, startCarriers } from './syncSupport';

/**
 * The carrier calls of the order card (spec §7) through the service's HTTP API with a signed identity:
 * CDEK against its sandbox (behind a counter of the requests it gets), the refusals in words, and who may
 * reach whose order.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
type Reply = { status: number; body: { ok: boolean; result: Any; message?: string } };

const CDEK_ACCOUNT = { client_id: 'calls-cdek-account', client_secret: 'calls-cdek-secret' };
const admin = identityOf({ user_id: 1, roles: ['admin'] });
let svc: RunningService;
let sandbox: CdekSandbox;
let ozon: OzonSandbox;
let pec: { url: string; stop(): Promise<void> };
let counter: Server;
let cdekRequests = 0;
let operatorId: number;
let keylessOperatorId: number;
let otherOperatorId: number;
const CLIENT_ID = 7101;
const staffOf = (id: number) => identityOf({ user_id: 100 + id, roles: ['operator'], operator_ids: [id] });
const owner = identityOf({ user_id: 200, roles: ['client'], client_ids: [CLIENT_ID] });
const stranger = identityOf({ user_id: 201, roles: ['client'], client_ids: [CLIENT_ID + 1] });

/** The CDEK sandbox behind a pass-through that counts what reaches it. */
async function startCountedCdek() {
  sandbox = await startCdekSandbox({ port: 0, accounts: [CDEK_ACCOUNT] });
  counter = createServer((req, res) => {
    cdekRequests++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = { ...req.headers } as Record<string, string>;
      delete headers.host;
      delete headers['content-length'];
      void fetch(`${sandbox.url}${req.url}`, {
        method: req.method,
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      }).then(async (answer) => {
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
        res.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((resolve) => counter.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(counter.address() as AddressInfo).port}/v2`;
}

/** A call as the gateway forwards it: the body and the signed identity. */
async function api(path: string, body: unknown, who: Identity): Promise<Reply> {
  const res = await fetch(`${svc.url}/api/${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [IDENTITY_HEADER]: signIdentity(who, process.env.IDENTITY_TOKEN_SECRET ?? DEV_IDENTITY_SECRET),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Reply['body'] };
}
const pgFunc = async (method: string, params: unknown, who: Identity) =>
  (await callService(svc.url, method, params, who)).body as Reply['body'];

async function createOperator(title: string, transport_company_data: unknown[]) {
  const reply = await pgFunc('operator_update', { id: -1, title, transport_company_data }, admin);
  if (!reply.ok) throw new Error(reply.message);
  return Number(reply.result.id);
}

async function orderOf(operator_id: number, row: Record<string, unknown> = {}) {
  const id = newOrderId();
  await orderChanged(svc, id, {
    title: 'Кроссовки',
    operator_id,
    client_id: CLIENT_ID,
    weight: '2.5',
    total_price_rur: '15000.00',
    delivery_data: {
      title: 'Иванов Иван',
      contact_phone: '+79991234567',
      city: 'Москва',
      address: 'ул. Тверская, д. 1',
    },
    ...row,
  });
  return id;
}

const sandboxShipments = async () =>
  (await (await fetch(`${sandbox.url}/sandbox/shipments`)).json()) as Array<Record<string, unknown>>;

beforeAll(async () => {
  const cdekUrl = await startCountedCdek();
  ozon = await startOzonSandbox();
  pec = await startPecSandbox({ port: 0 });
  svc = await startCarriers('calls', { CDEK_URL: cdekUrl, OZON_URL: ozon.url, PEC_URL: `${pec.url}/api/v1` });
  operatorId = await createOperator('Восточный экспресс (вызовы)', [
    {
      type: 'cdek',
      api_data: { client_id: CDEK_ACCOUNT.client_id, access_token: CDEK_ACCOUNT.client_secret },
      recipient_cost_commission: '0',
    },
    { type: 'ozon', api_data: { ...OZON_SANDBOX_ACCOUNT }, recipient_cost_commission: '0' },
    { type: 'pec', api_data: { ...PEC_SANDBOX_ACCOUNT }, recipient_cost_commission: '0' },
  ]);
  keylessOperatorId = await createOperator('Без ключей (вызовы)', []);
  otherOperatorId = await createOperator('Шёлковый путь (вызовы)', []);
});
afterAll(async () => {
  await svc?.stop();
  await new Promise<void>((resolve) => (counter ? counter.close(() => resolve()) : resolve()));
  await sandbox?.stop();
  await ozon?.stop();
  await pec?.stop();
});

/** A control call of a sandbox (its tester page's buttons). */
async function sandboxControl(url: string, body: unknown = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Any;
}

describe('cdek_order_create', () => {
  it("creates the waybill in CDEK for the order's operator and tells the order its uuid and number", async () => {
    const orderId = await orderOf(operatorId);
    const reply = await api(
      'cdek_order_create',
      { client_order_id: orderId, order_data: {} },
      staffOf(operatorId),
    );
    expect(reply.status).toBe(200);
    expect(reply.body.ok).toBe(true);
    const { uuid, cdek_number, statuses } = reply.body.result.entity;
    expect(uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(statuses.length).toBeGreaterThan(0);
    expect((await sandboxShipments()).some((s) => JSON.stringify(s).includes(uuid))).toBe(true);

    const events = (await svc
      .db('outbox')
      .where({ topic: SHIPMENT_TOPIC })
      .whereRaw(`event -> 'data' ->> 'client_order_id' = ?`, [String(orderId)])
      .select('event')) as Array<{ event: Any }>;
    expect(events.length).toBeGreaterThan(0);
    expect(events.at(-1)!.event.data.uuid).toBe(uuid);

    const view = await pgFunc('client_order_shipment_get', { client_order_id: orderId }, owner);
    expect(view.ok).toBe(true);
    expect(view.result).toMatchObject({ client_order_id: orderId, carrier: 'cdek', uuid });
    expect(view.result.number ?? null).toBe(cdek_number ?? null);
  });

  it("refuses another operator's order without asking CDEK or writing anything", async () => {
    const orderId = await orderOf(operatorId);
    const before = cdekRequests;
    const reply = await api('cdek_order_create', { client_order_id: orderId }, staffOf(otherOperatorId));
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(reply.status).toBeLessThan(500);
    expect(reply.body).toMatchObject({ ok: false, message: CARRIER_MESSAGES.notYourOrder });
    expect(cdekRequests).toBe(before);
    expect(await svc.db('shipment').where({ client_order_id: orderId })).toEqual([]);
  });

  it('refuses a client, even on their own order', async () => {
    const orderId = await orderOf(operatorId);
    const before = cdekRequests;
    const reply = await api('cdek_order_create', { client_order_id: orderId }, owner);
    expect(reply.status).toBe(403);
    expect(reply.body.ok).toBe(false);
    expect(cdekRequests).toBe(before);
  });

  it('refuses in words when the operator has no CDEK account or the delivery has no recipient', async () => {
    const keyless = await orderOf(keylessOperatorId);
    const noKey = await api('cdek_order_create', { client_order_id: keyless }, staffOf(keylessOperatorId));
    expect(noKey.status).toBe(400);
    expect(noKey.body.message).toBe(CARRIER_MESSAGES.noApiData);

    const untitled = await orderOf(operatorId, {
      delivery_data: { city: 'Москва', address: 'ул. Тверская, 1' },
    });
    const before = cdekRequests;
    const noTitle = await api('cdek_order_create', { client_order_id: untitled }, admin);
    expect(noTitle.status).toBe(400);
    expect(noTitle.body.message).toBe(CARRIER_MESSAGES.waybillDraftNeedsTitle);
    expect(cdekRequests).toBe(before);
  });
});

describe('pec_order_get and jde_order_get', () => {
  it("answer PEC's status of the order's cargo and move the order like a poll", async () => {
    const { number } = await sandboxControl(`${pec.url}/sandbox/shipments`);
    await sandboxControl(`${pec.url}/sandbox/shipments/${encodeURIComponent(number)}/advance`);
    // an order on its way to Russia is followed: the answer is recorded as a poll's would be
    const orderId = await orderOf(operatorId, {
      stage: CARRIER_MOVABLE_FROM,
      transport_company_rus: 'pec',
      transport_company_rus_order_number: number,
    });
    const reply = await api('pec_order_get', { order_id: orderId }, owner);
    expect(reply.status).toBe(200);
    expect(reply.body.result.info.cargoStatus).toBe('В пути');
    expect(reply.body.result.services.sum).toMatch(/^\d+\.\d{2}$/);
    const shipment = await svc.db('shipment').where({ client_order_id: orderId }).first();
    expect(shipment.vendor_status).toBe('В пути');
    const events = (await svc
      .db('outbox')
      .where({ topic: SHIPMENT_TOPIC, key: String(shipment.id) })
      .select('event')) as Array<{ event: Any }>;
    expect(events.map((e) => e.event.data.vendor_status)).toContain('В пути');
  });

  it('refuse a PEC number of the wrong length in words', async () => {
    const orderId = await orderOf(operatorId, {
      transport_company_rus: 'pec',
      transport_company_rus_order_number: 'ПЭК12345678', // 11 characters
    });
    const reply = await api('pec_order_get', { order_id: orderId }, staffOf(operatorId));
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ ok: false, message: CARRIER_MESSAGES.pecNumberLength, result: null });
  });

  it("refuse a stranger's order", async () => {
    const orderId = await orderOf(operatorId, {
      transport_company_rus: 'jde',
      transport_company_rus_order_number: '1234567890',
    });
    const reply = await api('jde_order_get', { order_id: orderId }, stranger);
    expect(reply.body).toMatchObject({ ok: false, message: CARRIER_MESSAGES.notYourOrder });
  });
});

describe('ozon_posting_get', () => {
  it("reads a posting with the order's operator's Seller API account", async () => {
    const created = await fetch(`${ozon.url}/sandbox/shipments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({}),
    });
    const { posting_number } = (await created.json()) as { posting_number: string };
    const orderId = await orderOf(operatorId);
    const reply = await api('ozon_posting_get', { client_order_id: orderId, posting_number }, owner);
    expect(reply.status).toBe(200);
    expect(reply.body.result.posting_number).toBe(posting_number);
    expect(reply.body.result.products.length).toBeGreaterThan(0);
  });

  it("answers Ozon's refusal of an unknown posting in words", async () => {
    const orderId = await orderOf(operatorId);
    const reply = await api('ozon_posting_get', { client_order_id: orderId, posting_number: '0-0-0' }, owner);
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(reply.status).toBeLessThan(500);
    expect(reply.body.ok).toBe(false);
    expect(reply.body.message).toMatch(/[а-яё]/i);
  });

  it('refuses without the operator having an Ozon account', async () => {
    const orderId = await orderOf(keylessOperatorId);
    const reply = await api('ozon_posting_get', { client_order_id: orderId, posting_number: '1-1' }, admin);
    expect(reply.body).toMatchObject({ ok: false, message: CARRIER_MESSAGES.noApiData });
  });
});

describe('cnt_waybill_register and cnt_waybill_get', () => {
  it('registers a position waybill of the order and reads what the tracker knows', async () => {
    const orderId = await orderOf(operatorId);
    const waybill = `YT${orderId}`;
    const registered = await api(
      'cnt_waybill_register',
      { warehouse_alias: '', number: '', waybill, order_id: orderId },
      staffOf(operatorId),
    );
    expect(registered.body.ok).toBe(true);
    expect(registered.body.result.waybill).toBe(waybill.toLowerCase());
    const stored = await svc.db('cnt_waybill').where({ waybill: waybill.toLowerCase() }).first();
    expect(Number(stored.order_id)).toBe(orderId);

    const read = await api('cnt_waybill_get', { waybill }, owner);
    expect(read.status).toBeLessThan(500);
    expect(read.body.ok).toBe(true);
    expect(read.body.result.waybill).toBe(waybill.toLowerCase());

    const foreign = await api('cnt_waybill_get', { waybill }, stranger);
    expect(foreign.body).toMatchObject({ ok: false, message: CARRIER_MESSAGES.notYourOrder });
  });

  it("refuses to register on another operator's order", async () => {
    const orderId = await orderOf(operatorId);
    const reply = await api(
      'cnt_waybill_register',
      { waybill: `YT${orderId}X`, order_id: orderId },
      staffOf(otherOperatorId),
    );
    expect(reply.body).toMatchObject({ ok: false, message: CARRIER_MESSAGES.notYourOrder });
    expect(await svc.db('cnt_waybill').where({ order_id: orderId })).toEqual([]);
  });
});

describe('client_order_shipment_get', () => {
  it("is refused on another client's order", async () => {
    const orderId = await orderOf(operatorId);
    const reply = await pgFunc('client_order_shipment_get', { client_order_id: orderId }, stranger);
    expect(reply).toMatchObject({ ok: false, message: CARRIER_MESSAGES.notYourOrder });
  });
});
