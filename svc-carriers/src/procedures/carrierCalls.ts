import type { CdekWebhookSubscriber } from '../domain/cdekWebhooks';
import {
  CARRIER_MESSAGES,
  CarrierOrderGetInput,
  CDEK_STATUS_TEXT,
  CdekOrderCreateInput,
  CntWaybillGetInput,
  CntWaybillRegisterInput,
  carrierStatusLabel,
  describeIssues,
  fail,
  isAdmin,
  isCdekStatus,
  isStaff,
  JDE_NUMBER_LENGTHS,
  normalizedWaybill,
  ok,
  OzonPostingGetInput,
  ShipmentGetParams,
  PEC_NUMBER_LENGTH,
  type CdekOrderCreateResult,
  type CntWaybillInfo,
  type Identity,
  type JdeOrderGetResult,
  type OzonPosting,
  type PecOrderGetResult,
  type ShipmentView,
  type TrackedCarrier,
} from '@caravan/contracts';
import { BusinessError, type Db, type ServiceKit } from '@caravan/service-kit';
import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import {
  CarrierError,
  type Carrier,
  type CarrierCredentials,
  type CarrierStatus,
  type ShipmentDraft,
  type ShipmentState,
} from '../adapters/carrier';
import type { CarrierSetup } from '../adapters/index';
import type { OzonClient } from '../adapters/ozon';
import { credentialsOf } from '../domain/credentials';
import { recordStatuses, shipmentOfOrder, type Shipment } from '../domain/shipments';
import { registerWaybill, waybillInfo } from '../domain/waybills';

/** A refusal of a carrier call: the user's words and the HTTP status they travel with (never a 500). */
export class CallRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'CallRefused';
  }
}

/** The order fields the calls read from the client_order replica. */
type OrderReplica = {
  id: number;
  deleted?: boolean;
  title?: string | null;
  operator_id?: number | null;
  client_id?: number | null;
  weight?: string | number | null;
  total_price_rur?: string | null;
  delivery_data?: {
    title?: string;
    type?: string;
    city?: string;
    address?: string;
    delivery_point_code?: string;
    contact_name?: string;
    contact_phone?: string | null;
  } | null;
  transport_company_rus?: string | null;
  transport_company_rus_order_number?: string | null;
};

/** The order as the caller may see it: a client their own, an operator their operators', admin all. */
export async function visibleOrder(db: Db, identity: Identity, id: number): Promise<OrderReplica> {
  const row = (await db('replica').where({ entity: 'client_order', id }).first('data')) as
    { data: OrderReplica } | undefined;
  const order = row?.data;
  if (!order || order.deleted || !mayReach(identity, order))
    throw new CallRefused(404, CARRIER_MESSAGES.notYourOrder);
  return { ...order, id };
}

function mayReach(identity: Identity, order: OrderReplica): boolean {
  if (isAdmin(identity)) return true;
  const operator = Number(order.operator_id);
  const client = Number(order.client_id);
  return (
    (identity.roles.includes('operator') && identity.operator_ids.includes(operator)) ||
    (identity.roles.includes('client') && identity.client_ids.includes(client))
  );
}

async function credentialsFor(db: Db, order: OrderReplica, carrier: TrackedCarrier) {
  const credentials = order.operator_id ? await credentialsOf(db, Number(order.operator_id), carrier) : null;
  if (!credentials) throw new CallRefused(400, CARRIER_MESSAGES.noApiData);
  return credentials;
}

/** A vendor's failure in the user's words: 503 when worth retrying, 4xx when the vendor refused. */
function refusalOf(err: CarrierError): CallRefused {
  if (err.retryable) return new CallRefused(503, err.message);
  return new CallRefused(err.kind === 'not_found' ? 404 : 422, err.message);
}

async function askVendor<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof CarrierError) throw refusalOf(err);
    throw err;
  }
}

// ------------------------------------------------------------------------------------------ cdek_order_create

