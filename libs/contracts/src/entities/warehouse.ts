import { z } from 'zod';
import { specMessage } from '../validation';
import { COUNTRY } from './city';
import { defineEntityContract, Id, OptionalId, Text, type BaseRow } from './common';
import { Phone } from './user';

export const WAREHOUSE_TYPES = ['consolidation', 'arrival', 'provider'] as const;
export type WarehouseType = (typeof WAREHOUSE_TYPES)[number];
export const WAREHOUSE_TYPE_LABELS: Record<WarehouseType, string> = {
  consolidation: 'склад консолидации',
  arrival: 'склад прибытия',
  provider: 'склад поставщика',
};

/** City id 1 is never a warehouse city (spec §9). */
export const EXCLUDED_WAREHOUSE_CITY_ID = 1;

/** Spec §9: provider and consolidation warehouses are in China (country 1), arrival ones in Russia (2). */
export const warehouseCountryId = (type: WarehouseType) =>
  type === 'arrival' ? COUNTRY.RUSSIA : COUNTRY.CHINA;

export const WAREHOUSE_MESSAGES = {
  cityExcluded: 'этот город нельзя выбрать для склада',
  cityCountry: (type: WarehouseType) =>
    type === 'arrival'
      ? 'склад прибытия должен быть в России'
      : `${WAREHOUSE_TYPE_LABELS[type]} должен быть в Китае`,
  ownerBoth: 'склад принадлежит либо оператору, либо клиенту',
} as const;

export const warehousePoint = defineEntityContract({
  name: 'warehouse_point',
  title: 'склады',
  fields: z.strictObject({
    title: z.string().trim().min(1).max(200),
    type: z.enum(WAREHOUSE_TYPES),
    city_id: Id.refine(
      (id) => id !== EXCLUDED_WAREHOUSE_CITY_ID,
      specMessage(WAREHOUSE_MESSAGES.cityExcluded),
    ),
    address: Text(500),
    address_eng: Text(500),
    postcode: z
      .string()
      .trim()
      .regex(/^(\d{6})?$/, 'индекс: 6 цифр')
      .default(''),
    comment: Text(),
    // the owner: who edits and deletes it (admins too); none: the platform's, admins only.
    // A link to an operator (operator_warehouse_point_link) lets the operator use it, not change it.
    operator_id: OptionalId,
    client_id: OptionalId,
  }),
  labels: {
    title: 'название',
    type: 'тип',
    city_id: 'город',
    city_title: 'город',
    address: 'адрес',
    address_eng: 'адрес (англ.)',
    postcode: 'индекс',
    comment: 'комментарий',
    operator_id: 'оператор-владелец',
    client_id: 'клиент-владелец',
  },
  // the new-warehouse dialog asks for title, type and city (spec §5)
  required: ['title', 'type', 'city_id'],
  searchFields: ['title', 'address', 'address_eng'],
  refs: { city_id: 'city', operator_id: 'operator', client_id: 'client' },
  ownership: { operator: 'operator_id', client: 'client_id' },
});
export type WarehousePoint = BaseRow & z.infer<typeof warehousePoint.fields> & { city_title: string | null };

export const warehousePointContact = defineEntityContract({
  name: 'warehouse_point_contact',
  title: 'контакты складов',
  fields: z.strictObject({
    title: z.string().trim().min(1).max(200),
    contact_name: z.string().trim().min(1).max(200),
    phone: Phone,
    operator_id: Id,
    warehouse_point_id: Id,
  }),
  labels: {
    title: 'название',
    contact_name: 'контактное лицо',
    phone: 'телефон',
    operator_id: 'оператор',
    operator_title: 'оператор',
    warehouse_point_id: 'склад',
    warehouse_point_title: 'склад',
  },
  required: ['title', 'contact_name', 'phone', 'operator_id', 'warehouse_point_id'],
  searchFields: ['title', 'contact_name', 'phone'],
  refs: { operator_id: 'operator', warehouse_point_id: 'warehouse_point' },
  ownership: { operator: 'operator_id' },
});
export type WarehousePointContact = BaseRow & z.infer<typeof warehousePointContact.fields>;

export const operatorWarehousePointLink = defineEntityContract({
  name: 'operator_warehouse_point_link',
  title: 'склады операторов',
  fields: z.strictObject({ operator_id: Id, warehouse_point_id: Id }),
  labels: {
    operator_id: 'оператор',
    operator_title: 'оператор',
    warehouse_point_id: 'склад',
    warehouse_point_title: 'склад',
  },
  required: ['operator_id', 'warehouse_point_id'],
  searchFields: [],
  refs: { operator_id: 'operator', warehouse_point_id: 'warehouse_point' },
  ownership: { operator: 'operator_id' },
});
