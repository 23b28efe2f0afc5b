import { MESSAGES } from '../messages';
import { hasRole, type Identity } from '../roles';
import { specMessage } from '../validation';

/** Order stages (spec §4) with their Russian names. */
export const ORDER_STAGES = [
  'draft',
  'created',
  'buyout_waiting',
  'buyout_done',
  'warehouse_waiting',
  'warehouse_received',
  'sent_to_ru',
  'sent_to_door',
  'client_received',
  'client_confirmed',
] as const;
export type OrderStage = (typeof ORDER_STAGES)[number];
export const ORDER_STAGE_LABELS: Record<OrderStage, string> = {
  draft: 'новый',
  created: 'сформирован',
  buyout_waiting: 'ожидает оплаты/выкупа',
  buyout_done: 'выкуплен',
  warehouse_waiting: 'отправлен на склад консолидации',
  warehouse_received: 'на складе консолидации',
  sent_to_ru: 'отправлен в РФ',
  sent_to_door: 'отправлен по адресу в РФ',
  client_received: 'вручён получателю',
  client_confirmed: 'принят получателем',
};

export const ORDER_STATES = ['active', 'modification', 'agreement', 'cancelled', 'done'] as const;
export type OrderState = (typeof ORDER_STATES)[number];
export const ORDER_STATE_LABELS: Record<OrderState, string> = {
  active: 'активен',
  modification: 'изменение',
  agreement: 'согласование',
  cancelled: 'отменён',
  done: 'завершён',
};
/** Spec §5: the order number is editable only in these states. */
export const ORDER_NUMBER_STATES: readonly OrderState[] = ['active', 'modification', 'agreement'];

export const POSITION_STAGES = [
  'draft',
  'verification',
  'created',
  'buyout_waiting',
  'buyout_done',
  'warehouse_waiting',
  'warehouse_received',
  'sent_to_ru',
  'sent_to_door',
  'client_received',
  'client_confirmed',
] as const;
export type PositionStage = (typeof POSITION_STAGES)[number];
export const POSITION_STAGE_LABELS: Record<PositionStage, string> = {
  draft: 'новая',
  verification: 'на проверке',
  created: 'ожидает оплаты',
  buyout_waiting: 'оплачена',
  buyout_done: 'выкуплена',
  warehouse_waiting: 'отправлена на склад консолидации',
  warehouse_received: 'на складе консолидации',
  sent_to_ru: 'отправлена в РФ',
  sent_to_door: 'отправлена по адресу в РФ',
  client_received: 'вручена получателю',
  client_confirmed: 'принята получателем',
};

export const BUYOUT_STATES = ['not_done', 'done_part', 'done', 'self'] as const;
export type BuyoutState = (typeof BUYOUT_STATES)[number];
export const BUYOUT_STATE_LABELS: Record<BuyoutState, string> = {
  not_done: 'не выкуплена',
  done_part: 'выкуплена частично',
  done: 'выкуплена',
  self: 'самовыкуп',
};

export const BUYOUT_TYPES = ['operator', 'self'] as const;
export type BuyoutType = (typeof BUYOUT_TYPES)[number];
export const BUYOUT_TYPE_LABELS: Record<BuyoutType, string> = {
  operator: 'выкуп оператором',
  self: 'самовыкуп',
};

export const DELIVERY_TYPES = ['to_door', 'to_ru', 'to_fulfillment'] as const;
export type DeliveryType = (typeof DELIVERY_TYPES)[number];
export const DELIVERY_TYPE_LABELS: Record<DeliveryType, string> = {
  to_door: 'до двери',
  to_ru: 'до РФ',
  to_fulfillment: 'до фулфилмента',
};
/** Spec §4: to_fulfillment is always disabled in the new-order dialog. */
export const DELIVERY_TYPE_IN_DEVELOPMENT: DeliveryType = 'to_fulfillment';