/** CDEK tariffs used when the dialog names none: склад-склад to a pickup point, склад-дверь to an address. */
const CDEK_TARIFF_TO_POINT = 136;
const CDEK_TARIFF_TO_DOOR = 137;

const gramsOf = (weightKg: string | number | null | undefined) => {
  const kg = Number(weightKg);
  return Number.isFinite(kg) && kg > 0 ? Math.max(1, Math.round(kg * 1000)) : 1;
};

/** The CDEK waybill of an order: recipient and point from delivery_data; amount and weight default to 1. */
export function cdekDraftOf(order: OrderReplica, input: CdekOrderCreateInput): ShipmentDraft {
  const delivery = order.delivery_data;
  if (!delivery?.title?.trim()) throw new CallRefused(400, CARRIER_MESSAGES.waybillDraftNeedsTitle);
  const point = delivery.delivery_point_code?.trim() || null;
  const weight_grams = gramsOf(order.weight);
  return {
    reference: String(order.id),
    tariff_code: input.order_data.tariff_code ?? (point ? CDEK_TARIFF_TO_POINT : CDEK_TARIFF_TO_DOOR),
    recipient: {
      name: delivery.contact_name?.trim() || delivery.title.trim(),
      phone: delivery.contact_phone ?? '',
    },
    delivery_point: point,
    to_location: point ? null : { city: delivery.city ?? '', address: delivery.address ?? '' },
    packages: [
      {
        number: '1',
        weight_grams,
        items: [
          {
            name: order.title?.trim() || `заказ ${order.id}`,
            ware_key: String(order.id),
            cost: order.total_price_rur ?? '0',
            amount: 1,
            weight_grams,
            payment: '0',
          },
        ],
      },
    ],
    comment: input.order_data.comment ?? null,
  };
}

/** The shipment of the order, new or restarted on this waybill (the old waybill's log goes). */
async function startShipment(
  trx: Db,
  order: OrderReplica,
  carrier: TrackedCarrier,
  waybill: { uuid: string | null; number: string | null },
): Promise<Pick<Shipment, 'id'>> {
  const existing = await shipmentOfOrder(trx, order.id);
  if (existing) await trx('shipment_status').where({ shipment_id: existing.id }).delete();
  const fields = {
    operator_id: Number(order.operator_id),
    client_id: Number(order.client_id),
    carrier,
    ...waybill,
    vendor_status: null,
    status_at: null,
    final: false,
    last_error: null,
    failures: 0,
    next_check_at: trx.fn.now(),
    updated_at: trx.fn.now(),
  };
  const [row] = (await trx('shipment')
    .insert({ client_order_id: order.id, ...fields })
    .onConflict('client_order_id')
    .merge(fields)
    .returning('id')) as Array<{ id: number }>;
  return { id: Number(row!.id) };
}

const cdekStatusOf = (s: CarrierStatus) => ({
  code: s.vendor_status,
  name: isCdekStatus(s.vendor_status) ? CDEK_STATUS_TEXT[s.vendor_status].label : s.vendor_status,
  date_time: s.status_at,
});

async function cdekOrderCreate(
  kit: ServiceKit,
  cdek: Carrier,
  identity: Identity,
  body: unknown,
  ensureCdekWebhook?: CdekWebhookSubscriber,
) {
  const input = CdekOrderCreateInput.parse(body);
  const order = await visibleOrder(kit.db, identity, input.client_order_id);
  if (!isStaff(identity)) throw new CallRefused(403, CARRIER_MESSAGES.notYourOrder);
  const credentials = await credentialsFor(kit.db, order, 'cdek');
  const draft = cdekDraftOf(order, input);
  if (!cdek.createShipment) throw new CallRefused(503, CARRIER_MESSAGES.noAnswer('cdek'));
  // the account hears of its waybill's statuses by webhook from the first one on
  await ensureCdekWebhook?.(credentials);
  const created = await askVendor(() => cdek.createShipment!(credentials, draft));
  await kit.db.transaction(async (trx) => {
    const shipment = await startShipment(trx, order, 'cdek', { uuid: created.uuid, number: created.number });
    await recordStatuses(trx, shipment, created.statuses, { confirmed_at: new Date(), outbox: kit.outbox });
  });
  kit.afterWrite();
  const result: CdekOrderCreateResult = {
    entity: { uuid: created.uuid, cdek_number: created.number, statuses: created.statuses.map(cdekStatusOf) },
  };
  return result;
}

