import {
  EXCLUDED_WAREHOUSE_CITY_ID,
  operatorWarehousePointLink,
  warehouseCountryId,
  warehousePoint,
  warehousePointContact,
  WAREHOUSE_TYPE_LABELS,
  type WarehouseType,
} from '@caravan/contracts';
import { enumOptions, fieldsOf, userIsStaff, type EntityView } from '@caravan/ui-kit';
import { addCity, ID, labelled, staffOnly } from './common';

export const warehouseView: EntityView = {
  entity: 'warehouse_point',
  title: 'pages.warehouse_point',
  canCreate: userIsStaff,
  canEdit: userIsStaff,
  columns: [
    ID,
    { key: 'title', label: warehousePoint.labels.title },
    labelled('type', warehousePoint.labels.type, WAREHOUSE_TYPE_LABELS),
    { key: 'city_title', label: warehousePoint.labels.city_title! },
    { key: 'address', label: warehousePoint.labels.address },
  ],
  fields: fieldsOf(warehousePoint, {
    title: {},
    type: { kind: 'select', options: enumOptions(WAREHOUSE_TYPE_LABELS) },
    // spec §9: consolidation and provider warehouses in China, arrival ones in Russia; never city 1
    city_id: {
      where: (v) => [
        { field: 'id', op: '!=', value: EXCLUDED_WAREHOUSE_CITY_ID },
        ...(v.type
          ? [{ field: 'country_id', op: '=' as const, value: warehouseCountryId(v.type as WarehouseType) }]
          : []),
      ],
      create: addCity(),
    },
    address: { kind: 'address' },
    address_eng: {},
    postcode: {},
    comment: { kind: 'textarea' },
  }),
};

export const contactView: EntityView = {
  entity: 'warehouse_point_contact',
  title: 'pages.warehouse_point_contact',
  ...staffOnly,
  columns: [
    ID,
    { key: 'title', label: warehousePointContact.labels.title },
    { key: 'contact_name', label: warehousePointContact.labels.contact_name },
    { key: 'phone', label: warehousePointContact.labels.phone },
    { key: 'warehouse_point_title', label: warehousePointContact.labels.warehouse_point_title! },
    { key: 'operator_title', label: warehousePointContact.labels.operator_title! },
  ],
  fields: fieldsOf(warehousePointContact, {
    title: {},
    contact_name: {},
    phone: { kind: 'phone' },
    warehouse_point_id: {},
    operator_id: {},
  }),
};

export const operatorWarehouseLinkView: EntityView = {
  entity: 'operator_warehouse_point_link',
  title: 'pages.operator_warehouse_point_link',
  ...staffOnly,
  columns: [
    ID,
    { key: 'operator_title', label: operatorWarehousePointLink.labels.operator_title! },
    { key: 'warehouse_point_title', label: operatorWarehousePointLink.labels.warehouse_point_title! },
  ],
  fields: fieldsOf(operatorWarehousePointLink, { operator_id: {}, warehouse_point_id: {} }),
};
