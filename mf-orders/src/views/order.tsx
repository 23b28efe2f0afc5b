import {
  BUYOUT_TYPE_LABELS,
  clientOrder,
  DELIVERY_PAYMENT_STATE_LABELS,
  DELIVERY_TYPE_IN_DEVELOPMENT,
  DELIVERY_TYPE_LABELS,
  formatMoney,
  formatNumber,
  ORDER_STAGE_LABELS,
  ORDER_STATE_LABELS,
  orderEditableFields,
  ORDER_OWNER_FIXED_FIELDS,
  PRODUCT_PAYMENT_STATE_LABELS,
  TRANSPORT_COMPANY_LABELS,
  type OrderStage,
  type WhereCondition,
} from '@caravan/contracts';
import {
  ChatUnreadMark,
  enumOptions,
  fieldsOf,
  ID_COLUMN,
  labelledColumn,
  rolesOf,
  userIsAdmin,
  userIsStaff,
  type EntityView,
  type Values,
} from '@caravan/ui-kit';
import { OrderHeader } from '../order/OrderHeader';
import { ownList } from '../order/ownLists';
import {
  OrderArrivalField,
  OrderClientField,
  OrderDeliveryPaymentField,
  OrderOperatorField,
} from '../order/NewOrder';
import { OrderSections } from '../order/OrderSections';

const isNewOrder = (v: Values) => !v.id || v.id === -1;

/** id in / not in a list; an empty 'in' list matches nothing (no id is 0), an empty 'not in' everything. */
const idCondition = (op: 'in' | 'not_in', ids: number[], emptyMatchesNothing = false): WhereCondition[] =>
  ids.length
    ? [{ field: 'id', op, value: ids }]
    : emptyMatchesNothing
      ? [{ field: 'id', op: '=', value: 0 }]
      : [];

const money = (key: string, label: string) => ({
  key,
  label,
  render: (row: Values) => (row[key] ? formatMoney(row[key] as string) : ''),
});

