import { z } from 'zod';
import {
  ORDER_MESSAGES,
  ORDER_STAGES,
  POSITION_STAGES,
  type OrderStage,
  type PositionStage,
} from './entities/orderStages';

/**
 * Carriers and tracking (issue 18, docs/adr/0020): which vendors svc-carriers talks to, their statuses with
 * the words users see, the §4 mapping of a vendor status to an order stage, the status event and the
 * messages. The card, svc-carriers and svc-orders all read this one file.
 */

/** Russian carriers whose shipments the system follows (the others are entered by hand). */
export const TRACKED_CARRIERS = ['cdek', 'pec', 'jde', 'ozon'] as const;
export type TrackedCarrier = (typeof TRACKED_CARRIERS)[number];
/** Every vendor behind an adapter: the tracked carriers and the Chinese domestic-courier tracker. */
export const CARRIER_VENDORS = [...TRACKED_CARRIERS, 'cnt'] as const;
export type CarrierVendor = (typeof CARRIER_VENDORS)[number];
export const CARRIER_VENDOR_LABELS: Record<CarrierVendor, string> = {
  cdek: 'СДЭК',
  pec: 'ПЭК',
  jde: 'ЖелДор',
  ozon: 'Ozon',
  cnt: 'отслеживания посылок',
};
export const isTrackedCarrier = (value: unknown): value is TrackedCarrier =>
  typeof value === 'string' && (TRACKED_CARRIERS as readonly string[]).includes(value);

// ---------------------------------------------------------------------------------------------- CDEK

export const CDEK_STATUSES = [
  'ACCEPTED',
  'CREATED',
  'REMOVED',
  'RECEIVED_AT_SHIPMENT_WAREHOUSE',
  'READY_TO_SHIP_AT_SENDING_OFFICE',
  'READY_FOR_SHIPMENT_IN_TRANSIT_CITY',
  'READY_FOR_SHIPMENT_IN_SENDER_CITY',
  'RETURNED_TO_SENDER_CITY_WAREHOUSE',
  'TAKEN_BY_TRANSPORTER_FROM_SENDER_CITY',
  'SENT_TO_TRANSIT_CITY',
  'ACCEPTED_IN_TRANSIT_CITY',
  'ACCEPTED_AT_TRANSIT_WAREHOUSE',
  'RETURNED_TO_TRANSIT_WAREHOUSE',
  'READY_TO_SHIP_IN_TRANSIT_OFFICE',
  'TAKEN_BY_TRANSPORTER_FROM_TRANSIT_CITY',
  'SENT_TO_SENDER_CITY',
  'SENT_TO_RECIPIENT_CITY',
  'ACCEPTED_IN_SENDER_CITY',
  'ACCEPTED_IN_RECIPIENT_CITY',
  'ACCEPTED_AT_RECIPIENT_CITY_WAREHOUSE',
  'ACCEPTED_AT_PICK_UP_POINT',
  'TAKEN_BY_COURIER',
  'RETURNED_TO_RECIPIENT_CITY_WAREHOUSE',
  'DELIVERED',
  'NOT_DELIVERED',
  'INVALID',
  'IN_CUSTOMS_INTERNATIONAL',
  'SHIPPED_TO_DESTINATION',
  'PASSED_TO_TRANSIT_CARRIER',
  'IN_CUSTOMS_LOCAL',
  'CUSTOMS_COMPLETE',
  'POSTOMAT_POSTED',
  'POSTOMAT_SEIZED',
  'POSTOMAT_RECEIVED',
] as const;
export type CdekStatus = (typeof CDEK_STATUSES)[number];

