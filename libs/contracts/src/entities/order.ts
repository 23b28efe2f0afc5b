import { z } from 'zod';
import { PhotoReview } from '../photoReview';
import { DeliveryData } from './client';
import {
  Attachments,
  defineEntityContract,
  Id,
  IsoDate,
  Money,
  NonNegative,
  NonNegativeMoney,
  OptionalId,
  Percent,
  Text,
  type BaseRow,
} from './common';
import {
  BUYOUT_STATES,
  BUYOUT_TYPES,
  DELIVERY_PAYMENT_STATES,
  DELIVERY_TYPES,
  EXTRA_SERVICE_KINDS,
  ORDER_STAGES,
  ORDER_STATES,
  POSITION_ACTIONS,
  POSITION_STAGES,
  PRODUCT_PAYMENT_STATES,
} from './orderStages';
import { TRANSPORT_COMPANIES } from './transport';

const optionalMoney = Money.nullable().default(null);
const optionalDate = IsoDate.nullable().default(null);
const Weight = NonNegative(3).nullable().default(null);
const Volume = NonNegative(4).nullable().default(null);

/** A warning the system or staff left on an order (spec §3 Warning). */
export const OrderWarning = z.strictObject({
  datetime: z.string().max(40),
  category_ru: Text(200),
  type_ru: Text(200),
  message: Text(2000),
});
export type OrderWarning = z.infer<typeof OrderWarning>;
export const ORDER_WARNING_LABELS: Record<keyof OrderWarning, string> = {
  datetime: 'время',
  category_ru: 'категория',
  type_ru: 'тип',
  message: 'сообщение',
};

export const ExtraServiceItem = z.strictObject({ type: z.enum(EXTRA_SERVICE_KINDS), amount: Money });
export const EXTRA_SERVICE_ITEM_LABELS = { type: 'тип', amount: 'сумма' } as const;

/** options.price_info of an order (spec §3): the rates prices were grossed up with and manual adjustments. */
export const PriceInfo = z.strictObject({
  nds_rate: Percent.nullable().default(null),
  tax_rate: Percent.nullable().default(null),
  cdek_commission: Percent.nullable().default(null),
  manually_adjusted: z.boolean().default(false),
  adjusted_by: z.number().int().nullable().default(null),
  adjusted_at: z.string().max(40).nullable().default(null),
  price_breakdown: z.record(z.string().max(60), Money).default({}),
});
export type PriceInfo = z.infer<typeof PriceInfo>;

export const OrderOptions = z.strictObject({
  receiver_str: Text(500),
  price_info: PriceInfo.optional(),
});

export const client_order_labels = {
  title: 'название',
  client_id: 'клиент',
  client_title: 'клиент',
  operator_id: 'оператор',
  operator_title: 'оператор',
  order_number: 'номер заказа',
  stage: 'этап',
  state: 'состояние',
  consolidation_warehouse_id: 'склад консолидации',
  consolidation_warehouse_title: 'склад консолидации',
  to_warehouse_id: 'склад прибытия',
  to_warehouse_title: 'склад прибытия',
  logistic_route_id: 'тариф',
  logistic_route_title: 'тариф',
  buyout_type: 'тип выкупа',
  package_id: 'упаковка',
  package_title: 'упаковка',
  delivery_type: 'тип доставки',
  delivery_data: 'данные доставки',
  transport_company_rus: 'перевозчик по РФ',
  transport_company_rus_order_number: 'номер накладной перевозчика',
  transport_company_rus_order_uuid: 'uuid заказа перевозчика',
  transport_company_rus_delivery_state: 'статус перевозчика',
  shipment_article: 'артикул отправки',
  options: 'параметры',
  send_date: 'дата отправки',
  to_ru_delivery_date: 'дата доставки в РФ',
  to_door_delivery_date: 'дата доставки до двери',
  customs_passed: 'таможня пройдена',
  description: 'описание',
  weight: 'вес, кг',
  volume: 'объём, м³',
  density: 'плотность, кг/м³',
  amount: 'кол-во мест',
  buyout_price_rur: 'выкуп товара, ₽',
  logistic_route_price_usd: 'цена тарифа, $',
  package_price_rur: 'упаковка, ₽',
  to_ru_delivery_price: 'доставка в РФ',
  to_ru_delivery_currency_id: 'валюта доставки в РФ',
  to_ru_delivery_price_rur: 'доставка в РФ, ₽',
  to_door_delivery_price_rur: 'доставка по РФ, ₽',
  total_price_rur: 'итого, ₽',
  product_paid_rur: 'оплачено за товар, ₽',
  delivery_paid_rur: 'оплачено за доставку, ₽',
  product_payment_state: 'оплата товара',
  delivery_payment_state: 'оплата доставки',
  cdek_commission: 'комиссия перевозчика, %',
  extra_service: 'доп. услуги',
  comment: 'комментарий',
  rate_id: 'курс',
  parent_order_id: 'родительский заказ',
  parent_order_title: 'родительский заказ',
  children: 'дочерние заказы',
  warning_arr: 'предупреждения',
  version: 'версия',
  rate_cny: 'курс юаня, ₽',
  buyout_commission: 'комиссия за выкуп, %',
} as const;

