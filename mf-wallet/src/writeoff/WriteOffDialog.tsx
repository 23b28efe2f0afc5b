import {
  Button,
  Callout,
  Checkbox,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  HTMLTable,
  NonIdealState,
  ProgressBar,
  SegmentedControl,
  Spinner,
} from '@blueprintjs/core';
import {
  dec,
  decFormat,
  formatMoney,
  MESSAGES,
  ORDER_STAGE_LABELS,
  sumMoney,
  type OrderDue,
  type OrderStage,
  type PaymentKind,
  type Wallet,
} from '@caravan/contracts';
import { toast, type AppStore } from '@caravan/ui-kit';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { Link } from 'react-router-dom';
import {
  moneyChanged,
  useWalletDuesQuery,
  useWalletPayOrderMutation,
  useWalletPrepareOrderMutation,
} from '../store/walletApi';
import { isDefaultWallet, isRoubleWallet } from '../widget/wallets';
import '../wallet.css';

const PAGE_SIZES = [20, 50] as const;
type PageSize = (typeof PAGE_SIZES)[number];
/** The delivery first, then the goods (spec §4 write-off: 'pay delivery and product amounts in sequence'). */
const KINDS: PaymentKind[] = ['delivery', 'product'];

const amountOf = (text: string) => {
  try {
    return dec(text);
  } catch {
    return 0n;
  }
};
/** The smaller of what the table showed and what is payable now: never more than the user agreed to. */
const lesser = (a: string, b: string) => (amountOf(a) <= amountOf(b) ? a : b);

type Failure = { title: string; message: string };

/**
 * The write-off (spec §2, §4, §5): the client's orders with something to pay, 20 or 50 a page; the
 * chosen ones are paid from a wallet (read-only when the client has one; the default chosen first),
 * the delivery and then the goods of each order, one order after another. The sum of the choice and,
 * when the wallet holds less, 'не хватает: X ₽' with the button disabled. A refusal stops the run and
 * names the order.
 */
