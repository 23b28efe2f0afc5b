import { Button, Icon, Menu, MenuDivider, MenuItem, PopoverNext, Spinner } from '@blueprintjs/core';
import { dec, formatMoney, MESSAGES, type Wallet } from '@caravan/contracts';
import {
  ConfirmDialog,
  Money,
  RefTitle,
  setCurrentUser,
  toast,
  useCurrencySymbol,
  useCurrentUser,
  useServerEvents,
  type AppStore,
} from '@caravan/ui-kit';
import { Fragment, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import '../wallet.css';
import {
  duesChanged,
  movementSeen,
  useWalletChangeMutation,
  useWalletDuesQuery,
  useWalletSettingsMutation,
  walletApi,
  walletsChanged,
} from '../store/walletApi';
import { TopUpDialog } from '../topup/TopUpDialog';
import { WriteOffDialog } from '../writeoff/WriteOffDialog';
import {
  byClient,
  isDefaultWallet,
  isEmptyWallet,
  isRoubleWallet,
  shownWallet,
  useUserWallets,
} from './wallets';
import { WalletsDialog, type WalletActions } from './WalletsDialog';

type Dispatch = AppStore['dispatch'];
type Open =
  | { kind: 'topUp'; wallet: Wallet }
  | { kind: 'writeOff'; wallet: Wallet }
  | { kind: 'delete'; wallet: Wallet }
  | null;

const messageOf = (err: unknown) => (err as { message?: string }).message ?? MESSAGES.somethingWentWrong;
const positive = (amount: string | undefined) => {
  try {
    return amount !== undefined && dec(amount) > 0n;
  } catch {
    return false;
  }
};

/** Phones (the shell's breakpoint): the widget shrinks to its balance, the wallet choice sits in the menu itself. */
const PHONE_QUERY = '(max-width: 768px)';
function usePhone() {
  const [phone, setPhone] = useState(() => window.matchMedia(PHONE_QUERY).matches);
  useEffect(() => {
    const list = window.matchMedia(PHONE_QUERY);
    const update = () => setPhone(list.matches);
    list.addEventListener('change', update);
    return () => list.removeEventListener('change', update);
  }, []);
  return phone;
}

/**
 * The user's wallets kept live from `wallet_item` (all the wallets they may see, one stream): a
 * wallet's new balance goes into the cached list at once; a movement refetches what the orders owe.
 */
function useLiveWallets() {
  const { t } = useTranslation();
  const dispatch = useDispatch<Dispatch>();
  useServerEvents(
    'wallet_item',
    undefined,
    (event) => {
      if (!event.ok) return void toast(t('sse.error'), 'danger');
      const entity = (event as { entity?: string }).entity ?? 'wallet';
      if (entity === 'fin_operation') return void dispatch(movementSeen());
      if (entity !== 'wallet') return;
      const row = event.item as unknown as Wallet;
      let known = false;
      dispatch(
        walletApi.util.updateQueryData('walletsOfUser', undefined, (draft) => {
          const i = draft.items.findIndex((w) => w.id === event.id);
          if (i < 0 || row.deleted) return;
          known = true;
          draft.items[i] = { ...draft.items[i]!, ...row };
        }),
      );
      if (!known) dispatch(walletsChanged());
    },
    t('sse.failed'),
  );
}

/** Order changes in a burst (a bulk step, a consolidation) ask for the dues once. */
const DUES_REFETCH_AFTER_MS = 500;

/**
 * 'к оплате' kept live: an order of the client changing (the operator asks for payment, an admin marks it
 * paid) asks for the dues again, once per burst. Positions' changes reach the order's own event.
 */
function useLiveDues() {
  const dispatch = useDispatch<Dispatch>();
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (pending.current) clearTimeout(pending.current);
    },
    [],
  );
  useServerEvents('order', undefined, (event) => {
    if (!event.ok || (event as { entity?: string }).entity !== 'client_order' || pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      dispatch(duesChanged());
    }, DUES_REFETCH_AFTER_MS);
  });
}