/** The product's own name in the 'pay later in {product}' payment state (spec §4 in_{product}). */
export const PAY_LATER_STATE = 'in_caravan';
export const PRODUCT_PAYMENT_STATES = [
  'not_paid',
  'partial',
  'paid',
  'self',
  'in_cdek',
  PAY_LATER_STATE,
] as const;
export type ProductPaymentState = (typeof PRODUCT_PAYMENT_STATES)[number];
export const PRODUCT_PAYMENT_STATE_LABELS: Record<ProductPaymentState, string> = {
  not_paid: 'не оплачен',
  partial: 'оплачен частично',
  paid: 'оплачен',
  self: 'самовыкуп',
  in_cdek: 'оплата в СДЭК',
  in_caravan: 'оплата позже',
};
export const DELIVERY_PAYMENT_STATES = [
  'not_paid',
  'partial',
  'paid_to_ru',
  'paid_to_door',
  'in_cdek',
  PAY_LATER_STATE,
] as const;
export type DeliveryPaymentState = (typeof DELIVERY_PAYMENT_STATES)[number];
export const DELIVERY_PAYMENT_STATE_LABELS: Record<DeliveryPaymentState, string> = {
  not_paid: 'не оплачена',
  partial: 'оплачена частично',
  paid_to_ru: 'оплачена до РФ',
  paid_to_door: 'оплачена до двери',
  in_cdek: 'оплата в СДЭК',
  in_caravan: 'оплата позже',
};

export const EXTRA_SERVICE_KINDS = ['transfer', 'package'] as const;

/** Messages of the order and position life: the spec's verbatim, the rest ours in the same voice. */
export const ORDER_MESSAGES = {
  // spec §8 success notices
  created: specMessage('заказ сформирован'),
  buyoutWaiting: specMessage('заказ ожидает оплаты от клиента'),
  sentToRu: specMessage('заказ отправлен в РФ'),
  sentToDoor: specMessage('заказ отправлен по адресу'),
  clientReceived: specMessage('заказ вручён получателю'),
  clientConfirmed: specMessage('заказ принят получателем'),
  done: specMessage('готово'),
  positionAdded: (title: string) => `позиция ${title} добавлена`,
  positionDeleted: (title: string) => `позиция ${title} удалена`,
  stageChangedIn: (n: number) => `этап в ${n} позициях изменён`,
  // spec §5 order-created checks
  noRoute: specMessage('не указан тариф'),
  mixedTypes: specMessage('в заказе есть товары разных типов'),
  typesOutsideRoute: specMessage('типы товаров позиций не совпадают с типами товаров тарифа'),
  withoutWaybill: (n: number) => `позиций без waybill: ${n}`,
  withoutType: (n: number) => `позиций без типа: ${n}`,
  selfBuyoutWarning: specMessage(
    'указан "самовыкуп". у всех позиций должны быть указаны [waybill] и [тип товара]',
  ),
  withoutLink: (n: number) => `позиций без ссылки / wechat продавца: ${n}`,
  withoutScreenshot: (n: number) => `позиций без скриншота/файла: ${n}`,
  // spec §5 / §8 position checks
  noAmount: specMessage('не указано кол-во'),
  noPrice: specMessage('не указана цена'),
  typeOutsideRoute: specMessage('тип товара не совпадают с типами товаров тарифа'),
  needWaybill: specMessage('укажите waybill'),
  waybillsMissing: (n: number) => `необходимо указать waybill в ${n} позициях`,
  noBoxCount: specMessage('не указано кол-во коробок'),
  noDate: specMessage('не указана дата'),
  notPaid: specMessage('внимание! заказ не оплачен'),
  priceOrAmountMissing: (n: number) =>
    `не указаны необходимые данные (цена / кол-во) в ${n} ${n % 10 === 1 && n % 100 !== 11 ? 'позиции' : 'позициях'}`,
  weightMismatch: (kg: string) => `вес заказа не совпадает с суммой весов позиций (${kg} кг)`,
  // ours: refusals of the server's rules
  noPositions: 'в заказе нет позиций',
  positionsUnchecked: (n: number) => `позиций на проверке: ${n}; сначала проверьте их`,
  orderStage: (from: OrderStage, to: OrderStage) =>
    `заказ нельзя перевести из этапа «${ORDER_STAGE_LABELS[from]}» в «${ORDER_STAGE_LABELS[to]}»`,
  orderStageBy: (to: OrderStage) =>
    `этап «${ORDER_STAGE_LABELS[to]}» ставится кнопкой на странице заказа, а не правкой поля`,
  positionAction: (action: PositionAction, stage: PositionStage) =>
    `действие «${POSITION_ACTION_LABELS[action]}» недоступно для позиции на этапе «${POSITION_STAGE_LABELS[stage]}»`,
  positionBoughtOut: 'позиция уже выкуплена',
  positionStageByActions: 'этап и состояние выкупа позиции меняются кнопками действий',
  orderLocked: 'данные заказа после формирования меняет только администратор',
  /** A formed order's fields refused to this user at this stage, by their labels, and who may change them. */
  fieldsLocked: (labels: readonly string[], stage: OrderStage, byStaff: boolean) =>
    `на этапе «${ORDER_STAGE_LABELS[stage]}» ${labels.length > 1 ? 'поля' : 'поле'} ${labels
      .map((l) => `'${l}'`)
      .join(', ')} ${byStaff ? 'меняет только оператор или администратор' : 'меняет только администратор'}`,
  ownersFixed: 'клиента и оператора сформированного заказа меняет только администратор',
  clientFixed:
    'клиент заказа не меняется: для другого клиента создайте новый заказ и перенесите в него позиции',
  positionOrderByMove: 'позиция переходит в другой заказ только переносом позиций (кнопка «перенести»)',
  alreadyAt: (stage: OrderStage) => `заказ уже ${ORDER_STAGE_LABELS[stage]}`,
  staleVersion: 'заказ изменён другим пользователем, пока открыта эта форма; обновите страницу и повторите',
  operatorNotServing: 'этот оператор не обслуживает клиента заказа',
  orderNumberState: 'номер заказа можно изменить только в состояниях «активен», «изменение» и «согласование»',
  positionsLocked: 'данные позиций сформированного заказа меняет только оператор или администратор',
  noNewPositions: 'в сформированный заказ нельзя добавить позиции',
  consolidationDateStage:
    'дату доставки на склад консолидации можно указать только у позиции на этапе «отправлена на склад консолидации»',
  estimateReadonly: 'расчётные цены доставки заполняются автоматически',
  computedPrice: (label: string) =>
    `поле '${label}' рассчитывается автоматически; цены заказа меняет администратор через корректировку цен`,
  deliveryToRuOnly: 'вручение получателю на этапе «отправлен в РФ» возможно только при доставке до РФ',
} as const;

