import { AnchorButton, Button, ControlGroup, InputGroup, Spinner } from '@blueprintjs/core';
import {
  formatMoney,
  PAYMENT_METHOD_LABELS,
  type AcquiringMethod,
  type AcquiringPayment,
} from '@caravan/contracts';
import { toast, useDocumentGetQuery, useServerEvents } from '@caravan/ui-kit';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { SbpCreated } from '../store/walletApi';
import '../wallet.css';

/** How often the waiting dialog asks for the payment itself, in case the live stream dropped it. */
const POLL_MS = 4000;

/**
 * A payment through the bank as it settled: done (with what it credited), failed (with why), or expired
 * — its callback never came and the reconciliation learned from the bank it will not be paid (ADR 0014).
 */
export type BankOutcome = Pick<AcquiringPayment, 'amount' | 'message'> & {
  state: 'done' | 'failed' | 'expired';
};
const SETTLED: readonly unknown[] = ['done', 'failed', 'expired'] satisfies BankOutcome['state'][];
const isSettled = (state: unknown): state is BankOutcome['state'] => SETTLED.includes(state);

/**
 * The payer's part of a payment through the bank, for a top-up and for an order alike (spec §9: for QR,
 * link and card the dialog waits until the server pushes the update): the QR image, the SBP link or the
 * card page, and a spinner until the payment settles. The payment is read from the stream of its wallet
 * or its order (`stream`, `param`); every few seconds it is also asked for (a dropped stream, or an answer
 * that came before the stream opened).
 */
export function BankPayment({
  method,
  created,
  stream,
  param,
  onSettled,
}: {
  method: AcquiringMethod;
  created: SbpCreated;
  stream: 'wallet_item' | 'client_order_item';
  param: number;
  onSettled(outcome: BankOutcome): void;
}) {
  const { t } = useTranslation();
  const settled = useRef(false);
  const settle = (row: Partial<AcquiringPayment>) => {
    if (settled.current || !isSettled(row.state)) return;
    settled.current = true;
    onSettled({ state: row.state, amount: String(row.amount ?? ''), message: String(row.message ?? '') });
  };
  useServerEvents(
    stream,
    param,
    (event) => {
      if (!event.ok) return void toast(t('sse.error'), 'danger');
      const entity = (event as { entity?: string }).entity;
      if (entity === 'acquiring_payment' && event.id === created.payment_id)
        settle(event.item as Partial<AcquiringPayment>);
    },
    t('sse.failed'),
  );
  const { data } = useDocumentGetQuery(
    { entity: 'acquiring_payment', id: created.payment_id },
    { pollingInterval: POLL_MS, refetchOnMountOrArgChange: true },
  );
  useEffect(() => {
    if (data) settle(data as Partial<AcquiringPayment>);
  });

  const label = t(`wallets.methods.${method}`, { defaultValue: PAYMENT_METHOD_LABELS[method] });
  const payerUrl = created.sbp_link ?? created.bill?.url ?? '';
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(payerUrl);
      void toast(t('wallets.copied'), 'success');
    } catch {
      void toast(payerUrl, 'none');
    }
  };
  return (
    <div className="mfw-waiting" data-testid="bank-waiting">
      {created.amount_with_fee && (
        <p className="mfw-to-pay" data-testid="bank-amount">
          {t('wallets.topUp.toPay', { amount: formatMoney(created.amount_with_fee) })}
        </p>
      )}
      {method === 'img' && created.image && (
        <img
          className="mfw-qr"
          src={`data:image/png;base64,${created.image}`}
          alt={label}
          data-testid="bank-qr"
        />
      )}
      {method === 'img' && <p className="bp6-text-muted">{t('wallets.topUp.scanQr')}</p>}
      {method === 'link' && (
        <ControlGroup fill className="mfw-link">
          <InputGroup readOnly value={payerUrl} aria-label={label} />
          <Button icon="duplicate" aria-label={t('wallets.copy')} title={t('wallets.copy')} onClick={copy} />
        </ControlGroup>
      )}
      {method === 'card' && <p className="bp6-text-muted">{t('wallets.topUp.cardOpened')}</p>}
      {payerUrl && (
        <AnchorButton
          href={payerUrl}
          target="_blank"
          rel="noopener noreferrer"
          icon="share"
          variant={method === 'img' ? 'minimal' : 'solid'}
          intent="primary"
          text={t('wallets.topUp.openPayPage')}
          data-testid="bank-pay-link"
        />
      )}
      <div className="mfw-waiting-spinner">
        <Spinner size={24} />
        <span>{t('wallets.topUp.waiting')}</span>
      </div>
    </div>
  );
}