export function WriteOffDialog({
  wallet,
  wallets,
  onClose,
}: {
  wallet: Wallet;
  wallets: readonly Wallet[];
  onClose(): void;
}) {
  const { t } = useTranslation();
  const dispatch = useDispatch<AppStore['dispatch']>();
  const clientId = wallet.client_id;
  const choices = wallets.filter((w) => w.client_id === clientId && isRoubleWallet(w));
  const preferred =
    choices.find(isDefaultWallet) ?? choices.find((w) => w.id === wallet.id) ?? choices[0] ?? null;
  const [payFromId, setPayFromId] = useState<number | null>(preferred?.id ?? null);
  const payFrom = choices.find((w) => w.id === payFromId) ?? preferred;
  const [perPage, setPerPage] = useState<PageSize>(20);
  const [page, setPage] = useState(1);
  const { data, error, isFetching } = useWalletDuesQuery({ client_id: clientId, page, per_page: perPage });
  const [selected, setSelected] = useState<ReadonlyMap<number, OrderDue>>(new Map());
  const [progress, setProgress] = useState<{ done: number; title: string } | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [prepare] = useWalletPrepareOrderMutation();
  const [pay] = useWalletPayOrderMutation();

  const rows = data?.rows ?? [];
  // a chosen order on the page shown is kept as the service tells it now (after a partial payment)
  useEffect(() => {
    if (!data) return;
    setSelected((prev) => {
      const fresh = data.rows.filter((r) => prev.has(r.id) && prev.get(r.id)!.due !== r.due);
      if (!fresh.length) return prev;
      const next = new Map(prev);
      for (const r of fresh) next.set(r.id, r);
      return next;
    });
  }, [data]);
  const pages = Math.max(1, Math.ceil((data?.count ?? 0) / perPage));
  const chosen = [...selected.values()];
  const total = sumMoney(chosen.map((d) => d.due));
  const shortfall = payFrom ? amountOf(total) - amountOf(String(payFrom.amount)) : amountOf(total);
  const running = progress !== null;
  const allOnPage = rows.length > 0 && rows.every((r) => selected.has(r.id));

  const toggle = (row: OrderDue) =>
    setSelected((prev) => {
      const next = new Map(prev);
      if (next.has(row.id)) next.delete(row.id);
      else next.set(row.id, row);
      return next;
    });
  const togglePage = () =>
    setSelected((prev) => {
      const next = new Map(prev);
      for (const r of rows)
        if (allOnPage) next.delete(r.id);
        else next.set(r.id, r);
      return next;
    });

  const unselect = (id: number) =>
    setSelected((prev) => {
      const next = new Map(prev);
      next.delete(id);
      return next;
    });
  const run = async () => {
    if (!payFrom || !chosen.length) return;
    setFailure(null);
    for (const [i, order] of chosen.entries()) {
      setProgress({ done: i, title: order.title });
      try {
        const now = await prepare({ id: order.id }).unwrap();
        for (const kind of KINDS) {
          const shown = kind === 'delivery' ? order.delivery_due : order.product_due;
          const payable = kind === 'delivery' ? now.delivery_due : now.product_due;
          const amount = lesser(shown, payable);
          if (amountOf(amount) <= 0n) continue;
          await pay({ id: order.id, kind, type: 'wallet', wallet_id: payFrom.id, amount }).unwrap();
        }
        unselect(order.id);
      } catch (err) {
        // named in the message; still owing, it is in the table again to tick with what it owes now
        unselect(order.id);
        setFailure({
          title: order.title,
          message: (err as { message?: string }).message ?? MESSAGES.somethingWentWrong,
        });
        setProgress(null);
        dispatch(moneyChanged());
        return;
      }
    }
    setProgress(null);
    dispatch(moneyChanged());
    void toast(t('wallets.writeOff.done'), 'success');
    onClose();
  };

  const symbol = '₽';
  return (
    <Dialog
      isOpen
      className="mfw-dialog mfw-writeoff"
      icon="shopping-cart"
      title={t('wallets.writeOff.title')}
      onClose={running ? undefined : onClose}
      canOutsideClickClose={!running}
      canEscapeKeyClose={!running}
      isCloseButtonShown={!running}
    >
      <DialogBody>
        <div className="mfw-writeoff-head">
          <FormGroup label={t('wallets.writeOff.payFrom')} labelFor="mfw-writeoff-wallet" inline>
            {choices.length > 1 ? (
              <HTMLSelect
                id="mfw-writeoff-wallet"
                value={payFrom?.id ?? ''}
                disabled={running}
                onChange={(e) => setPayFromId(Number(e.currentTarget.value))}
                options={choices.map((w) => ({
                  value: w.id,
                  label: `${w.title}${isDefaultWallet(w) ? ' ★' : ''} — ${formatMoney(w.amount, symbol)}`,
                }))}
              />
            ) : (
              <span className="mfw-readonly" id="mfw-writeoff-wallet" data-testid="writeoff-wallet">
                {payFrom
                  ? `${payFrom.title} — ${formatMoney(payFrom.amount, symbol)}`
                  : t('wallets.noWallets')}
              </span>
            )}
          </FormGroup>
          <FormGroup label={t('wallets.writeOff.perPage')} inline>
            <SegmentedControl
              size="small"
              intent="primary"
              disabled={running}
              options={PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) }))}
              value={String(perPage)}
              onValueChange={(value) => {
                setPerPage(Number(value) as PageSize);
                setPage(1);
              }}
            />
          </FormGroup>
        </div>
        {error ? (
          <Callout intent="danger">
            {(error as { message?: string }).message ?? MESSAGES.somethingWentWrong}
          </Callout>
        ) : !data ? (
          <Spinner size={24} />
        ) : rows.length === 0 ? (
          <NonIdealState icon="tick" title={t('wallets.writeOff.nothingDue')} />
        ) : (
          <div className="mfw-table-wrap">
            <HTMLTable compact striped interactive className="mfw-dues" data-testid="writeoff-table">
              <thead>
                <tr>
                  <th>
                    <Checkbox
                      checked={allOnPage}
                      indeterminate={!allOnPage && rows.some((r) => selected.has(r.id))}
                      disabled={running}
                      aria-label={t('wallets.writeOff.selectPage')}
                      onChange={togglePage}
                    />
                  </th>
                  <th>{t('wallets.writeOff.order')}</th>
                  <th className="mfw-hide-phone">{t('wallets.writeOff.stage')}</th>
                  <th className="mfw-num mfw-hide-phone">{t('wallets.writeOff.productDue')}</th>
                  <th className="mfw-num mfw-hide-phone">{t('wallets.writeOff.deliveryDue')}</th>
                  <th className="mfw-num">{t('wallets.writeOff.due')}</th>
                </tr>
              </thead>
              <tbody className={isFetching ? 'mfw-stale' : undefined}>
                {rows.map((r) => (
                  <tr key={r.id} data-testid={`writeoff-row-${r.id}`} onClick={() => !running && toggle(r)}>
                    <td onClick={(e) => e.stopPropagation()}>
                      <Checkbox
                        checked={selected.has(r.id)}
                        disabled={running}
                        aria-label={r.title}
                        onChange={() => toggle(r)}
                      />
                    </td>
                    <td>
                      <Link to={`/client_order/${r.id}`} onClick={(e) => e.stopPropagation()}>
                        {r.title}
                      </Link>
                    </td>
                    <td className="mfw-hide-phone">
                      {t(`enums.stage.${r.stage}`, {
                        defaultValue: ORDER_STAGE_LABELS[r.stage as OrderStage] ?? r.stage,
                      })}
                    </td>
                    <td className="mfw-num mfw-hide-phone">{formatMoney(r.product_due)}</td>
                    <td className="mfw-num mfw-hide-phone">{formatMoney(r.delivery_due)}</td>
                    <td className="mfw-num">
                      <strong>{formatMoney(r.due)}</strong>
                    </td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
        )}
        {data && pages > 1 && (
          <div className="mfw-pager">
            <Button
              size="small"
              icon="chevron-left"
              aria-label={t('wallets.writeOff.prev')}
              disabled={page <= 1 || running}
              onClick={() => setPage((p) => p - 1)}
            />
            <span>{t('wallets.writeOff.page', { page, pages })}</span>
            <Button
              size="small"
              icon="chevron-right"
              aria-label={t('wallets.writeOff.next')}
              disabled={page >= pages || running}
              onClick={() => setPage((p) => p + 1)}
            />
          </div>
        )}
        {data && (
          <p className="bp6-text-muted mfw-dues-total">
            {t('wallets.writeOff.totalDue', { amount: formatMoney(data.total_due), count: data.count })}
          </p>
        )}
        {chosen.length > 0 && (
          <div className="mfw-selection" data-testid="writeoff-selection">
            <span>
              {t('wallets.writeOff.selected', { count: chosen.length, amount: formatMoney(total) })}
            </span>
            {shortfall > 0n && (
              <strong className="mfw-shortfall" data-testid="writeoff-shortfall">
                {t('wallets.writeOff.shortfall', { amount: formatMoney(decFormat(shortfall)) })}
              </strong>
            )}
          </div>
        )}
        {progress && (
          <div className="mfw-progress" data-testid="writeoff-progress">
            <span>
              {t('wallets.writeOff.progress', {
                n: progress.done + 1,
                count: progress.done + chosen.length,
                title: progress.title,
              })}
            </span>
            <ProgressBar intent="primary" value={(progress.done + 0.5) / (progress.done + chosen.length)} />
          </div>
        )}
        {failure && (
          <Callout intent="danger" icon="error" className="mfw-gap" data-testid="writeoff-failure">
            {t('wallets.writeOff.failed', { title: failure.title })} {failure.message}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('common.cancel')} disabled={running} onClick={onClose} />
            {chosen.length > 0 && (
              <Button
                intent="primary"
                icon="shopping-cart"
                text={t('wallets.writeOff.pay', { amount: formatMoney(total) })}
                loading={running}
                disabled={!payFrom || shortfall > 0n}
                onClick={() => void run()}
              />
            )}
          </>
        }
      />
    </Dialog>
  );
}