// ------------------------------------------------------------------------------- pec_order_get, jde_order_get

/** The order's waybill number of that carrier, within the carrier's length rule. */
function waybillNumberOf(order: OrderReplica, carrier: 'pec' | 'jde'): string {
  const number = (order.transport_company_rus_order_number ?? '').trim();
  if (order.transport_company_rus !== carrier || !number)
    throw new CallRefused(400, CARRIER_MESSAGES.noShipment);
  if (carrier === 'pec' && number.length !== PEC_NUMBER_LENGTH)
    throw new CallRefused(400, CARRIER_MESSAGES.pecNumberLength);
  if (carrier === 'jde' && !JDE_NUMBER_LENGTHS.includes(number.length))
    throw new CallRefused(400, CARRIER_MESSAGES.jdeNumberLength);
  return number;
}

/** Asks the vendor about the order's waybill and records what it said, as a poll would. */
async function syncOrder(
  kit: ServiceKit,
  carrier: Carrier & { vendor: 'pec' | 'jde' },
  identity: Identity,
  body: unknown,
): Promise<ShipmentState> {
  const input = CarrierOrderGetInput.parse(body);
  const order = await visibleOrder(kit.db, identity, input.order_id);
  const number = waybillNumberOf(order, carrier.vendor);
  const credentials: CarrierCredentials = await credentialsFor(kit.db, order, carrier.vendor);
  const [state] = await askVendor(() => carrier.getStatuses(credentials, [number]));
  if (!state)
    throw new CallRefused(404, CARRIER_MESSAGES.refused(carrier.vendor, `груз ${number} не найден`));
  const shipment = await shipmentOfOrder(kit.db, order.id);
  if (shipment && shipment.carrier === carrier.vendor && shipment.number === number) {
    await kit.db.transaction((trx) =>
      recordStatuses(trx, shipment, state.statuses, { confirmed_at: new Date(), outbox: kit.outbox }),
    );
    kit.afterWrite();
  }
  return state;
}

const detail = (state: ShipmentState, key: string) => {
  const value = state.details[key];
  return typeof value === 'string' && value ? value : null;
};
const currentStatus = (state: ShipmentState) => state.statuses.at(-1)?.vendor_status ?? '';

function pecResult(state: ShipmentState): PecOrderGetResult {
  return {
    info: {
      cargoStatus: detail(state, 'cargoStatus') ?? currentStatus(state),
      receivedByClientDateTime: detail(state, 'receivedByClientDateTime'),
      deliveryPlanDate: detail(state, 'deliveryPlanDate'),
    },
    services: { sum: detail(state, 'services_sum') },
  };
}

function jdeResult(state: ShipmentState): JdeOrderGetResult {
  return { status: detail(state, 'status') ?? currentStatus(state), date: detail(state, 'date') };
}

// ------------------------------------------------------------------------------------------ ozon_posting_get

const isOzonClient = (carrier: Carrier | undefined): carrier is OzonClient =>
  !!carrier && typeof (carrier as Partial<OzonClient>).getPosting === 'function';

/** The Ozon posting of an order, asked with the order's operator's Seller API account. */
async function ozonPostingGet(
  kit: ServiceKit,
  ozon: Carrier | undefined,
  identity: Identity,
  body: unknown,
): Promise<OzonPosting> {
  const input = OzonPostingGetInput.parse(body);
  const order = await visibleOrder(kit.db, identity, input.client_order_id);
  const credentials = await credentialsFor(kit.db, order, 'ozon');
  if (!isOzonClient(ozon)) throw new CallRefused(503, CARRIER_MESSAGES.noAnswer('ozon'));
  return askVendor(() => ozon.getPosting(credentials, input.posting_number));
}

