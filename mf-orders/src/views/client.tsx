import {
  client,
  CLIENT_SELF_FIELDS,
  CLIENT_TYPE_LABELS,
  DELIVERY_DATA_LABELS,
  DELIVERY_DATA_TYPE_LABELS,
  provider,
  TRANSPORT_COMPANY_LABELS,
  warehousePoint,
  EXCLUDED_WAREHOUSE_CITY_ID,
  COUNTRY,
} from '@caravan/contracts';
import {
  enumOptions,
  fieldsOf,
  userIsAdmin,
  type EntityView,
  type FieldDef,
  type Values,
} from '@caravan/ui-kit';

const deliveryColumns: FieldDef[] = fieldsOf(
  { labels: DELIVERY_DATA_LABELS, required: ['title', 'contact_name', 'contact_phone'] },
  {
    title: {},
    transport_company: { kind: 'select', options: enumOptions(TRANSPORT_COMPANY_LABELS) },
    type: { kind: 'select', options: enumOptions(DELIVERY_DATA_TYPE_LABELS), required: true },
    city: {},
    address: { kind: 'address' },
    delivery_point_code: {},
    contact_name: {},
    contact_phone: { kind: 'phone' },
  },
);

const selfField = (name: string) => (CLIENT_SELF_FIELDS as readonly string[]).includes(name);

/** Clients: admins keep them; a client edits their own delivery data and legal entities (spec §3). */
export const clientView: EntityView = {
  entity: 'client',
  title: 'pages.client',
  canCreate: userIsAdmin,
  canDelete: userIsAdmin,
  initial: () => ({ type: 'self', legal_entity_id: [], delivery_data_list: [] }),
  columns: [
    { key: 'id', label: 'id' },
    { key: 'title', label: client.labels.title },
    {
      key: 'type',
      label: client.labels.type,
      render: (row, t) =>
        t(`clientTypes.${row.type}`, { defaultValue: CLIENT_TYPE_LABELS[row.type as 'self'] }),
    },
  ],
  fields: fieldsOf(client, {
    title: {},
    type: { kind: 'select', options: enumOptions(CLIENT_TYPE_LABELS) },
    incognito: { kind: 'checkbox' },
    legal_entity_id: {
      kind: 'refs',
      where: (v: Values) => (v.id ? [{ field: 'client_id', op: '=', value: v.id as number }] : []),
    },
    delivery_data_list: {
      kind: 'table',
      columns: deliveryColumns,
      newRow: { type: 'pvz', transport_company: 'cdek' },
    },
  }).map((f) => ({ ...f, readOnly: (_v, user) => !userIsAdmin(user) && !selfField(f.name) })),
};

/** The 'новый склад' dialog of a provider: a provider warehouse in a Chinese city. */
const newProviderWarehouse = {
  title: 'новый склад',
  fields: fieldsOf(warehousePoint, {
    title: {},
    city_id: {
      where: () => [
        { field: 'country_id', op: '=' as const, value: COUNTRY.CHINA },
        { field: 'id', op: '!=' as const, value: EXCLUDED_WAREHOUSE_CITY_ID },
      ],
    },
    address: {},
  }),
  toValues: (v: Values) => ({ ...v, type: 'provider' }),
};

export const providerView: EntityView = {
  entity: 'provider',
  title: 'pages.provider',
  initial: () => ({ warehouse_point_id: [] }),
  columns: [
    { key: 'id', label: 'id' },
    { key: 'title', label: provider.labels.title },
    { key: 'name_str', label: provider.labels.name_str },
    { key: 'client_title', label: provider.labels.client_title! },
    { key: 'shop_link', label: provider.labels.shop_link },
  ],
  fields: fieldsOf(provider, {
    name_str: {},
    title: {},
    client_id: {},
    shop_link: {},
    warehouse_point_id: {
      kind: 'refs',
      where: () => [{ field: 'type', op: '=', value: 'provider' }],
      create: newProviderWarehouse,
    },
    comment: { kind: 'textarea' },
  }),
};