/** Who may do an order transition: anyone who reaches the order, or staff (admin, operator). */
type Who = 'any' | 'staff';
export type OrderTransition = {
  from: readonly OrderStage[];
  to: OrderStage;
  who: Who;
  /** The call that makes it: an explicit method, or client_order_update with `stage` and the dialog's fields. */
  via: 'client_order_created' | 'client_order_buyout_waiting' | 'client_order_update' | 'positions';
  /** Fields of the stage dialog that may change with it (spec §5 dialogs). */
  fields: readonly string[];
  /** Dialog fields that must be filled after the move. */
  required: readonly string[];
  success: string;
};

/**
 * The order's stage machine (spec §4; the rest is ours, docs/adr/0008-orders.md). buyout_done,
 * warehouse_waiting and warehouse_received follow the positions: the order moves on when its last
 * position gets there.
 */
export const ORDER_TRANSITIONS: readonly OrderTransition[] = [
  {
    from: ['draft'],
    to: 'created',
    who: 'any',
    via: 'client_order_created',
    fields: ['delivery_data', 'transport_company_rus', 'product_payment_state', 'delivery_payment_state'],
    required: [],
    success: ORDER_MESSAGES.created,
  },
  {
    from: ['created'],
    to: 'buyout_waiting',
    who: 'staff',
    via: 'client_order_buyout_waiting',
    fields: [],
    required: [],
    success: ORDER_MESSAGES.buyoutWaiting,
  },
  {
    from: ['warehouse_received'],
    to: 'sent_to_ru',
    who: 'staff',
    via: 'client_order_update',
    fields: [
      'send_date',
      'shipment_article',
      'volume',
      'weight',
      'amount',
      'to_ru_delivery_price',
      'to_ru_delivery_currency_id',
    ],
    // spec §5: the dialog's fields; the currency defaults to USD (pricing takes USD when none is chosen)
    required: ['send_date', 'shipment_article', 'volume', 'weight', 'amount', 'to_ru_delivery_price'],
    success: ORDER_MESSAGES.sentToRu,
  },
  {
    from: ['sent_to_ru'],
    to: 'sent_to_door',
    who: 'any',
    via: 'client_order_update',
    fields: [
      'send_date',
      'to_ru_delivery_date',
      'weight',
      'volume',
      'density',
      'amount',
      'transport_company_rus_order_number',
      'to_door_delivery_date',
    ],
    // spec §5: all but the to-door date; density is derived from weight and volume when not given
    required: [
      'send_date',
      'to_ru_delivery_date',
      'weight',
      'volume',
      'amount',
      'transport_company_rus_order_number',
    ],
    success: ORDER_MESSAGES.sentToDoor,
  },
  {
    from: ['sent_to_door', 'sent_to_ru'],
    to: 'client_received',
    who: 'any',
    via: 'client_order_update',
    fields: ['to_door_delivery_date'],
    required: [],
    success: ORDER_MESSAGES.clientReceived,
  },
  {
    from: ['client_received'],
    to: 'client_confirmed',
    who: 'any',
    via: 'client_order_update',
    fields: [],
    required: [],
    success: ORDER_MESSAGES.clientConfirmed,
  },
];