/** What the card shows for a CDEK status (spec §4 names them; the words are ours, ADR 0020). */
export const CDEK_STATUS_TEXT: Record<CdekStatus, { label: string; tooltip: string }> = {
  ACCEPTED: { label: 'принят СДЭК', tooltip: 'заказ передан в СДЭК и ждёт проверки' },
  CREATED: { label: 'создан', tooltip: 'накладная СДЭК создана, груз ещё не сдан' },
  REMOVED: { label: 'удалён', tooltip: 'накладная удалена в СДЭК' },
  RECEIVED_AT_SHIPMENT_WAREHOUSE: {
    label: 'принят на склад отправителя',
    tooltip: 'груз сдан на склад СДЭК в городе отправителя',
  },
  READY_TO_SHIP_AT_SENDING_OFFICE: {
    label: 'готов к отправке',
    tooltip: 'груз готов к отправке из офиса отправителя',
  },
  READY_FOR_SHIPMENT_IN_TRANSIT_CITY: {
    label: 'готов к отправке в транзитном городе',
    tooltip: 'груз ждёт отправки из транзитного города',
  },
  READY_FOR_SHIPMENT_IN_SENDER_CITY: {
    label: 'готов к отправке в городе отправителя',
    tooltip: 'груз ждёт отправки из города отправителя',
  },
  RETURNED_TO_SENDER_CITY_WAREHOUSE: {
    label: 'возвращён на склад отправителя',
    tooltip: 'груз вернулся на склад в городе отправителя',
  },
  TAKEN_BY_TRANSPORTER_FROM_SENDER_CITY: {
    label: 'выехал из города отправителя',
    tooltip: 'груз передан перевозчику в городе отправителя',
  },
  SENT_TO_TRANSIT_CITY: { label: 'в пути в транзитный город', tooltip: 'груз едет в транзитный город' },
  ACCEPTED_IN_TRANSIT_CITY: { label: 'в транзитном городе', tooltip: 'груз прибыл в транзитный город' },
  ACCEPTED_AT_TRANSIT_WAREHOUSE: {
    label: 'на транзитном складе',
    tooltip: 'груз принят на транзитный склад',
  },
  RETURNED_TO_TRANSIT_WAREHOUSE: {
    label: 'возвращён на транзитный склад',
    tooltip: 'груз вернулся на транзитный склад',
  },
  READY_TO_SHIP_IN_TRANSIT_OFFICE: {
    label: 'готов к отправке из транзитного офиса',
    tooltip: 'груз ждёт отправки из транзитного офиса',
  },
  TAKEN_BY_TRANSPORTER_FROM_TRANSIT_CITY: {
    label: 'выехал из транзитного города',
    tooltip: 'груз передан перевозчику в транзитном городе',
  },
  SENT_TO_SENDER_CITY: {
    label: 'возвращается отправителю',
    tooltip: 'груз едет обратно в город отправителя',
  },
  SENT_TO_RECIPIENT_CITY: { label: 'в пути в город получателя', tooltip: 'груз едет в город получателя' },
  ACCEPTED_IN_SENDER_CITY: {
    label: 'вернулся в город отправителя',
    tooltip: 'груз прибыл обратно в город отправителя',
  },
  ACCEPTED_IN_RECIPIENT_CITY: { label: 'в городе получателя', tooltip: 'груз прибыл в город получателя' },
  ACCEPTED_AT_RECIPIENT_CITY_WAREHOUSE: {
    label: 'на складе в городе получателя',
    tooltip: 'груз принят на склад в городе получателя, скоро будет доставлен или готов к выдаче',
  },
  ACCEPTED_AT_PICK_UP_POINT: { label: 'ждёт в пункте выдачи', tooltip: 'груз можно забрать в пункте выдачи' },
  TAKEN_BY_COURIER: { label: 'у курьера', tooltip: 'курьер везёт груз получателю' },
  RETURNED_TO_RECIPIENT_CITY_WAREHOUSE: {
    label: 'возвращён на склад получателя',
    tooltip: 'курьер не вручил груз, он вернулся на склад в городе получателя',
  },
  DELIVERED: { label: 'вручён', tooltip: 'груз вручён получателю' },
  NOT_DELIVERED: { label: 'не вручён', tooltip: 'груз не вручён получателю, СДЭК вернёт его отправителю' },
  INVALID: { label: 'ошибка в накладной', tooltip: 'СДЭК не принял накладную: данные неверны' },
  IN_CUSTOMS_INTERNATIONAL: { label: 'на таможне', tooltip: 'груз проходит таможню в стране отправления' },
  SHIPPED_TO_DESTINATION: {
    label: 'отправлен в страну назначения',
    tooltip: 'груз едет в страну получателя',
  },
  PASSED_TO_TRANSIT_CARRIER: {
    label: 'передан транзитному перевозчику',
    tooltip: 'груз передан транзитному перевозчику',
  },
  IN_CUSTOMS_LOCAL: { label: 'на таможне в РФ', tooltip: 'груз проходит таможню в стране получателя' },
  CUSTOMS_COMPLETE: { label: 'таможня пройдена', tooltip: 'таможенное оформление завершено' },
  POSTOMAT_POSTED: { label: 'в постамате', tooltip: 'груз заложен в постамат' },
  POSTOMAT_SEIZED: { label: 'изъят из постамата', tooltip: 'курьер забрал груз из постамата' },
  POSTOMAT_RECEIVED: { label: 'получен из постамата', tooltip: 'получатель забрал груз из постамата' },
};

