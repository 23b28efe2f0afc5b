import { wallet } from '@caravan/contracts';
import { Money, RefTitle, userIsAdmin, type EntityView, type FieldDef } from '@caravan/ui-kit';
import { TopUpButton } from '../../topup/TopUpButton';

const BALANCE = 'баланс';
const readOnly = () => true;

const balance: FieldDef = {
  name: 'amount',
  label: BALANCE,
  kind: 'custom',
  readOnly,
  render: ({ values }) => (
    <div className="caravan-readonly-value" data-testid="wallet-balance">
      <Money amount={values.amount} currencyId={values.currency_id} />
    </div>
  ),
};

/**
 * Wallets: their list and item page. Balances, owners and currency change only through money
 * operations (ARCHITECTURE §7), so here only the title and the label are edited.
 */
export const walletView: EntityView = {
  entity: 'wallet',
  title: 'pages.wallet',
  canCreate: () => false,
  canEdit: userIsAdmin,
  canDelete: () => false,
  // an admin tops up a client's wallet from its page (with a comment, or as a test)
  sections: ({ id }) => (id > 0 ? <TopUpButton walletId={id} /> : null),
  columns: [
    { key: 'id', label: 'id' },
    { key: 'title', label: wallet.labels.title },
    { key: 'label', label: wallet.labels.label },
    {
      key: 'client_id',
      label: wallet.labels.client_id,
      render: (row) => <RefTitle entity="client" id={row.client_id} />,
    },
    {
      key: 'amount',
      label: BALANCE,
      render: (row) => <Money amount={row.amount} currencyId={row.currency_id} />,
    },
  ],
  filters: [
    { name: 'title', label: wallet.labels.title },
    { name: 'client_id', label: wallet.labels.client_id, kind: 'ref', entity: 'client' },
    { name: 'amount', label: BALANCE, kind: 'decimal' },
    { name: 'created_at', label: 'создан', kind: 'datetime' },
  ],
  fields: [
    { name: 'title', label: wallet.labels.title, required: true },
    { name: 'label', label: wallet.labels.label },
    { name: 'client_id', label: wallet.labels.client_id, kind: 'ref', entity: 'client', readOnly },
    { name: 'operator_id', label: wallet.labels.operator_id, kind: 'ref', entity: 'operator', readOnly },
    { name: 'currency_id', label: wallet.labels.currency_id, kind: 'ref', entity: 'currency', readOnly },
    balance,
  ],
};
