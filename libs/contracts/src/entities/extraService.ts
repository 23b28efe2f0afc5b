import { z } from 'zod';
import { dec, decCmp } from '../decimal';
import { CURRENCY } from './currency';
import { defineEntityContract, Id, NonNegativeMoney, OptionalId, Text, type BaseRow } from './common';
import { TRANSPORT_COMPANIES } from './transport';

/** Spec §9: transfer (delivery from the arrival warehouse to the door) and package. */
export const EXTRA_SERVICE_TYPES = ['transfer', 'package'] as const;
export type ExtraServiceType = (typeof EXTRA_SERVICE_TYPES)[number];
export const EXTRA_SERVICE_TYPE_LABELS: Record<ExtraServiceType, string> = {
  transfer: 'доставка по РФ',
  package: 'упаковка',
};

export const SERVICE_UNITS = ['kg', 'm3', 'place', 'order', 'piece'] as const;
export const SERVICE_UNIT_LABELS: Record<(typeof SERVICE_UNITS)[number], string> = {
  kg: 'кг',
  m3: 'м³',
  place: 'место',
  order: 'заказ',
  piece: 'шт.',
};

/** The language the warehouse staff process the service in. */
export const PROCESS_LANGS = ['ru', 'cn', 'en'] as const;
export const PROCESS_LANG_LABELS: Record<(typeof PROCESS_LANGS)[number], string> = {
  ru: 'русский',
  cn: 'китайский',
  en: 'английский',
};

export const EXTRA_SERVICE_MESSAGES = {
  clientRange: 'цена для клиента «до» не может быть меньше цены «от»',
  costRange: 'себестоимость «до» не может быть меньше себестоимости «от»',
  packageNeeds: 'для услуги упаковки укажите упаковку',
  transferNeeds: 'для доставки по РФ укажите склад прибытия',
} as const;

export const extraService = defineEntityContract({
  name: 'extra_service',
  title: 'доп. услуги',
  fields: z.strictObject({
    title: z.string().trim().min(1).max(200),
    type: z.enum(EXTRA_SERVICE_TYPES),
    operator_id: Id,
    warehouse_point_id: OptionalId,
    package_description_id: OptionalId,
    transport_company: z.enum(TRANSPORT_COMPANIES).nullable().default(null),
    unit: z.enum(SERVICE_UNITS).default('kg'),
    process_lang: z.enum(PROCESS_LANGS).default('ru'),
    client_price_currency_id: Id.default(CURRENCY.RUB),
    client_price_fix: z.boolean().default(false),
    client_price_from: NonNegativeMoney().default('0'),
    client_price_to: NonNegativeMoney().nullable().default(null),
    cost_price_currency_id: Id.default(CURRENCY.RUB),
    cost_price_from: NonNegativeMoney().default('0'),
    cost_price_to: NonNegativeMoney().nullable().default(null),
    comment: Text(),
  }),
  labels: {
    title: 'название',
    type: 'тип',
    operator_id: 'оператор',
    operator_title: 'оператор',
    warehouse_point_id: 'склад',
    warehouse_point_title: 'склад',
    package_description_id: 'упаковка',
    package_description_title: 'упаковка',
    transport_company: 'перевозчик',
    unit: 'единица',
    process_lang: 'язык обработки',
    client_price_currency_id: 'валюта цены для клиента',
    client_price_fix: 'фиксированная цена',
    client_price_from: 'цена для клиента от',
    client_price_to: 'цена для клиента до',
    cost_price_currency_id: 'валюта себестоимости',
    cost_price_from: 'себестоимость от',
    cost_price_to: 'себестоимость до',
    comment: 'комментарий',
  },
  required: ['title', 'type', 'operator_id'],
  searchFields: ['title'],
  refs: {
    operator_id: 'operator',
    warehouse_point_id: 'warehouse_point',
    package_description_id: 'package_description',
    client_price_currency_id: 'currency',
    cost_price_currency_id: 'currency',
  },
  ownership: { operator: 'operator_id' },
  // what the service costs the operator: theirs alone
  confidential: ['cost_price_currency_id', 'cost_price_from', 'cost_price_to'],
});
export type ExtraService = BaseRow & z.infer<typeof extraService.fields>;

type PriceRange = Pick<
  ExtraService,
  | 'type'
  | 'client_price_from'
  | 'client_price_to'
  | 'cost_price_from'
  | 'cost_price_to'
  | 'package_description_id'
  | 'warehouse_point_id'
>;
/** Rules over the whole record (a patch is checked merged with the stored row). */
export function extraServiceErrors(s: PriceRange): string[] {
  const errors: string[] = [];
  if (s.client_price_to !== null && decCmp(dec(s.client_price_to), dec(s.client_price_from)) < 0)
    errors.push(EXTRA_SERVICE_MESSAGES.clientRange);
  if (s.cost_price_to !== null && decCmp(dec(s.cost_price_to), dec(s.cost_price_from)) < 0)
    errors.push(EXTRA_SERVICE_MESSAGES.costRange);
  if (s.type === 'package' && !s.package_description_id) errors.push(EXTRA_SERVICE_MESSAGES.packageNeeds);
  if (s.type === 'transfer' && !s.warehouse_point_id) errors.push(EXTRA_SERVICE_MESSAGES.transferNeeds);
  return errors;
}