type Roles = Pick<Identity, 'roles'>;
const mayAct = (who: Who, identity: Roles) => who === 'any' || hasRole(identity, 'admin', 'operator');

/** The move of an order from one stage to another by this call, or why it is refused. */
export function orderTransition(
  order: { stage: OrderStage; delivery_type: DeliveryType },
  to: OrderStage,
  via: OrderTransition['via'],
  identity: Roles,
): { ok: true; transition: OrderTransition } | { ok: false; message: string } {
  const transition = ORDER_TRANSITIONS.find((t) => t.to === to && t.from.includes(order.stage));
  if (!transition) return { ok: false, message: ORDER_MESSAGES.orderStage(order.stage, to) };
  if (transition.via !== via) return { ok: false, message: ORDER_MESSAGES.orderStageBy(to) };
  if (!mayAct(transition.who, identity)) return { ok: false, message: MESSAGES.staffOnly };
  if (to === 'client_received' && order.stage === 'sent_to_ru' && order.delivery_type !== 'to_ru')
    return { ok: false, message: ORDER_MESSAGES.deliveryToRuOnly };
  return { ok: true, transition };
}

/** The moves an order offers this user now (the stage buttons of the order card), as orderTransition allows them. */
export function orderTransitionsFor(
  order: { stage: OrderStage; delivery_type: DeliveryType },
  identity: Roles,
): OrderTransition[] {
  return ORDER_TRANSITIONS.filter(
    (t) => t.from.includes(order.stage) && orderTransition(order, t.to, t.via, identity).ok,
  );
}

/**
 * What a client may write in a draft order of theirs: the new-order dialog's choices. The client is
 * chosen when the order is created and never changes afterwards (ORDER_OWNER_FIXED_FIELDS).
 */
export const ORDER_CLIENT_DRAFT_FIELDS: readonly string[] = [
  'title',
  'client_id',
  'operator_id',
  'consolidation_warehouse_id',
  'to_warehouse_id',
  'logistic_route_id',
  'buyout_type',
  'package_id',
  'delivery_type',
  'delivery_data',
  'transport_company_rus',
  'options',
  'description',
  'comment',
  'product_payment_state',
  'delivery_payment_state',
];

/** Who may change a field of a formed order, and up to which stage (inclusive). */
export type OrderLaterRule = { who: 'any' | 'staff'; until: OrderStage };
const anyUntil = (until: OrderStage): OrderLaterRule => ({ who: 'any', until });
const staffUntil = (until: OrderStage): OrderLaterRule => ({ who: 'staff', until });

/**
 * THE list of what may change once an order is formed (docs/access.md 'Order fields by stage and
 * role'): where the goods go and which carrier takes them until the order leaves for Russia; how the
 * client pays until the goods are received; the shipment's facts by staff until the goods are
 * received; notes, warnings and the number by staff until the order is confirmed. Everything else,
 * and everything of a confirmed order, is the admin's. The order card greys out and the service
 * refuses by this list (orderEditableFields).
 */
