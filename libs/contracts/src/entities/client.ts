import { z } from 'zod';
import { MESSAGES } from '../messages';
import { specMessage } from '../validation';
import { defineEntityContract, Id, IdList, Text, type BaseRow } from './common';
import { TRANSPORT_COMPANIES } from './transport';
import { Phone } from './user';

export const CLIENT_TYPES = ['self', 'company'] as const;
export const CLIENT_TYPE_LABELS: Record<(typeof CLIENT_TYPES)[number], string> = {
  self: 'физлицо',
  company: 'компания',
};

export const DELIVERY_DATA_TYPES = ['pvz', 'address'] as const;
export const DELIVERY_DATA_TYPE_LABELS: Record<(typeof DELIVERY_DATA_TYPES)[number], string> = {
  pvz: 'пункт выдачи',
  address: 'до адреса',
};

export const DELIVERY_DATA_LABELS = {
  title: 'название',
  transport_company: 'перевозчик',
  type: 'способ получения',
  city: 'город',
  address: 'адрес',
  delivery_point_code: 'код пункта выдачи',
  contact_name: 'контактное лицо',
  contact_phone: 'телефон',
} as const;

/**
 * Where and to whom the Russian carrier delivers (spec §3). Spec §5: title, contact name, phone and
 * a pickup point code or an address are required; the phone is +7 and 10 more digits.
 */
export const DeliveryData = z
  .strictObject({
    title: z
      .string()
      .trim()
      .min(1, specMessage(MESSAGES.fieldRequired(DELIVERY_DATA_LABELS.title)))
      .max(200),
    transport_company: z.enum(TRANSPORT_COMPANIES).nullable().default(null),
    type: z.enum(DELIVERY_DATA_TYPES).default('pvz'),
    city: Text(200),
    address: Text(500),
    delivery_point_code: Text(50),
    contact_name: z
      .string()
      .trim()
      .min(1, specMessage(MESSAGES.fieldRequired(DELIVERY_DATA_LABELS.contact_name)))
      .max(200),
    contact_phone: Phone,
  })
  .refine((d) => d.address !== '' || d.delivery_point_code !== '', {
    message: specMessage(
      `${MESSAGES.fieldRequired(DELIVERY_DATA_LABELS.delivery_point_code)} или '${DELIVERY_DATA_LABELS.address}'`,
    ),
    path: ['delivery_point_code'],
  });
export type DeliveryData = z.infer<typeof DeliveryData>;

export const client = defineEntityContract({
  name: 'client',
  title: 'клиенты',
  fields: z.strictObject({
    title: z.string().trim().min(1).max(200),
    type: z.enum(CLIENT_TYPES).default('self'),
    incognito: z.boolean().default(false),
    legal_entity_id: IdList,
    delivery_data_list: z.array(DeliveryData).max(50).default([]),
  }),
  labels: {
    title: 'название',
    type: 'тип',
    incognito: 'инкогнито',
    legal_entity_id: 'юрлица',
    delivery_data_list: 'данные доставки',
  },
  itemLabels: { delivery_data_list: DELIVERY_DATA_LABELS },
  required: ['title'],
  searchFields: ['title'],
  refs: { legal_entity_id: 'legal_entity' },
  ownership: { client: 'id' },
});
export type Client = BaseRow & z.infer<typeof client.fields>;
export const CLIENT_MESSAGES = {
  foreignLegalEntity: 'можно указать только юрлица этого клиента',
} as const;

/** What a client user may change of their own client record: the rest is the back office's. */
export const CLIENT_SELF_FIELDS = ['delivery_data_list', 'legal_entity_id'] as const;

export const provider = defineEntityContract({
  name: 'provider',
  title: 'поставщики',
  fields: z.strictObject({
    title: Text(200),
    name_str: z.string().trim().min(1).max(200),
    client_id: Id,
    shop_link: Text(1000),
    comment: Text(),
    warehouse_point_id: IdList,
  }),
  labels: {
    title: 'название',
    name_str: 'имя / магазин',
    client_id: 'клиент',
    client_title: 'клиент',
    shop_link: 'ссылка на магазин',
    comment: 'комментарий',
    warehouse_point_id: 'склады',
  },
  // spec §5: provider create needs name_str and client_id
  required: ['name_str', 'client_id'],
  searchFields: ['title', 'name_str', 'shop_link'],
  refs: { client_id: 'client', warehouse_point_id: 'warehouse_point' },
  ownership: { client: 'client_id' },
});
export type Provider = BaseRow & z.infer<typeof provider.fields>;