/** Spec §4: a payment card in a CDEK status is blocked for changes unless the status is one of these. */
export const CDEK_EDITABLE_STATUSES: readonly CdekStatus[] = ['ACCEPTED', 'CREATED'];
export const CDEK_FINAL_STATUSES: readonly CdekStatus[] = ['DELIVERED', 'NOT_DELIVERED'];
/** CDEK statuses that say nothing about movement: the order stage stays. */
const CDEK_STILL: readonly string[] = ['ACCEPTED', 'CREATED', 'REMOVED', 'INVALID', 'NOT_DELIVERED'];
export const isCdekStatus = (value: unknown): value is CdekStatus =>
  typeof value === 'string' && (CDEK_STATUSES as readonly string[]).includes(value);
/** Spec §4: the payment card is locked in every CDEK status but ACCEPTED / CREATED (none yet = not locked). */
export const cdekLocksPayment = (status: string | null | undefined) =>
  !!status && !(CDEK_EDITABLE_STATUSES as readonly string[]).includes(status);

// ---------------------------------------------------------------------------------------------- PEC, JDE

/** Spec §4: PEC statuses that put the order in client_received. */
export const PEC_DELIVERED_STATUSES = ['Доставлен получателю', 'Выдан получателю'] as const;
/**
 * Spec §4: PEC statuses that put the order in sent_to_door. The spec names eight and hides a ninth;
 * 'Разгружается. Ожидайте оповещения' is the one PEC's list has between arrival and hand-over (ADR 0020).
 */
export const PEC_TO_DOOR_STATUSES = [
  'В пути',
  'Принят к перевозке',
  'Принят на ПВЗ',
  'В пути на терминал',
  'Прибыл',
  'Прибыл частично',
  'Прибыл. Ожидает размещения',
  'Выполняется адресная доставка',
  'Разгружается. Ожидайте оповещения',
] as const;
/** Spec §9: a PEC cargo code has 12 characters; a JDE number 16 or 19. */
export const PEC_NUMBER_LENGTH = 12;
export const JDE_NUMBER_LENGTHS: readonly number[] = [16, 19];
/** PEC answers at most this many cargo codes per status call (vendor-apis §3). */
export const PEC_CODES_PER_CALL = 15;

export const JDE_STATUSES = [
  'NewOrderByClient',
  'NotDone',
  'Pickup',
  'OnTerminalPickup',
  'OnRoad',
  'OnTerminalDelivery',
  'WaitDelivering',
  'Delivering',
  'Delivered',
  'Lost',
  'Problem',
  'ReturnedFromDelivery',
] as const;
export type JdeStatus = (typeof JDE_STATUSES)[number];
export const JDE_STATUS_LABELS: Record<JdeStatus, string> = {
  NewOrderByClient: 'заявка принята',
  NotDone: 'не выполнен',
  Pickup: 'забор груза',
  OnTerminalPickup: 'на терминале отправления',
  OnRoad: 'в пути',
  OnTerminalDelivery: 'на терминале получения',
  WaitDelivering: 'ожидает доставки',
  Delivering: 'доставляется',
  Delivered: 'доставлен',
  Lost: 'утерян',
  Problem: 'проблема с грузом',
  ReturnedFromDelivery: 'возвращён с доставки',
};
/** Spec §4. */
export const JDE_DELIVERED_STATUSES: readonly JdeStatus[] = ['Delivered'];
export const JDE_TO_DOOR_STATUSES: readonly JdeStatus[] = [
  'NewOrderByClient',
  'OnTerminalPickup',
  'OnRoad',
  'OnTerminalDelivery',
  'Delivering',
];

// ---------------------------------------------------------------------------------------------- Ozon