export const ORDER_LATER_FIELDS: Readonly<Record<string, OrderLaterRule>> = {
  delivery_data: anyUntil('sent_to_ru'),
  transport_company_rus: anyUntil('sent_to_ru'),
  product_payment_state: anyUntil('client_received'),
  delivery_payment_state: anyUntil('client_received'),
  amount: staffUntil('client_received'),
  weight: staffUntil('client_received'),
  volume: staffUntil('client_received'),
  density: staffUntil('client_received'),
  shipment_article: staffUntil('client_received'),
  transport_company_rus_order_number: staffUntil('client_received'),
  transport_company_rus_order_uuid: staffUntil('client_received'),
  transport_company_rus_delivery_state: staffUntil('client_received'),
  send_date: staffUntil('client_received'),
  to_ru_delivery_date: staffUntil('client_received'),
  to_door_delivery_date: staffUntil('client_received'),
  customs_passed: staffUntil('client_received'),
  to_door_delivery_price_rur: staffUntil('client_received'),
  order_number: staffUntil('client_confirmed'),
  warning_arr: staffUntil('client_confirmed'),
  comment: staffUntil('client_confirmed'),
};
const stageRank = (stage: OrderStage) => ORDER_STAGES.indexOf(stage);

/** The fields of a formed order this user may still change at this stage (ORDER_LATER_FIELDS). */
export function orderLaterFields(stage: OrderStage, identity: Roles): string[] {
  const staff = hasRole(identity, 'admin', 'operator');
  return Object.entries(ORDER_LATER_FIELDS)
    .filter(([, rule]) => (staff || rule.who === 'any') && stageRank(stage) <= stageRank(rule.until))
    .map(([field]) => field);
}
/** @deprecated the stage decides: orderLaterFields. What a client may change of a just-formed order. */
export const ORDER_CLIENT_LATER_FIELDS: readonly string[] = orderLaterFields('created', {
  roles: ['client'],
});
/** @deprecated the stage decides: orderLaterFields. What staff may change of a just-formed order. */
export const ORDER_STAFF_LATER_FIELDS: readonly string[] = orderLaterFields('created', {
  roles: ['operator'],
});

/** Why these fields of a formed order are refused to a non-admin: who may still change them at this stage. */
export function orderFieldsLockedMessage(
  fields: readonly string[],
  stage: OrderStage,
  labels: Readonly<Record<string, string>>,
): string {
  const staffFields = orderLaterFields(stage, { roles: ['operator'] });
  const byStaff = fields.every((f) => staffFields.includes(f));
  return ORDER_MESSAGES.fieldsLocked(
    fields.map((f) => labels[f] ?? f),
    stage,
    byStaff,
  );
}

/**
 * The order's owners: its client is chosen when it is created and never changes (another client gets
 * a new order; positions go there by the move); its operator changes in draft only
 * (docs/access.md).
 */
export const ORDER_OWNER_FIXED_FIELDS: readonly string[] = ['client_id'];

/** Prices the service derives; an admin sets them only through the price adjustment. */
export const ORDER_DERIVED_FIELDS = [
  'buyout_price_rur',
  'to_ru_delivery_price_rur',
  'package_price_rur',
  'logistic_route_price_usd',
  'total_price_rur',
] as const;
/** Paid amounts: only svc-payments' recorded payments set them (docs/adr/0012-payments.md). */
export const ORDER_PAID_FIELDS: readonly string[] = ['product_paid_rur', 'delivery_paid_rur'];

/**
 * The order fields this user may change at this stage (null: every field): the item page greys out
 * the rest, the service refuses them. Admins change everything; staff everything in draft and
 * ORDER_LATER_FIELDS afterwards; clients their draft choices, later what ORDER_LATER_FIELDS gives them.
 * Whatever it says, an existing order's client never changes (ORDER_OWNER_FIXED_FIELDS).
 */
export function orderEditableFields(stage: OrderStage, identity: Roles): readonly string[] | null {
  if (hasRole(identity, 'admin')) return null;
  const draft = stage === 'draft';
  if (hasRole(identity, 'operator')) return draft ? null : orderLaterFields(stage, identity);
  return draft ? ORDER_CLIENT_DRAFT_FIELDS : orderLaterFields(stage, identity);
}

