import {
  COUNTRY,
  DENSITY_ROW_LABELS,
  logisticRoute,
  logisticRouteProductTypeLink,
  logisticRouteWarehousePointLink,
  ROUTE_STATE_LABELS,
  ROUTE_TYPE_LABELS,
} from '@caravan/contracts';
import { enumOptions, fieldsOf, LinkSection, type EntityView, type FieldDef } from '@caravan/ui-kit';
import { addCity, ID, labelled, staffOnly } from './common';

const densityColumns: FieldDef[] = [
  { name: 'density_from', label: DENSITY_ROW_LABELS.density_from, kind: 'decimal', required: true },
  { name: 'density_to', label: DENSITY_ROW_LABELS.density_to, kind: 'decimal' },
  { name: 'price', label: DENSITY_ROW_LABELS.price, kind: 'decimal', required: true },
  {
    name: 'unit',
    label: DENSITY_ROW_LABELS.unit,
    kind: 'select',
    options: enumOptions({ kg: 'кг', m3: 'м³' }),
    required: true,
  },
];

export const routeView: EntityView = {
  entity: 'logistic_route',
  title: 'pages.logistic_route',
  ...staffOnly,
  initial: () => ({ state: 'draft', density_table: [] }),
  columns: [
    ID,
    { key: 'title', label: logisticRoute.labels.title },
    labelled('type', logisticRoute.labels.type, ROUTE_TYPE_LABELS),
    labelled('state', logisticRoute.labels.state, ROUTE_STATE_LABELS),
    { key: 'operator_title', label: logisticRoute.labels.operator_title! },
    { key: 'from_city_title', label: logisticRoute.labels.from_city_title! },
    {
      key: 'days_from',
      label: 'срок, дней',
      render: (row) => (row.days_from !== null ? `${row.days_from}–${row.days_to ?? '?'}` : ''),
    },
  ],
  fields: fieldsOf(logisticRoute, {
    title: {},
    type: { kind: 'select', options: enumOptions(ROUTE_TYPE_LABELS) },
    state: { kind: 'select', options: enumOptions(ROUTE_STATE_LABELS) },
    operator_id: {},
    from_city_id: {
      where: () => [{ field: 'country_id', op: '=', value: COUNTRY.CHINA }],
      create: addCity(),
    },
    days_from: { kind: 'integer' },
    days_to: { kind: 'integer' },
    buyout_commission: { kind: 'decimal' },
    density_table: {
      kind: 'table',
      columns: densityColumns,
      newRow: { density_from: null, density_to: null, price: null, unit: 'kg' },
    },
    description: { kind: 'textarea' },
    comment: { kind: 'textarea' },
  }),
  sections: ({ id, editable }) => (
    <div className="caravan-sections">
      <LinkSection
        title={logisticRoute.labels.logistic_product_type_id!}
        link="logistic_route_logistic_product_type_link"
        parentField="logistic_route_id"
        parentId={id}
        targetField="logistic_product_type_id"
        targetEntity="logistic_product_type"
        editable={editable}
      />
      <LinkSection
        title={logisticRoute.labels.warehouse_point_id!}
        link="logistic_route_warehouse_point_link"
        parentField="logistic_route_id"
        parentId={id}
        targetField="warehouse_point_id"
        targetEntity="warehouse_point"
        editable={editable}
      />
    </div>
  ),
};

/** The two link entities on their own pages (spec §2 routes): route ↔ product type, route ↔ warehouse. */
export const routeProductTypeView: EntityView = {
  entity: 'logistic_route_logistic_product_type_link',
  title: 'pages.logistic_route_logistic_product_type_link',
  ...staffOnly,
  columns: [
    ID,
    { key: 'logistic_route_title', label: logisticRouteProductTypeLink.labels.logistic_route_title! },
    {
      key: 'logistic_product_type_title',
      label: logisticRouteProductTypeLink.labels.logistic_product_type_title!,
    },
  ],
  fields: fieldsOf(logisticRouteProductTypeLink, { logistic_route_id: {}, logistic_product_type_id: {} }),
};

export const routeWarehouseView: EntityView = {
  entity: 'logistic_route_warehouse_point_link',
  title: 'pages.logistic_route_warehouse_point_link',
  ...staffOnly,
  columns: [
    ID,
    { key: 'logistic_route_title', label: logisticRouteWarehousePointLink.labels.logistic_route_title! },
    { key: 'warehouse_point_title', label: logisticRouteWarehousePointLink.labels.warehouse_point_title! },
  ],
  fields: fieldsOf(logisticRouteWarehousePointLink, { logistic_route_id: {}, warehouse_point_id: {} }),
};