export const OZON_POSTING_STATUS_LABELS: Record<string, string> = {
  acceptance_in_progress: 'идёт приёмка',
  arbitration: 'арбитраж',
  awaiting_approve: 'ожидает подтверждения',
  awaiting_deliver: 'ожидает отгрузки',
  awaiting_packaging: 'ожидает упаковки',
  awaiting_verification: 'на проверке',
  cancelled: 'отменено',
  delivered: 'доставлено',
  delivering: 'доставляется',
  driver_pickup: 'у водителя',
  not_accepted: 'не принято',
  sent_by_seller: 'отправлено продавцом',
};
/** Spec §9: the posting's weight agrees with the order within this many kilograms. */
export const OZON_WEIGHT_TOLERANCE_KG = 0.1;

// ---------------------------------------------------------------------------------------------- Chinese waybills

/** Spec §4, §9: a position's waybill longer than this many characters is registered with the tracker. */
export const TRACKED_WAYBILL_MIN_EXCLUSIVE = 10;
export const normalizedWaybill = (waybill: string | null | undefined) => (waybill ?? '').trim().toLowerCase();
/** Spec §4: register unless the stored tracking number is the same waybill (case-insensitive, trimmed). */
export const waybillNeedsRegistration = (
  waybill: string | null | undefined,
  tracked: string | null | undefined,
) => {
  const value = (waybill ?? '').trim();
  if (value.length <= TRACKED_WAYBILL_MIN_EXCLUSIVE || value.toLowerCase() === 'none') return false;
  return normalizedWaybill(value) !== normalizedWaybill(tracked);
};
/** 17TRACK's main statuses (vendor-apis §6a) with the words the position screen shows. */
export const CNT_STATUS_LABELS: Record<string, string> = {
  NotFound: 'нет данных',
  InfoReceived: 'продавец оформил отправку',
  InTransit: 'в пути по Китаю',
  Expired: 'нет движения',
  AvailableForPickup: 'ждёт получения',
  OutForDelivery: 'доставляется',
  DeliveryFailure: 'не доставлен',
  Delivered: 'доставлен',
  Exception: 'проблема с доставкой',
};

// ---------------------------------------------------------------------------------------------- mapping

/** A stage a carrier status may move an order to: only forward, and only once the goods left for Russia. */
export const CARRIER_MOVABLE_FROM: OrderStage = 'sent_to_ru';

/** Spec §4: the order stage a vendor status means, or null when it leaves the stage as it is. */
export function stageForCarrierStatus(carrier: TrackedCarrier, vendorStatus: string): OrderStage | null {
  const status = vendorStatus.trim();
  switch (carrier) {
    case 'cdek':
      if (status === 'DELIVERED' || status === 'POSTOMAT_RECEIVED') return 'client_received';
      return CDEK_STILL.includes(status) ? null : 'sent_to_door';
    case 'pec':
      if ((PEC_DELIVERED_STATUSES as readonly string[]).includes(status)) return 'client_received';
      return (PEC_TO_DOOR_STATUSES as readonly string[]).includes(status) ? 'sent_to_door' : null;
    case 'jde':
      if ((JDE_DELIVERED_STATUSES as readonly string[]).includes(status)) return 'client_received';
      return (JDE_TO_DOOR_STATUSES as readonly string[]).includes(status) ? 'sent_to_door' : null;
    case 'ozon':
      if (status === 'delivered') return 'client_received';
      return ['delivering', 'driver_pickup', 'sent_by_seller'].includes(status) ? 'sent_to_door' : null;
  }
}

/**
 * The stage an order moves to when its carrier reports `target`: null when it would not move forward
 * (never backwards, never before 'отправлен в РФ', never past 'принят получателем').
 */
export function carrierStageMove(current: OrderStage, target: OrderStage | null): OrderStage | null {
  if (!target) return null;
  const at = ORDER_STAGES.indexOf(current);
  if (at < ORDER_STAGES.indexOf(CARRIER_MOVABLE_FROM)) return null;
  return ORDER_STAGES.indexOf(target) > at ? target : null;
}

/** The words a vendor status is shown in. */
export function carrierStatusLabel(carrier: TrackedCarrier, vendorStatus: string): string {
  if (carrier === 'cdek' && isCdekStatus(vendorStatus)) return CDEK_STATUS_TEXT[vendorStatus].label;
  if (carrier === 'jde' && (JDE_STATUSES as readonly string[]).includes(vendorStatus))
    return JDE_STATUS_LABELS[vendorStatus as JdeStatus];
  if (carrier === 'ozon' && vendorStatus in OZON_POSTING_STATUS_LABELS)
    return OZON_POSTING_STATUS_LABELS[vendorStatus] ?? vendorStatus;
  return vendorStatus;
}