// ─── positions ────────────────────────────────────────────────────────────────────────────────────

/** Spec §5: position data (title, …, volume) is editable in draft, or by staff (operator, admin). */
export const positionDataEditable = (orderStage: string, identity: Roles) =>
  orderStage === 'draft' || hasRole(identity, 'admin', 'operator');
/** Spec §5: the consolidation delivery of a position is the staff's; its date only in warehouse_waiting. */
export const POSITION_STAFF_FIELDS: readonly string[] = [
  'to_consolidation_warehouse_delivery_date',
  'to_consolidation_warehouse_delivery_price_cny',
];
/** Spec §9: stages of orders that may take part in a consolidation or a move. */
export const MOVABLE_ORDER_STAGES: readonly OrderStage[] = [
  'draft',
  'created',
  'buyout_waiting',
  'buyout_done',
  'warehouse_waiting',
  'warehouse_received',
];
/** The stages of orders this user may move positions between: staff the spec's, a client draft only. */
export const movableOrderStagesFor = (identity: Roles): readonly OrderStage[] =>
  hasRole(identity, 'admin', 'operator') ? MOVABLE_ORDER_STAGES : ['draft'];

/** The actions a position offers staff at its stage (the buttons of the position screen and table). */
export function positionActionsFor(
  position: Pick<PositionFacts, 'stage' | 'buyout_state'>,
): PositionAction[] {
  const { stage, buyout_state } = position;
  const actions: PositionAction[] = [];
  if (stage === 'verification') actions.push('verification_done');
  if (
    ['created', 'buyout_waiting', 'buyout_done'].includes(stage) &&
    ['not_done', 'done_part'].includes(buyout_state)
  )
    actions.push('buyout_done', 'buyout_done_part');
  if (stage === 'buyout_done' || (buyout_state === 'self' && ['created', 'buyout_waiting'].includes(stage)))
    actions.push('warehouse_waiting');
  if (stage === 'warehouse_waiting') actions.push('warehouse_received');
  return actions;
}

/** The stages an order takes from its positions, in order: it moves on when every live position is there. */
const FOLLOWS_POSITIONS: readonly OrderStage[] = ['buyout_done', 'warehouse_waiting', 'warehouse_received'];

/** The stage an order reaches from its positions' stages, or null when it stays where it is. */
export function orderStageFromPositions(
  stage: OrderStage,
  positionStages: readonly PositionStage[],
): OrderStage | null {
  if (!positionStages.length || !['created', 'buyout_waiting', ...FOLLOWS_POSITIONS].includes(stage))
    return null;
  const rank = (s: string) => POSITION_STAGES.indexOf(s as PositionStage);
  const lowest = positionStages.reduce((a, b) => (rank(a) <= rank(b) ? a : b));
  const reached = [...FOLLOWS_POSITIONS].reverse().find((s) => rank(lowest) >= rank(s));
  if (!reached || ORDER_STAGES.indexOf(reached) <= ORDER_STAGES.indexOf(stage)) return null;
  return reached;
}

export const POSITION_ACTIONS = [
  'verification_done',
  'checked',
  'buyout_done',
  'buyout_done_part',
  'warehouse_waiting',
  'warehouse_received',
] as const;
export type PositionAction = (typeof POSITION_ACTIONS)[number];
export const POSITION_ACTION_LABELS: Record<PositionAction, string> = {
  verification_done: 'проверено',
  checked: 'проверено',
  buyout_done: 'выкуплено',
  buyout_done_part: 'частично',
  warehouse_waiting: 'отправлено на склад консолидации',
  warehouse_received: 'получено на складе консолидации',
};

/** What a position action reads of the position. */
export type PositionFacts = {
  title: string;
  stage: PositionStage;
  buyout_state: BuyoutState;
  price_cny: string | null;
  amount: string | null;
  type_id: number | null;
  waybill: string;
  link: string;
  files: readonly { deleted?: boolean }[];
  product_images: readonly { deleted?: boolean }[];
};

/** A waybill is given: not empty and not 'none' (the spec's value for no waybill). */
export const hasWaybill = (waybill: string | null | undefined) =>
  Boolean(waybill?.trim()) && waybill!.trim().toLowerCase() !== 'none';