/**
 * The wallet widget in the shell's header (spec §2; clients only): the shown wallet's title, balance
 * and default marker, and 'к оплате' of the client's orders. Its menu: top-up, make default
 * (auto-debit), show in widget, pay orders (the write-off), all wallets, delete (an empty wallet).
 */
export default function WalletWidget() {
  const { t } = useTranslation();
  const dispatch = useDispatch<Dispatch>();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const { wallets, isLoading, error } = useUserWallets();
  const shown = shownWallet(wallets, user);
  const symbol = useCurrencySymbol(shown?.currency_id);
  const { data: dues } = useWalletDuesQuery(
    { client_id: shown?.client_id, page: 1, per_page: 20 },
    { skip: !shown },
  );
  const [open, setOpen] = useState<Open>(null);
  const [listOpen, setListOpen] = useState(false);
  const [change] = useWalletChangeMutation();
  const [storeSettings] = useWalletSettingsMutation();
  const phone = usePhone();
  useLiveWallets();
  useLiveDues();

  const actions: WalletActions = {
    topUp: (wallet) => setOpen({ kind: 'topUp', wallet }),
    remove: (wallet) => setOpen({ kind: 'delete', wallet }),
    // a toggle: the default wallet's item turns auto-debit off (no default wallet then)
    makeDefault: async (wallet) => {
      const on = !isDefaultWallet(wallet);
      try {
        await change({ id: wallet.id, options: { is_default: on } }).unwrap();
        void toast(t(on ? 'wallets.madeDefault' : 'wallets.defaultOff', { title: wallet.title }), 'success');
      } catch (err) {
        void toast(messageOf(err), 'danger');
      }
    },
    showInWidget: async (wallet) => {
      try {
        dispatch(setCurrentUser(await storeSettings({ wallet_widget_id: wallet.id }).unwrap()));
      } catch (err) {
        void toast(messageOf(err), 'danger');
      }
    },
  };
  const remove = async (wallet: Wallet) => {
    setOpen(null);
    try {
      await change({ id: wallet.id, deleted: true }).unwrap();
      void toast(t('wallets.deleted', { title: wallet.title }), 'success');
    } catch (err) {
      void toast(messageOf(err), 'danger');
    }
  };

  if (isLoading) return <Spinner size={16} className="mfw-widget-spinner" />;
  if (error)
    return (
      <Button variant="minimal" icon="offline" title={messageOf(error)} aria-label={t('layout.wallet')} />
    );
  if (!shown)
    return (
      <Button
        variant="minimal"
        icon="bank-account"
        disabled
        className="mfw-widget mfw-widget-empty"
        text={<span className="mfw-widget-title">{t('wallets.noWallets')}</span>}
      />
    );

  // a dialog shows the wallet as it is now (its balance follows the live stream)
  const latest = (wallet: Wallet) => wallets.find((w) => w.id === wallet.id) ?? wallet;
  const balance = formatMoney(shown.amount, symbol);
  const totalDue = positive(dues?.total_due) ? formatMoney(dues!.total_due) : null;
  const groups = byClient(wallets);
  // 'показывать в виджете': the user's wallets, by client when there are several
  const choices = groups.map((g) => (
    <Fragment key={g.clientId}>
      {groups.length > 1 && <MenuDivider title={<RefTitle entity="client" id={g.clientId} />} />}
      {g.wallets.map((w) => (
        <MenuItem
          key={w.id}
          roleStructure="listoption"
          selected={w.id === shown.id}
          text={`${w.title}${isDefaultWallet(w) ? ' ★' : ''}`}
          labelElement={<Money amount={w.amount} currencyId={w.currency_id} />}
          onClick={() => void actions.showInWidget(w)}
        />
      ))}
    </Fragment>
  ));
  const menu = (
    <Menu className="mfw-menu" data-testid="wallet-menu">
      <MenuDivider
        title={
          <>
            {shown.title} · {balance}
            {totalDue && <div className="mfw-menu-due">{t('wallets.due', { amount: totalDue })}</div>}
          </>
        }
      />
      <MenuItem icon="add" text={t('wallets.topUp.action')} onClick={() => actions.topUp(shown)} />
      <MenuItem
        icon={isDefaultWallet(shown) ? 'star-empty' : 'star'}
        text={t(isDefaultWallet(shown) ? 'wallets.turnDefaultOff' : 'wallets.makeDefault')}
        disabled={!isRoubleWallet(shown)}
        title={isRoubleWallet(shown) ? undefined : t('wallets.defaultRoubleOnly')}
        onClick={() => void actions.makeDefault(shown)}
      />
      {phone ? (
        <>
          <MenuDivider title={t('wallets.showInWidget')} />
          {choices}
          <MenuDivider />
        </>
      ) : (
        <MenuItem icon="eye-open" text={t('wallets.showInWidget')}>
          {choices}
        </MenuItem>
      )}
      <MenuItem
        icon="shopping-cart"
        text={t('wallets.writeOff.action')}
        onClick={() => setOpen({ kind: 'writeOff', wallet: shown })}
      />
      <MenuItem icon="th-list" text={t('wallets.all')} onClick={() => setListOpen(true)} />
      <MenuItem icon="exchange" text={t('wallets.operations')} onClick={() => navigate('/fin_operation')} />
      <MenuDivider />
      <MenuItem
        icon="trash"
        intent="danger"
        text={t('wallets.delete')}
        title={isEmptyWallet(shown) ? undefined : t('wallets.deleteOnlyEmpty')}
        disabled={!isEmptyWallet(shown)}
        onClick={() => actions.remove(shown)}
      />
    </Menu>
  );

  return (
    <>
      <PopoverNext placement="bottom-end" content={menu}>
        <Button
          variant="minimal"
          className="mfw-widget"
          data-testid="wallet-widget"
          endIcon="caret-down"
          aria-label={`${t('layout.wallet')}: ${shown.title}, ${balance}${totalDue ? `, ${t('wallets.due', { amount: totalDue })}` : ''}`}
        >
          <span className="mfw-widget-body">
            <Icon icon="bank-account" className="mfw-widget-icon" />
            <span className="mfw-widget-lines">
              <span className="mfw-widget-name">
                <span className="mfw-widget-title">{shown.title}</span>
                {isDefaultWallet(shown) && (
                  <Icon
                    icon="star"
                    size={12}
                    intent="warning"
                    className="mfw-star"
                    title={t('wallets.default')}
                  />
                )}
              </span>
              <span className="mfw-widget-balance" data-testid="wallet-widget-balance">
                {balance}
              </span>
            </span>
            {totalDue && (
              <span className="mfw-widget-due" data-testid="wallet-widget-due">
                {t('wallets.due', { amount: totalDue })}
              </span>
            )}
          </span>
        </Button>
      </PopoverNext>
      {listOpen && (
        <WalletsDialog
          wallets={wallets}
          loading={isLoading}
          shownId={shown.id}
          actions={actions}
          onClose={() => setListOpen(false)}
        />
      )}
      {open?.kind === 'topUp' && (
        <TopUpDialog wallet={latest(open.wallet)} wallets={wallets} onClose={() => setOpen(null)} />
      )}
      {open?.kind === 'writeOff' && (
        <WriteOffDialog wallet={latest(open.wallet)} wallets={wallets} onClose={() => setOpen(null)} />
      )}
      <ConfirmDialog
        isOpen={open?.kind === 'delete'}
        intent="danger"
        text={open?.kind === 'delete' ? t('wallets.deleteConfirm', { title: open.wallet.title }) : ''}
        confirmText={t('wallets.delete')}
        onConfirm={() => open?.kind === 'delete' && void remove(open.wallet)}
        onCancel={() => setOpen(null)}
      />
    </>
  );
}
