import { useTranslation } from 'react-i18next';
import { Callout } from '@blueprintjs/core';
import { CURRENCY_SYMBOLS, formatMoney, wallet } from '@caravan/contracts';
import { baseApi, EntityListPage, toast, useServerEvents, type EntityView } from '@caravan/ui-kit';
import { useDispatch, useSelector } from 'react-redux';
import { injectedLiveWallets, walletPushed } from '../../store/liveWallets';

const view: EntityView = {
  entity: 'wallet',
  title: 'pages.wallet',
  itemPage: false,
  canCreate: () => false,
  columns: [
    { key: 'id', label: 'id' },
    { key: 'title', label: wallet.labels.title },
    { key: 'label', label: wallet.labels.label },
    { key: 'client_id', label: wallet.labels.client_id },
    {
      key: 'amount',
      label: 'баланс',
      render: (row) => formatMoney(row.amount as string, CURRENCY_SYMBOLS[row.currency_id as number]),
    },
  ],
  fields: [
    { name: 'title', label: wallet.labels.title },
    { name: 'client_id', label: wallet.labels.client_id, kind: 'ref', entity: 'client' },
    { name: 'amount', label: 'баланс', kind: 'decimal' },
  ],
};

export default function WalletListPage() {
  const { t } = useTranslation();
  const dispatch = useDispatch();
  const last = useSelector(injectedLiveWallets.selectors.lastUpdate);

  // A wallet changed on the server: remember it, refresh the lists, tell the user.
  useServerEvents('wallet_item', undefined, (event) => {
    const item = event.item as { title: string; amount: string };
    dispatch(walletPushed({ id: event.id, title: item.title, amount: item.amount }));
    dispatch(baseApi.util.invalidateTags([{ type: 'Entity', id: 'wallet' }]));
    void toast(t('walletLive.toast', { title: item.title, amount: formatMoney(item.amount) }), 'primary');
  });

  return (
    <>
      {last && (
        <Callout
          intent="primary"
          icon="updated"
          style={{ marginBottom: 12 }}
          data-testid="wallet-live-update"
        >
          {t('walletLive.updated', { title: last.title, amount: formatMoney(last.amount) })}
        </Callout>
      )}
      <EntityListPage view={view} />
    </>
  );
}