const hasLive = (list: readonly { deleted?: boolean }[] | null | undefined) =>
  (list ?? []).some((f) => !f.deleted);
const filled = (v: string | null | undefined) => v !== null && v !== undefined && v !== '' && Number(v) > 0;

/** A shipment record of consolidation_receive_table as the receive dialog gives it. */
export type ReceiveRecord = {
  date?: string | null;
  amount?: number | null;
  transporter?: string;
  cost?: string | null;
  comment?: string;
};

export type PositionMove = { stage: PositionStage; buyout_state?: BuyoutState };

/**
 * The position's stage machine (spec §4, ours where the spec is silent; docs/adr/0008-orders.md):
 * where an action takes the position, or the refusal in the spec's words. Only staff act on positions.
 */
export function positionAction(
  position: PositionFacts,
  action: PositionAction,
  routeTypeIds: readonly number[],
  input: { receive_date?: string | null; receive_record?: ReceiveRecord | null } = {},
): { ok: true; move: PositionMove } | { ok: false; message: string } {
  const refuse = (message: string) => ({ ok: false as const, message });
  const { stage, buyout_state } = position;
  switch (action) {
    case 'verification_done':
    case 'checked': {
      if (stage !== 'verification') return refuse(ORDER_MESSAGES.positionAction(action, stage));
      const problem = checkedProblems(position, routeTypeIds)[0];
      return problem ? refuse(problem) : { ok: true, move: { stage: 'created' } };
    }
    case 'buyout_done':
    case 'buyout_done_part': {
      if (!['created', 'buyout_waiting', 'buyout_done'].includes(stage))
        return refuse(ORDER_MESSAGES.positionAction(action, stage));
      if (buyout_state !== 'not_done' && buyout_state !== 'done_part')
        return refuse(ORDER_MESSAGES.positionBoughtOut);
      return {
        ok: true,
        move: { stage: 'buyout_done', buyout_state: action === 'buyout_done' ? 'done' : 'done_part' },
      };
    }
    case 'warehouse_waiting': {
      const selfBought = buyout_state === 'self' && ['created', 'buyout_waiting'].includes(stage);
      if (stage !== 'buyout_done' && !selfBought) return refuse(ORDER_MESSAGES.positionAction(action, stage));
      if (!hasWaybill(position.waybill)) return refuse(ORDER_MESSAGES.needWaybill);
      if (!input.receive_date) return refuse(ORDER_MESSAGES.noDate);
      return { ok: true, move: { stage: 'warehouse_waiting' } };
    }
    case 'warehouse_received': {
      if (stage !== 'warehouse_waiting') return refuse(ORDER_MESSAGES.positionAction(action, stage));
      const problem = receiveRecordProblem(input.receive_record);
      return problem ? refuse(problem) : { ok: true, move: { stage: 'warehouse_received' } };
    }
  }
}

/** Spec §5: 'checked' needs price, amount and a product type among the route's types. */
export function checkedProblems(
  position: Pick<PositionFacts, 'price_cny' | 'amount' | 'type_id'>,
  routeTypeIds: readonly number[],
): string[] {
  const problems: string[] = [];
  if (!filled(position.amount)) problems.push(ORDER_MESSAGES.noAmount);
  if (!filled(position.price_cny)) problems.push(ORDER_MESSAGES.noPrice);
  if (position.type_id === null || !routeTypeIds.includes(position.type_id))
    problems.push(ORDER_MESSAGES.typeOutsideRoute);
  return problems;
}

/** Spec §5: a consolidation receipt needs a box count and a date. */
export function receiveRecordProblem(record: ReceiveRecord | null | undefined): string | null {
  if (!record?.amount || record.amount <= 0) return ORDER_MESSAGES.noBoxCount;
  if (!record.date) return ORDER_MESSAGES.noDate;
  return null;
}

/** The table with the record appended under id = max id + 1 (or 1). */
export function appendReceiveRecord<R extends { id: number }>(
  table: readonly R[],
  record: Omit<R, 'id'>,
): R[] {
  const id = table.reduce((max, r) => Math.max(max, r.id), 0) + 1;
  return [...table, { ...record, id } as R];
}