// ------------------------------------------------------------------------------ cnt_waybill_register, _get

/** The tracker's account, or the refusal in words when none is configured. */
function trackerAccountOf(setup: Pick<CarrierSetup, 'trackerAccount'>): CarrierCredentials {
  if (!setup.trackerAccount) throw new CallRefused(400, CARRIER_MESSAGES.noApiData);
  return setup.trackerAccount;
}

/** A waybill not tied to an order is staff's business; one of an order, of whoever may see the order. */
async function assertMayTrack(db: Db, identity: Identity, order_id: number | null | undefined) {
  if (order_id) await visibleOrder(db, identity, order_id);
  else if (!isStaff(identity)) throw new CallRefused(403, CARRIER_MESSAGES.notYourOrder);
}

async function cntWaybillRegister(
  kit: ServiceKit,
  setup: Pick<CarrierSetup, 'tracker' | 'trackerAccount'>,
  identity: Identity,
  body: unknown,
): Promise<CntWaybillInfo> {
  const input = CntWaybillRegisterInput.parse(body);
  await assertMayTrack(kit.db, identity, input.order_id);
  const credentials = trackerAccountOf(setup);
  const registered = await askVendor(() =>
    registerWaybill(kit.db, setup.tracker, credentials, {
      waybill: input.waybill,
      order_id: input.order_id ?? null,
      warehouse_alias: input.warehouse_alias,
    }),
  );
  if (!registered.accepted)
    throw new CallRefused(422, CARRIER_MESSAGES.refused('cnt', registered.message ?? ''));
  return registered.info;
}

async function cntWaybillGet(
  kit: ServiceKit,
  setup: Pick<CarrierSetup, 'tracker' | 'trackerAccount'>,
  identity: Identity,
  body: unknown,
): Promise<CntWaybillInfo> {
  const input = CntWaybillGetInput.parse(body);
  const stored = (await kit
    .db('cnt_waybill')
    .where({ waybill: normalizedWaybill(input.waybill) })
    .first('order_id')) as { order_id: number | null } | undefined;
  await assertMayTrack(kit.db, identity, stored?.order_id);
  const credentials = trackerAccountOf(setup);
  const info = await askVendor(() =>
    waybillInfo(kit.db, kit.outbox, setup.tracker, credentials, input.waybill),
  );
  kit.afterWrite();
  if (!info)
    throw new CallRefused(404, CARRIER_MESSAGES.refused('cnt', `накладная ${input.waybill} не найдена`));
  return info;
}

// ---------------------------------------------------------------------------------- client_order_shipment_get

/** What the order card shows about its carrier, or null when the order's carrier is not followed. */
export async function shipmentView(db: Db, identity: Identity, client_order_id: number) {
  await visibleOrder(db, identity, client_order_id).catch((err: unknown) => {
    if (err instanceof CallRefused) throw new BusinessError(err.message);
    throw err;
  });
  const shipment = await shipmentOfOrder(db, client_order_id);
  if (!shipment) return null;
  const history = (await db('shipment_status')
    .where({ shipment_id: shipment.id })
    .orderBy([{ column: 'status_at' }, { column: 'id' }])
    .select('vendor_status', 'status_at', 'city')) as Array<{
    vendor_status: string;
    status_at: Date;
    city: string | null;
  }>;
  const status = shipment.vendor_status;
  const cdekText = shipment.carrier === 'cdek' && isCdekStatus(status) ? CDEK_STATUS_TEXT[status] : null;
  const view: ShipmentView = {
    client_order_id,
    carrier: shipment.carrier,
    number: shipment.number,
    uuid: shipment.uuid,
    vendor_status: status,
    label: status ? carrierStatusLabel(shipment.carrier, status) : null,
    tooltip: cdekText?.tooltip ?? null,
    last_confirmed_at: shipment.last_confirmed_at ? new Date(shipment.last_confirmed_at).toISOString() : null,
    last_error: shipment.last_error,
    final: shipment.final,
    history: history.map((h) => ({
      vendor_status: h.vendor_status,
      label: carrierStatusLabel(shipment.carrier, h.vendor_status),
      status_at: new Date(h.status_at).toISOString(),
      city: h.city,
    })),
  };
  return view;
}

