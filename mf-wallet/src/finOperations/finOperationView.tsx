import {
  FIN_OPERATION_CAUSE_LABELS,
  FIN_OPERATION_DIRECTION_LABELS,
  FIN_OPERATION_LABELS as L,
  FIN_OPERATION_TYPE_LABELS,
  formatDisplayDateTime,
} from '@caravan/contracts';
import {
  labelledColumn,
  Money,
  RefTitle,
  useDocumentGetQuery,
  userIsAdmin,
  type EntityView,
  type FieldDef,
  type Option,
} from '@caravan/ui-kit';

const readOnly = () => true;
const options = (labels: Record<string, string>): Option[] =>
  Object.entries(labels).map(([value, label]) => ({ value, label }));
/** The amounts carry their wallet's currency sign ('820,50 ¥'), so the labels drop the contracts' ', ₽'. */
const label = (name: keyof typeof L) => L[name].replace(/, ₽$/, '');

/** An amount in the currency of the movement's wallet (read once per wallet, cached). */
function WalletMoney({ walletId, amount }: { walletId: unknown; amount: unknown }) {
  const valid = typeof walletId === 'number' && walletId > 0;
  const { data } = useDocumentGetQuery({ entity: 'wallet', id: valid ? walletId : 0 }, { skip: !valid });
  return <Money amount={amount} currencyId={data?.currency_id} />;
}

/** The amount of a movement, 'in' with a plus and 'out' with a minus. */
const signedAmount = (row: Record<string, unknown>) => (
  <span className={row.direction === 'out' ? 'mfw-out' : 'mfw-in'}>
    {row.direction === 'out' ? '− ' : '+ '}
    <WalletMoney walletId={row.wallet_id} amount={row.amount} />
  </span>
);
const money = (key: string) => (row: Record<string, unknown>) => (
  <WalletMoney walletId={row.wallet_id} amount={row[key]} />
);
const moneyField = (name: keyof typeof L): FieldDef => ({
  name,
  label: label(name),
  kind: 'custom',
  readOnly,
  render: ({ values }) => <div className="caravan-readonly-value">{money(name)(values)}</div>,
});

/**
 * /fin_operation: the wallet ledger, read-only (spec product-core §3). Admins see every movement;
 * clients and operators the movements of the wallets they may see (the service scopes the rows).
 */
export const finOperationView: EntityView = {
  entity: 'fin_operation',
  title: 'pages.fin_operation',
  canCreate: () => false,
  canEdit: () => false,
  canDelete: () => false,
  sort: ['datetime', 'amount', 'wallet_id'],
  itemTitle: (values) =>
    `${FIN_OPERATION_CAUSE_LABELS[values.cause as keyof typeof FIN_OPERATION_CAUSE_LABELS] ?? ''} · ${formatDisplayDateTime(values.datetime as string)}`,
  columns: [
    {
      key: 'datetime',
      label: L.datetime,
      render: (row) => (
        <span className="caravan-nowrap">{formatDisplayDateTime(row.datetime as string)}</span>
      ),
    },
    {
      key: 'wallet_id',
      label: L.wallet_id,
      render: (row) => (row.wallet_title as string) || <RefTitle entity="wallet" id={row.wallet_id} />,
    },
    labelledColumn('direction', L.direction, FIN_OPERATION_DIRECTION_LABELS),
    labelledColumn('cause', L.cause, FIN_OPERATION_CAUSE_LABELS),
    labelledColumn('type', L.type, FIN_OPERATION_TYPE_LABELS),
    { key: 'amount', label: label('amount'), render: signedAmount },
    {
      key: 'wallet_amount_before',
      label: label('wallet_amount_before'),
      render: money('wallet_amount_before'),
    },
    { key: 'wallet_amount_after', label: label('wallet_amount_after'), render: money('wallet_amount_after') },
    { key: 'comment', label: L.comment },
    // an admin's test money shows as such in the ledger
    { key: 'test', label: L.test, render: (row) => (row.test ? L.test : '') },
  ],
  filters: [
    { name: 'wallet_id', label: L.wallet_id, kind: 'ref', entity: 'wallet' },
    {
      name: 'direction',
      label: L.direction,
      kind: 'select',
      options: options(FIN_OPERATION_DIRECTION_LABELS),
    },
    { name: 'cause', label: L.cause, kind: 'select', options: options(FIN_OPERATION_CAUSE_LABELS) },
    { name: 'type', label: L.type, kind: 'select', options: options(FIN_OPERATION_TYPE_LABELS) },
    { name: 'amount', label: label('amount'), kind: 'decimal' },
    { name: 'datetime', label: L.datetime, kind: 'datetime' },
  ],
  fields: [
    { name: 'datetime', label: L.datetime, kind: 'datetime', readOnly },
    { name: 'wallet_id', label: L.wallet_id, kind: 'ref', entity: 'wallet', readOnly },
    { name: 'client_id', label: L.client_id, kind: 'ref', entity: 'client', readOnly },
    {
      name: 'direction',
      label: L.direction,
      kind: 'select',
      options: options(FIN_OPERATION_DIRECTION_LABELS),
      readOnly,
    },
    { name: 'cause', label: L.cause, kind: 'select', options: options(FIN_OPERATION_CAUSE_LABELS), readOnly },
    { name: 'type', label: L.type, kind: 'select', options: options(FIN_OPERATION_TYPE_LABELS), readOnly },
    moneyField('amount'),
    moneyField('wallet_amount_before'),
    moneyField('wallet_amount_after'),
    { name: 'sender_id', label: L.sender_id, kind: 'ref', entity: 'wallet', readOnly },
    { name: 'receiver_id', label: L.receiver_id, kind: 'ref', entity: 'wallet', readOnly },
    { name: 'comment', label: L.comment, kind: 'textarea', readOnly, wide: true },
    { name: 'test', label: L.test, kind: 'checkbox', readOnly, hidden: (_v, user) => !userIsAdmin(user) },
  ],
};