/**
 * Spec §5 order-created checks: the route; self buyout needs a waybill and a type on every position,
 * operator buyout a link and a screenshot or file; one product type, and one the route carries.
 */
export function orderCreatedProblems(
  order: { buyout_type: BuyoutType; logistic_route_id: number | null },
  positions: readonly PositionFacts[],
  routeTypeIds: readonly number[],
): string[] {
  if (!order.logistic_route_id) return [ORDER_MESSAGES.noRoute];
  if (!positions.length) return [ORDER_MESSAGES.noPositions];
  const problems: string[] = [];
  const count = (test: (p: PositionFacts) => boolean) => positions.filter(test).length;
  if (order.buyout_type === 'self') {
    const noWaybill = count((p) => !hasWaybill(p.waybill));
    const noType = count((p) => p.type_id === null);
    if (noWaybill) problems.push(ORDER_MESSAGES.withoutWaybill(noWaybill));
    if (noType) problems.push(ORDER_MESSAGES.withoutType(noType));
    if (problems.length) problems.push(ORDER_MESSAGES.selfBuyoutWarning);
  } else {
    const noLink = count((p) => !p.link.trim());
    const noScreenshot = count((p) => !hasLive(p.product_images) && !hasLive(p.files));
    if (noLink) problems.push(ORDER_MESSAGES.withoutLink(noLink));
    if (noScreenshot) problems.push(ORDER_MESSAGES.withoutScreenshot(noScreenshot));
  }
  const types = [...new Set(positions.map((p) => p.type_id).filter((t): t is number => t !== null))];
  if (types.length > 1) problems.push(ORDER_MESSAGES.mixedTypes);
  if (types.some((t) => !routeTypeIds.includes(t))) problems.push(ORDER_MESSAGES.typesOutsideRoute);
  return problems;
}

/** Spec §5 'waiting for payment': positions exist, each with a price or an amount. */
export function buyoutWaitingProblems(
  positions: readonly Pick<PositionFacts, 'price_cny' | 'amount' | 'stage'>[],
) {
  if (!positions.length) return [ORDER_MESSAGES.noPositions];
  const missing = positions.filter((p) => !filled(p.price_cny) && !filled(p.amount)).length;
  // ours: the client is asked to pay only for checked positions
  const unchecked = positions.filter((p) => p.stage === 'verification').length;
  return [
    ...(missing ? [ORDER_MESSAGES.priceOrAmountMissing(missing)] : []),
    ...(unchecked ? [ORDER_MESSAGES.positionsUnchecked(unchecked)] : []),
  ];
}

/** Spec §5 bulk warehouse_waiting: every affected position needs a waybill. */
export function waybillsMissingProblem(positions: readonly Pick<PositionFacts, 'waybill'>[]): string | null {
  const n = positions.filter((p) => !hasWaybill(p.waybill)).length;
  return n ? ORDER_MESSAGES.waybillsMissing(n) : null;
}

export const POSITION_WARNINGS = {
  noPhoto: specMessage('не прикреплено фото / файл'),
  noLink: specMessage('не указана ссылка / wechat продавца'),
  noWaybill: specMessage('не указан waybill'),
  noType: specMessage('не указан тип товара'),
  needsCheck: specMessage('необходима проверка'),
} as const;

/** Spec §5 position warning icon: the tooltip's reasons, none when there is nothing to warn about. */
export function positionWarnings(position: PositionFacts, buyoutType: BuyoutType, identity: Roles): string[] {
  const reasons: string[] = [];
  if (buyoutType === 'operator') {
    if (!hasLive(position.product_images) && !hasLive(position.files))
      reasons.push(POSITION_WARNINGS.noPhoto);
    if (!position.link.trim()) reasons.push(POSITION_WARNINGS.noLink);
  } else {
    if (!hasWaybill(position.waybill)) reasons.push(POSITION_WARNINGS.noWaybill);
    if (position.type_id === null) reasons.push(POSITION_WARNINGS.noType);
  }
  if (
    position.stage === 'verification' &&
    hasRole(identity, 'admin', 'operator') &&
    (!filled(position.price_cny) || !filled(position.amount))
  )
    reasons.push(POSITION_WARNINGS.needsCheck);
  return reasons;
}