export const clientOrder = defineEntityContract({
  name: 'client_order',
  title: 'заказы',
  fields: z.strictObject({
    title: Text(200),
    client_id: Id,
    operator_id: Id,
    order_number: Text(500),
    stage: z.enum(ORDER_STAGES).default('draft'),
    state: z.enum(ORDER_STATES).default('active'),
    consolidation_warehouse_id: OptionalId,
    to_warehouse_id: OptionalId,
    logistic_route_id: Id,
    buyout_type: z.enum(BUYOUT_TYPES).default('operator'),
    package_id: OptionalId,
    delivery_type: z.enum(DELIVERY_TYPES).default('to_door'),
    delivery_data: DeliveryData.nullable().default(null),
    transport_company_rus: z.enum(TRANSPORT_COMPANIES).nullable().default(null),
    // spec §3: spaces stripped on save
    transport_company_rus_order_number: z
      .string()
      .max(100)
      .transform((v) => v.replace(/\s+/g, ''))
      .default(''),
    transport_company_rus_order_uuid: Text(100),
    transport_company_rus_delivery_state: Text(100),
    shipment_article: Text(200),
    options: OrderOptions.default({ receiver_str: '' }),
    send_date: optionalDate,
    to_ru_delivery_date: optionalDate,
    to_door_delivery_date: optionalDate,
    customs_passed: z.boolean().default(false),
    description: Text(),
    weight: Weight,
    volume: Volume,
    density: NonNegative(2).nullable().default(null),
    amount: z.number().int().min(0).max(100000).nullable().default(null),
    buyout_price_rur: optionalMoney,
    logistic_route_price_usd: optionalMoney,
    package_price_rur: optionalMoney,
    to_ru_delivery_price: optionalMoney,
    to_ru_delivery_currency_id: OptionalId,
    to_ru_delivery_price_rur: optionalMoney,
    to_door_delivery_price_rur: optionalMoney,
    total_price_rur: optionalMoney,
    product_paid_rur: optionalMoney,
    delivery_paid_rur: optionalMoney,
    product_payment_state: z.enum(PRODUCT_PAYMENT_STATES).default('not_paid'),
    delivery_payment_state: z.enum(DELIVERY_PAYMENT_STATES).default('not_paid'),
    cdek_commission: Percent.nullable().default(null),
    extra_service: z.array(ExtraServiceItem).max(50).default([]),
    comment: Text(),
    rate_id: OptionalId,
    parent_order_id: OptionalId,
    warning_arr: z.array(OrderWarning).max(500).default([]),
    /**
     * The row's version (migration 030): every write of the order raises it. A write may carry the
     * version it was based on; a stale one is refused (two staff pressing 'отправлен в РФ' at once).
     */
    version: z.number().int().min(0).default(0),
  }),
  labels: client_order_labels,
  itemLabels: {
    warning_arr: ORDER_WARNING_LABELS,
    extra_service: EXTRA_SERVICE_ITEM_LABELS,
  },
  // spec §5: order required fields
  required: ['client_id', 'operator_id', 'buyout_type', 'delivery_type', 'logistic_route_id'],
  searchFields: ['title', 'order_number', 'transport_company_rus_order_number', 'shipment_article'],
  refs: {
    client_id: 'client',
    operator_id: 'operator',
    consolidation_warehouse_id: 'warehouse_point',
    to_warehouse_id: 'warehouse_point',
    logistic_route_id: 'logistic_route',
    package_id: 'extra_service',
    to_ru_delivery_currency_id: 'currency',
    rate_id: 'exchange_rate',
    parent_order_id: 'client_order',
  },
  ownership: { client: 'client_id', operator: 'operator_id' },
});
export type ClientOrder = BaseRow &
  z.infer<typeof clientOrder.fields> & {
    client_title: string | null;
    operator_title: string | null;
    children: {
      id: number;
      title: string;
      weight: string | null;
      transport_company_rus_order_number: string;
    }[];
  };

