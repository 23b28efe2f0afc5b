import {
  formatDisplayDateTime,
  notification,
  NOTIFICATION_CATEGORY_LABELS,
  NOTIFICATION_TYPE_LABELS,
} from '@caravan/contracts';
import {
  enumOptions,
  labelledColumn,
  NotificationDialog,
  RefTitle,
  type EntityRow,
  type EntityView,
  type FieldDef,
  type NotificationRow,
} from '@caravan/ui-kit';

const L = notification.labels;
const readOnly = () => true;

/** A row of the admin list opens its detail: whose it is, the order and its link (spec §2 notification panel). */
function AdminNotificationDialog({ row, onClose }: { row: EntityRow; onClose(): void }) {
  return (
    <NotificationDialog notification={row as unknown as NotificationRow} onClose={onClose} showRecipient />
  );
}

/**
 * /notification (spec §2, admin folder): every user's notifications, newest first, read-only. The
 * service gives an admin everyone's rows; the drawer of the bell holds each user's own.
 */
export const notificationView: EntityView = {
  entity: 'notification',
  title: 'pages.notification',
  canCreate: () => false,
  canEdit: () => false,
  canDelete: () => false,
  rowDialog: AdminNotificationDialog,
  itemTitle: (values) => String(values.label ?? ''),
  sort: ['created_at', 'user_table_id', 'type', 'category', 'is_read'],
  columns: [
    {
      key: 'created_at',
      label: 'создано',
      render: (row) => <span className="caravan-nowrap">{formatDisplayDateTime(row.created_at)}</span>,
    },
    {
      key: 'user_table_id',
      label: L.user_table_id,
      render: (row) => <RefTitle entity="user" id={row.user_table_id} />,
    },
    { key: 'label', label: L.label },
    { key: 'message', label: L.message },
    labelledColumn('type', L.type, NOTIFICATION_TYPE_LABELS),
    labelledColumn('category', L.category, NOTIFICATION_CATEGORY_LABELS),
    { key: 'is_read', label: L.is_read, render: (row) => (row.is_read ? 'да' : 'нет') },
  ],
  filters: [
    { name: 'user_table_id', label: L.user_table_id, kind: 'ref', entity: 'user' },
    { name: 'type', label: L.type, kind: 'select', options: enumOptions(NOTIFICATION_TYPE_LABELS) },
    {
      name: 'category',
      label: L.category,
      kind: 'select',
      options: enumOptions(NOTIFICATION_CATEGORY_LABELS),
    },
    { name: 'is_read', label: L.is_read, kind: 'checkbox' },
    { name: 'item_id', label: 'заказ', kind: 'ref', entity: 'client_order' },
    { name: 'created_at', label: 'создано', kind: 'datetime' },
  ],
  fields: [
    { name: 'user_table_id', label: L.user_table_id, kind: 'ref', entity: 'user', readOnly },
    { name: 'label', label: L.label, readOnly },
    { name: 'message', label: L.message, kind: 'textarea', readOnly, wide: true },
    { name: 'type', label: L.type, kind: 'select', options: enumOptions(NOTIFICATION_TYPE_LABELS), readOnly },
    {
      name: 'category',
      label: L.category,
      kind: 'select',
      options: enumOptions(NOTIFICATION_CATEGORY_LABELS),
      readOnly,
    },
    { name: 'item_id', label: 'заказ', kind: 'ref', entity: 'client_order', readOnly },
    { name: 'is_read', label: L.is_read, kind: 'checkbox', readOnly },
    { name: 'read_at', label: L.read_at, kind: 'datetime', readOnly },
  ] satisfies FieldDef[],
};
