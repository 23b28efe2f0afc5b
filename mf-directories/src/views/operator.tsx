import {
  discountError,
  isValidPhone,
  operator,
  OperatorClient,
  OPERATOR_CLIENT_LABELS,
  PHONE_MESSAGE,
  TAX_TYPE_LABELS,
  TRANSPORT_COMPANY_LABELS,
  TransportCompanyData,
  TRANSPORT_COMPANY_DATA_LABELS,
} from '@caravan/contracts';
import { enumOptions, fieldsOf, LinkSection, type EntityView, type FieldDef } from '@caravan/ui-kit';
import { adminCreates, ID } from './common';

const discount = (name: string, label: string): FieldDef => ({
  name,
  label,
  kind: 'decimal',
  validate: discountError,
});

/** An operator's clients (spec §3): the client, its identifier here, debts allowed, discounts 0..100. */
const clientColumns: FieldDef[] = [
  {
    name: 'id',
    label: OPERATOR_CLIENT_LABELS.id,
    kind: 'ref',
    entity: 'client',
    required: true,
    titleTo: 'title',
  },
  { name: 'identifier', label: OPERATOR_CLIENT_LABELS.identifier },
  { name: 'is_negative_buyout', label: OPERATOR_CLIENT_LABELS.is_negative_buyout, kind: 'checkbox' },
  { name: 'is_negative_delivery', label: OPERATOR_CLIENT_LABELS.is_negative_delivery, kind: 'checkbox' },
  discount('discount_buyout', OPERATOR_CLIENT_LABELS.discount_buyout),
  discount('discount_delivery', OPERATOR_CLIENT_LABELS.discount_delivery),
];

const carrierColumns: FieldDef[] = [
  {
    name: 'type',
    label: TRANSPORT_COMPANY_DATA_LABELS.type,
    kind: 'select',
    options: enumOptions(TRANSPORT_COMPANY_LABELS),
    required: true,
  },
  { name: 'api_data.client_id', label: TRANSPORT_COMPANY_DATA_LABELS['api_data.client_id'] },
  { name: 'api_data.access_token', label: TRANSPORT_COMPANY_DATA_LABELS['api_data.access_token'] },
  {
    name: 'recipient_cost_commission',
    label: TRANSPORT_COMPANY_DATA_LABELS.recipient_cost_commission,
    kind: 'decimal',
  },
];

const warehouseOfType = (type: string) => () => [{ field: 'type', op: '=' as const, value: type }];

export const operatorView: EntityView = {
  entity: 'operator',
  title: 'pages.operator',
  ...adminCreates,
  initial: () => ({ working_hours: {}, client_list: [], transport_company_data: [], legal_entity_id: [] }),
  columns: [
    ID,
    { key: 'title', label: operator.labels.title },
    { key: 'email', label: operator.labels.email },
    { key: 'phone', label: operator.labels.phone },
  ],
  fields: fieldsOf(operator, {
    title: {},
    email: {},
    phone: { kind: 'phone', validate: (v) => (isValidPhone(String(v)) ? null : PHONE_MESSAGE) },
    incognito: { kind: 'checkbox' },
    tax_type: { kind: 'select', options: enumOptions(TAX_TYPE_LABELS) },
    tax_rate: { kind: 'decimal' },
    nds_rate: { kind: 'decimal' },
    consolidation_warehouse_id: { where: warehouseOfType('consolidation') },
    to_warehouse_id: { where: warehouseOfType('arrival') },
    warehouse_id: {},
    route_id: { where: (v) => (v.id ? [{ field: 'operator_id', op: '=', value: v.id as number }] : []) },
    package_id: {},
    legal_entity_id: {
      kind: 'refs',
      where: (v) => (v.id ? [{ field: 'operator_id', op: '=', value: v.id as number }] : []),
    },
    bank_account_id: {},
    working_hours: { kind: 'hours' },
    transport_company_data: {
      kind: 'table',
      columns: carrierColumns,
      newRow: TransportCompanyData.parse({ type: 'cdek' }),
    },
    client_list: {
      kind: 'table',
      columns: clientColumns,
      newRow: { ...OperatorClient.parse({ id: 1 }), id: null },
    },
    comment: { kind: 'textarea' },
  }),
  sections: ({ id, editable }) => (
    <LinkSection
      title="склады оператора"
      link="operator_warehouse_point_link"
      parentField="operator_id"
      parentId={id}
      targetField="warehouse_point_id"
      targetEntity="warehouse_point"
      editable={editable}
    />
  ),
};