// ------------------------------------------------------------------------------------------------ routes

type Handler = (identity: Identity, body: unknown) => Promise<unknown>;

function answer(kit: ServiceKit, name: string, handler: Handler) {
  return async (req: Request, res: Response) => {
    const { identity } = req as Request & { identity: Identity };
    try {
      res.json(ok(await handler(identity, req.body ?? {})));
    } catch (err) {
      if (err instanceof z.ZodError)
        return void res.status(400).json(fail(describeIssues(err.issues, req.body)));
      if (err instanceof CallRefused) return void res.status(err.status).json(fail(err.message));
      if (err instanceof BusinessError) return void res.status(400).json(fail(err.message));
      kit.log.error({ err }, `${name} failed`);
      res.status(503).json(fail(CARRIER_MESSAGES.somethingWrongRetry));
    }
  };
}

/**
 * The carrier calls of the order card (spec §7): POST /api/cdek_order_create, /api/pec_order_get,
 * /api/jde_order_get, /api/ozon_posting_get, /api/cnt_waybill_register, /api/cnt_waybill_get, and
 * call_pg_func client_order_shipment_get. The caller reaches only the orders the signed identity may see;
 * nothing is asked of a vendor before that and the credentials check.
 */
export function registerCarrierCalls(
  kit: ServiceKit,
  setup: Pick<CarrierSetup, 'carriers' | 'tracker' | 'trackerAccount'>,
  options: { ensureCdekWebhook?: CdekWebhookSubscriber } = {},
) {
  const { carriers } = setup;
  const json = express.json({ limit: '16kb' });
  const carrier = (vendor: TrackedCarrier) => {
    const found = carriers.get(vendor);
    if (!found) throw new CallRefused(503, CARRIER_MESSAGES.noAnswer(vendor));
    return found;
  };
  kit.api.post(
    '/cdek_order_create',
    json,
    answer(kit, 'cdek_order_create', (identity, body) =>
      cdekOrderCreate(kit, carrier('cdek'), identity, body, options.ensureCdekWebhook),
    ),
  );
  kit.api.post(
    '/pec_order_get',
    json,
    answer(kit, 'pec_order_get', async (identity, body) =>
      pecResult(await syncOrder(kit, carrier('pec') as Carrier & { vendor: 'pec' }, identity, body)),
    ),
  );
  kit.api.post(
    '/jde_order_get',
    json,
    answer(kit, 'jde_order_get', async (identity, body) =>
      jdeResult(await syncOrder(kit, carrier('jde') as Carrier & { vendor: 'jde' }, identity, body)),
    ),
  );
  kit.api.post(
    '/ozon_posting_get',
    json,
    answer(kit, 'ozon_posting_get', (identity, body) =>
      ozonPostingGet(kit, carriers.get('ozon'), identity, body),
    ),
  );
  kit.api.post(
    '/cnt_waybill_register',
    json,
    answer(kit, 'cnt_waybill_register', (identity, body) => cntWaybillRegister(kit, setup, identity, body)),
  );
  kit.api.post(
    '/cnt_waybill_get',
    json,
    answer(kit, 'cnt_waybill_get', (identity, body) => cntWaybillGet(kit, setup, identity, body)),
  );
  kit.registry.register({
    name: 'client_order_shipment_get',
    params: ShipmentGetParams,
    access: 'any',
    handler: (ctx, p) => shipmentView(ctx.db, ctx.identity, p.client_order_id),
  });
}