/** A shipment record of the consolidation warehouse (spec §3 consolidation_receive_table). */
export const ReceiveRow = z.strictObject({
  id: z.number().int().positive(),
  transporter: Text(200),
  date: IsoDate,
  amount: z.number().int().min(1).max(100000),
  cost: Money.nullable().default(null),
  comment: Text(),
});
export type ReceiveRow = z.infer<typeof ReceiveRow>;
export const RECEIVE_ROW_LABELS: Record<keyof ReceiveRow, string> = {
  id: '№',
  transporter: 'перевозчик',
  date: 'дата',
  amount: 'кол-во коробок',
  cost: 'стоимость',
  comment: 'комментарий',
};

export const UNCONFIRMED_KINDS = ['weight', 'volume'] as const;
export const PositionOptions = z.strictObject({
  unconfirmed_data: z.array(z.enum(UNCONFIRMED_KINDS)).max(2).default([]),
  cnt_data: z
    .strictObject({ number: Text(100), updated_at: z.string().max(40).nullable().default(null) })
    .optional(),
  ozonData: z
    .strictObject({
      // Ozon's SKU is a number (vendor-apis §5); a digits-only text from older data is read as one
      sku: z.union([
        z.number().int().nonnegative(),
        z
          .string()
          .regex(/^\d{1,15}$/)
          .transform(Number),
      ]),
      offer_id: Text(100),
      quantity: z.number().int().min(0).default(0),
    })
    // null: the product was unlinked
    .nullable()
    .optional(),
  /** The client's answer to the warehouse photos (photoReview.ts), written by its own call only. */
  photo_review: PhotoReview.nullable().optional(),
});

export const client_order_position_labels = {
  client_order_id: 'заказ',
  client_order_title: 'заказ',
  client_id: 'клиент',
  client_title: 'клиент',
  operator_id: 'оператор',
  title: 'название',
  title_original: 'оригинальное название',
  title_ru: 'название на русском',
  link: 'ссылка / wechat продавца',
  waybill: 'waybill',
  type_id: 'тип товара',
  type_title: 'тип товара',
  stage: 'этап',
  buyout_state: 'выкуп',
  price_cny: 'цена, ¥',
  amount: 'кол-во',
  weight: 'вес, кг',
  volume: 'объём, м³',
  product_images: 'фото товара',
  warehouse_images: 'фото со склада',
  files: 'файлы',
  source_id: 'источник',
  provider_id: 'поставщик',
  provider_title: 'поставщик',
  consolidation_receive_table: 'поступления на склад консолидации',
  to_consolidation_warehouse_delivery_date: 'дата доставки на склад консолидации',
  to_consolidation_warehouse_delivery_price_cny: 'доставка до склада консолидации, ¥',
  to_ru_delivery_price_cny: 'доставка в РФ, ¥',
  to_door_delivery_price_rur: 'доставка по РФ, ₽',
  buyout_price_rur: 'цена выкупа, ₽',
  sell_price_no_nds_rur: 'цена продажи без НДС, ₽',
  sell_price_nds_rur: 'цена продажи с НДС, ₽',
  transport_company_rus_insurance: 'страховка',
  warehouse_cnt_data: 'данные отслеживания',
  is_waybill_tracking: 'отслеживание waybill',
  options: 'параметры',
} as const;

/**
 * A position search that looks like a whole tracking number (8 or more letters, digits and dashes, a digit among
 * them) first finds the positions with exactly that waybill; only when none has it, it searches by substring.
 */
export const WHOLE_WAYBILL_SEARCH = /^(?=[^\d]*\d)[0-9A-Za-z-]{8,}$/;