// ---------------------------------------------------------------------------------------------- events

/** svc-carriers' shipment events travel on this topic, keyed by the shipment id (order per shipment). */
export const SHIPMENT_TOPIC = 'carriers.shipment.v1';
export const CARRIER_EVENTS = {
  /** A tracked carrier reported a new status of an order's shipment. */
  statusChanged: 'carrier.status_changed',
  /** The Chinese tracker reported a new event of a position's waybill. */
  waybillTracked: 'carrier.waybill_tracked',
} as const;

export const CarrierStatusChanged = z.object({
  shipment_id: z.number().int().positive(),
  client_order_id: z.number().int().positive(),
  carrier: z.enum(TRACKED_CARRIERS),
  number: z.string().min(1),
  uuid: z.string().nullable(),
  vendor_status: z.string().min(1),
  /** The vendor status in the user's words (carrierStatusLabel). */
  label: z.string().min(1),
  /** Where stageForCarrierStatus points; svc-orders decides with carrierStageMove. */
  stage: z.enum(ORDER_STAGES).nullable(),
  /** When the vendor says it happened. */
  status_at: z.iso.datetime({ offset: true }),
  /** When svc-carriers learnt it (webhook or poll). */
  confirmed_at: z.iso.datetime({ offset: true }),
  city: z.string().nullable(),
  final: z.boolean(),
});
export type CarrierStatusChanged = z.infer<typeof CarrierStatusChanged>;

export const WaybillTracked = z.object({
  waybill: z.string().min(1),
  client_order_id: z.number().int().positive().nullable(),
  status: z.string().min(1),
  label: z.string().min(1),
  /** The latest event's text and place, as the tracker gives them. */
  event: z.string().nullable(),
  city: z.string().nullable(),
  event_at: z.iso.datetime({ offset: true }),
  /** The parcel reached the consolidation warehouse's city. */
  arrived: z.boolean(),
});
export type WaybillTracked = z.infer<typeof WaybillTracked>;

// ---------------------------------------------------------------------------------------------- messages

export const CARRIER_MESSAGES = {
  /** A vendor did not answer (timeout, 5xx, malformed body after retries). */
  noAnswer: (vendor: CarrierVendor, detail?: string) =>
    `сервис ${CARRIER_VENDOR_LABELS[vendor]} не ответил${detail ? `: ${detail}` : ''}`,
  /** A vendor refused the request with its own words. */
  refused: (vendor: CarrierVendor, vendorMessage: string) =>
    `${CARRIER_VENDOR_LABELS[vendor]}: ${vendorMessage}`,
  noApiData: 'не указаны данные api',
  somethingWrongRetry: 'что-то пошло не так, повторите попытку',
  somethingWrong: 'что-то пошло не так',
  waybillDraftFailed: (error: string) => `что-то пошло не так: ${error}`,
  noClientInOperator: 'не указаны данные клиента в операторе',
  waybillDraftNeedsTitle: 'укажите название получателя в данных доставки',
  positionsNotAtWarehouse: (n: number) => `позиций ещё не на складе консолидации: ${n}`,
  clientAddedToOperator: 'клиент добавлен в список оператора',
  deliveryDataChosen: 'данные доставки сохранены в заказе',
  cdekLockedClient:
    'к сожалению, в данном статусе СДЭК не позволяет изменять данные автоматически. при необходимости можете обратиться к оператору',
  cdekLockedStaff:
    'в данном статусе СДЭК не позволяет изменять данные автоматически. не забудьте скорректировать значения вручную в накладной',
  ozonLinked: 'товар Ozon привязан',
  ozonUnlinked: 'товар Ozon отвязан',
  notYourOrder: 'заказ не найден',
  noShipment: 'у заказа нет накладной перевозчика',
  pecNumberLength: `номер груза ПЭК должен содержать ${PEC_NUMBER_LENGTH} символов`,
  jdeNumberLength: `номер груза ЖелДор должен содержать ${JDE_NUMBER_LENGTHS.join(' или ')} символов`,
  alreadyDelivered: 'груз уже вручён',
  developmentKeyInProduction:
    'CARRIERS_SECRET_KEY не задан: ключ разработки нельзя использовать в production',
} as const;

