import { Callout } from '@blueprintjs/core';
import { CURRENCY_SYMBOLS, formatMoney } from '@caravan/contracts';
import { baseApi, documentApi, EntityScreens, toast, useServerEvents, type AppStore } from '@caravan/ui-kit';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import { injectedLiveWallets, walletPushed } from '../../store/liveWallets';
import { WALLET_VERSION } from '../../version';
import { walletView } from './walletView';

type Dispatch = AppStore['dispatch'];

/** The sign of a wallet's currency, from the currency directory (the spec's fixed ones if it cannot be read). */
async function currencySymbol(dispatch: Dispatch, currencyId: number): Promise<string> {
  const known = CURRENCY_SYMBOLS[currencyId] ?? '';
  const request = dispatch(
    documentApi.endpoints.documentGet.initiate({ entity: 'currency', id: currencyId }),
  );
  try {
    const row = await request.unwrap();
    return (row.symbol as string) || known;
  } catch {
    return known;
  }
}

/** /wallet: the list and /wallet/{id}: one wallet; a change pushed by the server is told in its own currency. */
export default function WalletScreens() {
  const { t } = useTranslation();
  const dispatch = useDispatch<Dispatch>();
  const last = useSelector(injectedLiveWallets.selectors.lastUpdate);

  // A wallet changed on the server: remember it, refresh the lists, tell the user.
  useServerEvents('wallet_item', undefined, (event) => {
    const item = event.item as { title: string; amount: string; currency_id: number };
    void currencySymbol(dispatch, item.currency_id).then((symbol) => {
      dispatch(walletPushed({ id: event.id, title: item.title, amount: item.amount, symbol }));
      const amount = formatMoney(item.amount, symbol);
      void toast(t('walletLive.toast', { title: item.title, amount }), 'primary');
    });
    dispatch(baseApi.util.invalidateTags([{ type: 'Entity', id: 'wallet' }]));
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
          {t('walletLive.updated', { title: last.title, amount: formatMoney(last.amount, last.symbol) })}
        </Callout>
      )}
      <EntityScreens view={walletView} />
      <p className="bp6-text-muted bp6-text-small">
        {t('walletModule.version', { version: WALLET_VERSION })}
      </p>
    </>
  );
}