export const clientOrderPosition = defineEntityContract({
  name: 'client_order_position',
  title: 'позиции в заказах',
  fields: z.strictObject({
    client_order_id: Id,
    title: z.string().trim().min(1).max(500),
    title_original: Text(500),
    title_ru: Text(500),
    link: Text(2000),
    waybill: Text(100),
    type_id: OptionalId,
    stage: z.enum(POSITION_STAGES).default('draft'),
    buyout_state: z.enum(BUYOUT_STATES).default('not_done'),
    price_cny: NonNegativeMoney().nullable().default(null),
    amount: NonNegativeMoney().nullable().default(null),
    weight: Weight,
    volume: Volume,
    product_images: Attachments,
    warehouse_images: Attachments,
    files: Attachments,
    source_id: OptionalId,
    provider_id: OptionalId,
    consolidation_receive_table: z.array(ReceiveRow).max(500).default([]),
    to_consolidation_warehouse_delivery_date: optionalDate,
    to_consolidation_warehouse_delivery_price_cny: optionalMoney,
    buyout_price_rur: optionalMoney,
    sell_price_no_nds_rur: optionalMoney,
    sell_price_nds_rur: optionalMoney,
    transport_company_rus_insurance: z.boolean().default(false),
    warehouse_cnt_data: z.record(z.string(), z.unknown()).nullable().default(null),
    is_waybill_tracking: z.boolean().default(false),
    options: PositionOptions.default({ unconfirmed_data: [] }),
  }),
  labels: client_order_position_labels,
  itemLabels: { consolidation_receive_table: RECEIVE_ROW_LABELS },
  // spec §5: a position needs a title; ours: and the order it belongs to
  required: ['client_order_id', 'title'],
  searchFields: ['title', 'title_original', 'title_ru', 'waybill'],
  refs: {
    client_order_id: 'client_order',
    type_id: 'logistic_product_type',
    provider_id: 'provider',
  },
});
/** Estimates the service computes (spec §3: read-only). */
export const POSITION_ESTIMATES = ['to_ru_delivery_price_cny', 'to_door_delivery_price_rur'] as const;
export type ClientOrderPosition = BaseRow &
  z.infer<typeof clientOrderPosition.fields> & {
    to_ru_delivery_price_cny: string | null;
    to_door_delivery_price_rur: string | null;
    client_order_title: string | null;
    client_id: number;
    operator_id: number;
  };

/** The receive dialog's shipment record as sent (spec §4): checked by the action, then stored as a ReceiveRow. */
export const ReceiveRecordInput = z.strictObject({
  date: IsoDate.nullable().optional(),
  // a count below 1 is refused with 'не указано кол-во коробок'
  amount: z.number().int().max(100000).nullable().optional(),
  transporter: Text(200),
  cost: Money.nullable().default(null),
  comment: Text(),
});
export type ReceiveRecordInput = z.infer<typeof ReceiveRecordInput>;

/** client_order_position_action (spec §7): id, action, receive_date; the receive dialog's record. */
export const PositionActionParams = z.strictObject({
  id: Id,
  action: z.enum(POSITION_ACTIONS),
  receive_date: IsoDate.nullable().optional(),
  receive_record: ReceiveRecordInput.nullable().optional(),
});
export type PositionActionParams = z.infer<typeof PositionActionParams>;
export const POSITION_ACTION_PARAM_LABELS = {
  labels: {
    id: 'позиция',
    action: 'действие',
    receive_date: 'дата доставки на склад консолидации',
    receive_record: 'поступление',
  },
  itemLabels: { receive_record: RECEIVE_ROW_LABELS },
} as const;

/** client_order_created (spec §7): the order, the delivery choice and the payment choices; is_working is informative. */
export const OrderCreatedParams = z.strictObject({
  id: Id,
  delivery_data: DeliveryData.nullable().optional(),
  transport_company_rus: z.enum(TRANSPORT_COMPANIES).nullable().optional(),
  product_payment_state: z.enum(PRODUCT_PAYMENT_STATES).optional(),
  delivery_payment_state: z.enum(DELIVERY_PAYMENT_STATES).optional(),
  is_working: z.boolean().optional(),
});
export type OrderCreatedParams = z.infer<typeof OrderCreatedParams>;