/** Orders (spec §2 order edit page, §3–§5): the list, the card with its stage buttons, positions and prices. */
export const orderView: EntityView = {
  entity: 'client_order',
  title: 'pages.client_order',
  canDelete: userIsAdmin,
  initial: () => ({
    buyout_type: 'operator',
    delivery_type: 'to_door',
    stage: 'draft',
    options: { receiver_str: '' },
  }),
  columns: [
    ID_COLUMN,
    { key: 'title', label: clientOrder.labels.title },
    { key: 'client_title', label: clientOrder.labels.client_title! },
    { key: 'operator_title', label: clientOrder.labels.operator_title! },
    labelledColumn('stage', clientOrder.labels.stage, ORDER_STAGE_LABELS),
    labelledColumn('state', clientOrder.labels.state, ORDER_STATE_LABELS),
    money('total_price_rur', clientOrder.labels.total_price_rur),
    {
      key: 'weight',
      label: clientOrder.labels.weight,
      render: (row) => (row.weight ? formatNumber(row.weight as string, { maxDigits: 3 }) : ''),
    },
    {
      key: 'transport_company_rus_order_number',
      label: clientOrder.labels.transport_company_rus_order_number,
    },
    // issue 19: the order chat's messages the user has not read
    { key: 'chat_unread', label: 'чат', render: (row) => <ChatUnreadMark tableId={row.id} /> },
  ],
  // spec §2: the list filters by stage and state, client and operator, the way of buyout and delivery, the date
  filters: fieldsOf(clientOrder, {
    stage: { kind: 'select', options: enumOptions(ORDER_STAGE_LABELS) },
    state: { kind: 'select', options: enumOptions(ORDER_STATE_LABELS) },
    client_id: {},
    operator_id: {},
    buyout_type: { kind: 'select', options: enumOptions(BUYOUT_TYPE_LABELS) },
    delivery_type: { kind: 'select', options: enumOptions(DELIVERY_TYPE_LABELS) },
    transport_company_rus: { kind: 'select', options: enumOptions(TRANSPORT_COMPANY_LABELS) },
    created_at: { kind: 'datetime', label: 'создан' },
  }),
  sort: ['id', 'title', 'client_title', 'operator_title', 'stage', 'total_price_rur', 'created_at'],
  // the user's favourite and archived orders (options.settings): archived ones leave the main list
  scopes: [
    {
      key: 'all',
      label: 'orders.scope.all',
      where: (user) => idCondition('not_in', ownList(user, 'archived_orders')),
    },
    {
      key: 'favourite',
      label: 'orders.scope.favourite',
      where: (user) => idCondition('in', ownList(user, 'favourite_orders'), true),
    },
    {
      key: 'archive',
      label: 'orders.scope.archive',
      where: (user) => idCondition('in', ownList(user, 'archived_orders'), true),
    },
  ],
  itemTitle: (v) => String(v.title || `№${v.id}`),
  fieldLocked: (name, values, user) => {
    const created = Boolean(values.id && values.id !== -1);
    if (created && ORDER_OWNER_FIXED_FIELDS.includes(name)) return true;
    const editable = orderEditableFields(values.stage as OrderStage, rolesOf(user));
    return editable !== null && !editable.includes(name);
  },
  fields: fieldsOf(clientOrder, {
    title: {},
    client_id: { kind: 'custom', render: (props) => <OrderClientField {...props} /> },
    operator_id: { kind: 'custom', render: (props) => <OrderOperatorField {...props} /> },
    consolidation_warehouse_id: {
      entity: 'warehouse_point',
      // the operator's own and linked warehouses are offered first by the new-order defaults
      where: () => [{ field: 'type', op: '=', value: 'consolidation' }],
    },
    to_warehouse_id: {
      entity: 'warehouse_point',
      kind: 'custom',
      render: (props) => <OrderArrivalField {...props} />,
      // the operator's own and linked warehouses are offered first by the new-order defaults
      where: () => [{ field: 'type', op: '=', value: 'arrival' }],
    },
    logistic_route_id: {
      where: (v) => [
        { field: 'state', op: '=', value: 'active' },
        ...(v.operator_id
          ? [{ field: 'operator_id', op: '=' as const, value: v.operator_id as number }]
          : []),
      ],
    },
    buyout_type: { kind: 'select', options: enumOptions(BUYOUT_TYPE_LABELS) },
    package_id: {
      where: (v) => [
        { field: 'type', op: '=', value: 'package' },
        ...(v.operator_id
          ? [{ field: 'operator_id', op: '=' as const, value: v.operator_id as number }]
          : []),
      ],
    },
    delivery_type: {
      kind: 'select',
      // spec §4: to_fulfillment is 'в разработке'
      options: enumOptions(DELIVERY_TYPE_LABELS).filter((o) => o.value !== DELIVERY_TYPE_IN_DEVELOPMENT),
    },
    transport_company_rus: { kind: 'select', options: enumOptions(TRANSPORT_COMPANY_LABELS) },
    order_number: {},
    // a client chooses how to pay in the forming dialog; paid states are set by payments or an admin
    product_payment_state: {
      kind: 'select',
      options: enumOptions(PRODUCT_PAYMENT_STATE_LABELS),
      hidden: (v) => !v.id || v.id === -1,
      readOnly: (_v, user) => !userIsAdmin(user),
    },
    // a new order: the client's 'оплата в СДЭК' and the note on locked positions (spec §5 new order dialog)
    delivery_payment_state: {
      kind: 'custom',
      render: (props) => <OrderDeliveryPaymentField {...props} />,
      options: enumOptions(DELIVERY_PAYMENT_STATE_LABELS),
      hidden: (v, user) => isNewOrder(v) && userIsStaff(user),
      readOnly: (v, user) => !userIsAdmin(user) && !isNewOrder(v),
    },
    to_door_delivery_price_rur: { kind: 'decimal', hidden: (v) => !v.id || v.id === -1 },
    description: { kind: 'textarea' },
    comment: { kind: 'textarea' },
  }),
  header: (ctx) => <OrderHeader {...ctx} />,
  sections: (ctx) => <OrderSections {...ctx} />,
};