/** Position stages before the consolidation warehouse: goods a CDEK waybill cannot carry yet. */
export const STAGES_BEFORE_WAREHOUSE: readonly PositionStage[] = POSITION_STAGES.slice(
  0,
  POSITION_STAGES.indexOf('warehouse_received'),
);

/**
 * Spec §4 'positions are checked' before a CDEK waybill draft: the order has positions and every one is at
 * the consolidation warehouse or further (ours: a waybill for goods not yet there would declare a parcel
 * that does not exist). Counts of the order's live positions.
 */
export function waybillDraftPositionProblems(counts: { total: number; notAtWarehouse: number }): string[] {
  if (!counts.total) return [ORDER_MESSAGES.noPositions];
  return counts.notAtWarehouse ? [CARRIER_MESSAGES.positionsNotAtWarehouse(counts.notAtWarehouse)] : [];
}

// ---------------------------------------------------------------------------------------------- calls (spec §7)

const OrderId = z.coerce.number().int().positive();

/** POST /api/cdek_order_create: the operator creates the CDEK waybill of an order from its card. */
export const CdekOrderCreateInput = z.object({
  client_order_id: OrderId,
  /** The draft dialog's choices; absent fields come from the order and the operator's defaults. */
  order_data: z
    .object({
      tariff_code: z.coerce.number().int().positive().optional(),
      comment: z.string().max(255).optional(),
    })
    .default({}),
});
export type CdekOrderCreateInput = z.infer<typeof CdekOrderCreateInput>;
export interface CdekOrderCreateResult {
  entity: {
    uuid: string;
    cdek_number: string | null;
    statuses: Array<{ code: string; name: string; date_time: string }>;
  };
}

/** POST /api/pec_order_get, /api/jde_order_get: the sync buttons (spec §5). */
export const CarrierOrderGetInput = z.object({ order_id: OrderId });
export interface PecOrderGetResult {
  info: { cargoStatus: string; receivedByClientDateTime: string | null; deliveryPlanDate: string | null };
  services: { sum: string | null };
}
export interface JdeOrderGetResult {
  status: string;
  /** DD.MM.YYYY */
  date: string | null;
}

/** POST /api/ozon_posting_get */
export const OzonPostingGetInput = z.object({
  client_order_id: OrderId,
  posting_number: z.string().trim().min(1),
});
export interface OzonProduct {
  name: string;
  sku: number;
  offer_id: string;
  quantity: number;
  price: string;
  currency_code: string;
}
export interface OzonPosting {
  posting_number: string;
  status: string;
  products: OzonProduct[];
  /** kg, summed from products[].dimensions.weight × quantity */
  weight: string | null;
  delivering_date: string | null;
}

/** POST /api/cnt_waybill_register, /api/cnt_waybill_get (spec §7). */
export const CntWaybillRegisterInput = z.object({
  warehouse_alias: z.string().trim().default(''),
  number: z.string().trim().default(''),
  waybill: z.string().trim().min(1),
  order_id: OrderId.optional(),
});
export const CntWaybillGetInput = z.object({ waybill: z.string().trim().min(1) });
/** call_pg_func client_order_shipment_get: what the order card shows about its carrier. */
export const ShipmentGetParams = z.object({ client_order_id: OrderId });
export interface CntWaybillInfo {
  waybill: string;
  status: string;
  label: string;
  arrived: boolean;
  /** Newest first. */
  events: Array<{ at: string; text: string; city: string | null }>;
  updated_at: string;
}

/** call_pg_func client_order_shipment_get {client_order_id}: what the card shows about the carrier. */
export interface ShipmentView {
  client_order_id: number;
  carrier: TrackedCarrier;
  number: string | null;
  uuid: string | null;
  vendor_status: string | null;
  label: string | null;
  tooltip: string | null;
  /** When the vendor last confirmed the status (a poll or a webhook); null before the first answer. */
  last_confirmed_at: string | null;
  /** The last failure in the user's words, while it lasts. */
  last_error: string | null;
  final: boolean;
  /** Oldest first. */
  history: Array<{ vendor_status: string; label: string; status_at: string; city: string | null }>;
}
