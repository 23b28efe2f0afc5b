import {
  Button,
  Callout,
  Checkbox,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  InputGroup,
  NonIdealState,
  Radio,
  RadioGroup,
  Spinner,
} from '@blueprintjs/core';
import {
  ACQUIRING_STATE_LABELS,
  CURRENCY,
  amountWithFee,
  formatMoney,
  PAYMENT_KIND_LABELS,
  PAYMENT_MESSAGES,
  PAYMENT_METHOD_LABELS,
  PRODUCT_TITLE,
  type AcquiringMethod,
  type PaymentKind,
} from '@caravan/contracts';
import {
  postApi,
  toast,
  useCurrentUser,
  useDocumentGetQuery,
  useDocumentSaveMutation,
  userIsAdmin,
  type AppStore,
} from '@caravan/ui-kit';
import type { SlotProps } from '@caravan/slots';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import {
  amountProblem,
  moneyChanged,
  useWalletPrepareOrderMutation,
  useWalletsOfUserQuery,
  type SbpCreated,
} from '../store/walletApi';
import { BankPayment, type BankOutcome } from './BankPayment';
import { useOrderPaymentMutation } from './api';
import './i18n';

type Method = 'img' | 'link' | 'card' | 'wallet' | 'manual' | 'in_cdek' | 'later';
type Step =
  | { kind: 'choose' }
  | { kind: 'bank'; method: AcquiringMethod; created: SbpCreated }
  | { kind: 'done'; message: string }
  | { kind: 'failed'; message: string }
  | { kind: 'expired'; message: string };

const STATE_FIELD: Record<PaymentKind, string> = {
  product: 'product_payment_state',
  delivery: 'delivery_payment_state',
};

/**
 * The order payment dialog (spec orders-payments-calls §2, §4; ADR 0012), shown on the order card:
 * asks the service whether the order can be paid here ('оплата в Caravan недоступна: …'), then what to
 * pay (goods or delivery, up to what is due) and how — QR, SBP link, card (through the bank, with the
 * method's fee), a wallet, 'оплата в СДЭК' (only with a CDEK waybill), 'оплатить позже', or an admin's
 * mark — and shows the result: the spec's success text, or 'ошибка' with the server's description.
 */
export default function PaymentDialog({ orderId, onClose }: SlotProps['order-payment']) {
  const { t } = useTranslation();
  const dispatch = useDispatch<AppStore['dispatch']>();
  const user = useCurrentUser();
  const admin = userIsAdmin(user);
  const { data: order } = useDocumentGetQuery({ entity: 'client_order', id: orderId });
  const [prepare, prepared] = useWalletPrepareOrderMutation();
  const { data: wallets } = useWalletsOfUserQuery();
  const [receive, receiving] = useOrderPaymentMutation();
  const [saveOrder, saving] = useDocumentSaveMutation();
  const [kind, setKind] = useState<PaymentKind>('product');
  const [method, setMethod] = useState<Method>('img');
  const [amount, setAmount] = useState('');
  const [walletId, setWalletId] = useState<number | null>(null);
  const [test, setTest] = useState(false);
  const [comment, setComment] = useState('');
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const [creating, setCreating] = useState(false);

  useEffect(() => {
    void prepare({ id: orderId });
  }, [prepare, orderId]);
  const dues = prepared.data;
  const due = dues ? (kind === 'product' ? dues.product_due : dues.delivery_due) : '0';
  useEffect(() => {
    if (!dues) return;
    // the part with something due first, its whole due as the amount
    const first: PaymentKind = Number(dues.product_due) > 0 ? 'product' : 'delivery';
    setKind(first);
    setAmount(first === 'product' ? dues.product_due : dues.delivery_due);
  }, [dues]);

  const clientWallets = useMemo(
    () =>
      (wallets?.items ?? []).filter(
        (w) =>
          Number(w.client_id) === Number(order?.client_id) &&
          Number(w.currency_id) === CURRENCY.RUB &&
          !w.deleted,
      ),
    [wallets, order?.client_id],
  );
  useEffect(() => {
    if (walletId !== null || !clientWallets.length) return;
    const preferred = clientWallets.find(
      (w) => (w as { options?: { is_default?: boolean } }).options?.is_default,
    );
    setWalletId((preferred ?? clientWallets[0])!.id);
  }, [clientWallets, walletId]);

  const withCarrier = Boolean(order?.transport_company_rus_order_uuid);
  // the amount as typed, or as the card shows it ('32 383,63'): spaces out, a decimal comma as a point
  const typed = amount.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.');
  // a way of paying later is chosen only while nothing of that part is paid (the service says the same)
  const partPaid = Number(order?.[kind === 'product' ? 'product_paid_rur' : 'delivery_paid_rur'] ?? 0) > 0;
  const choice = method === 'in_cdek' || method === 'later';
  const problem = choice
    ? partPaid
      ? PAYMENT_MESSAGES.paidByPayments
      : null
    : (amountProblem(typed) ?? (Number(typed) > Number(due) ? PAYMENT_MESSAGES.tooMuch(due) : null));
  const chosenWallet = clientWallets.find((w) => w.id === walletId);
  const walletShort = method === 'wallet' && chosenWallet && Number(chosenWallet.amount) < Number(typed);
  const bank = method === 'img' || method === 'link' || method === 'card';
  const toPay = bank && !problem ? amountWithFee(typed, method) : null;

  const finish = (message: string) => {
    dispatch(moneyChanged());
    setStep({ kind: 'done', message });
    void toast(message, 'success');
  };
  const pay = async () => {
    if (method === 'in_cdek' || method === 'later') {
      try {
        await saveOrder({
          entity: 'client_order',
          values: { id: orderId, [STATE_FIELD[kind]]: method === 'in_cdek' ? 'in_cdek' : 'in_caravan' },
        }).unwrap();
        finish(PAYMENT_MESSAGES.stateChanged);
      } catch (err) {
        setStep({ kind: 'failed', message: (err as { message: string }).message });
      }
      return;
    }
    if (method === 'wallet' || method === 'manual') {
      try {
        const result = await receive({
          id: orderId,
          kind,
          type: method,
          amount: typed,
          ...(method === 'wallet' && walletId ? { wallet_id: walletId } : {}),
          ...(admin ? { test, comment } : {}),
        }).unwrap();
        finish(result.message);
      } catch (err) {
        setStep({ kind: 'failed', message: (err as { message: string }).message });
      }
      return;
    }
    setCreating(true);
    const reply = await postApi<SbpCreated>('modul_sbp_create', {
      type: method,
      operation_type: 'client_order',
      order_id: orderId,
      kind,
      amount: typed,
      ...(admin ? { test, comment } : {}),
    });
    setCreating(false);
    if (!reply.ok) return setStep({ kind: 'failed', message: reply.message ?? '' });
    const created = reply.result as SbpCreated;
    if (created.bill) window.open(created.bill.url, '_blank', 'noopener');
    setStep({ kind: 'bank', method, created });
  };
  const settled = (outcome: BankOutcome) =>
    outcome.state === 'done'
      ? finish(outcome.message)
      : setStep({ kind: outcome.state, message: outcome.message });

  const title = t('payment.title', { order: String(order?.title || `№${orderId}`) });
  let body: React.ReactNode;
  let footer: React.ReactNode = <Button text={t('payment.close')} onClick={onClose} />;
  if (prepared.isError)
    body = (
      <Callout intent="warning" icon="info-sign" data-testid="payment-unavailable">
        {(prepared.error as { message?: string }).message}
      </Callout>
    );
  else if (!dues || !order) body = <NonIdealState icon={<Spinner />} />;
  else if (step.kind === 'bank')
    body = (
      <BankPayment
        method={step.method}
        created={step.created}
        stream="client_order_item"
        param={orderId}
        onSettled={settled}
      />
    );
  else if (step.kind === 'done')
    body = (
      <NonIdealState
        icon="tick-circle"
        title={PAYMENT_MESSAGES.done}
        description={step.message}
        className="caravan-payment-result"
      />
    );
  else if (step.kind === 'expired')
    body = (
      <NonIdealState
        icon="time"
        title={ACQUIRING_STATE_LABELS.expired}
        description={<div data-testid="payment-expired">{step.message}</div>}
      />
    );
  else if (step.kind === 'failed')
    body = (
      <NonIdealState
        icon="error"
        title={t('payment.error')}
        description={
          <>
            <div>{t('payment.errorDescription')}</div>
            <div data-testid="payment-error">{step.message}</div>
          </>
        }
      />
    );
  else {
    body = (
      <div className="caravan-payment-form">
        <div className="caravan-payment-dues" data-testid="payment-dues">
          <span>
            {t('payment.productDue')}: <b>{formatMoney(dues.product_due)}</b>
          </span>
          <span>
            {t('payment.deliveryDue')}: <b>{formatMoney(dues.delivery_due)}</b>
          </span>
        </div>
        <RadioGroup
          inline
          label={t('payment.what')}
          selectedValue={kind}
          onChange={(e) => {
            const next = e.currentTarget.value as PaymentKind;
            setKind(next);
            setAmount(next === 'product' ? dues.product_due : dues.delivery_due);
          }}
        >
          {(['product', 'delivery'] as const).map((k) => (
            <Radio
              key={k}
              value={k}
              label={t(`payment.kind.${k}`, { defaultValue: PAYMENT_KIND_LABELS[k] })}
              disabled={Number(k === 'product' ? dues.product_due : dues.delivery_due) <= 0}
            />
          ))}
        </RadioGroup>
        <RadioGroup
          label={t('payment.how')}
          selectedValue={method}
          onChange={(e) => setMethod(e.currentTarget.value as Method)}
        >
          {(['img', 'link', 'card', 'wallet'] as const).map((m) => (
            <Radio
              key={m}
              value={m}
              label={t(`payment.method.${m}`, { defaultValue: PAYMENT_METHOD_LABELS[m] })}
            />
          ))}
          {withCarrier && <Radio value="in_cdek" label={t('payment.inCdek')} />}
          <Radio value="later" label={t('payment.later', { product: PRODUCT_TITLE })} />
          {admin && <Radio value="manual" label={t('payment.manual')} />}
        </RadioGroup>
        {choice && problem && (
          <Callout intent="warning" icon="info-sign">
            {problem}
          </Callout>
        )}
        {!choice && (
          <FormGroup
            label={t('payment.amount')}
            labelFor="payment-amount"
            intent={problem ? 'danger' : 'none'}
            helperText={problem ?? (toPay ? t('payment.withFee', { amount: formatMoney(toPay) }) : undefined)}
          >
            <InputGroup
              id="payment-amount"
              inputMode="decimal"
              value={amount}
              onValueChange={setAmount}
              rightElement={<span className="caravan-input-unit">₽</span>}
            />
          </FormGroup>
        )}
        {method === 'wallet' && (
          <FormGroup
            label={t('payment.wallet')}
            labelFor="payment-wallet"
            helperText={walletShort ? t('payment.short') : undefined}
            intent={walletShort ? 'danger' : 'none'}
          >
            {clientWallets.length ? (
              <HTMLSelect
                id="payment-wallet"
                fill
                value={walletId ?? ''}
                disabled={clientWallets.length === 1}
                onChange={(e) => setWalletId(Number(e.currentTarget.value))}
                options={clientWallets.map((w) => ({
                  value: w.id,
                  label: `${w.title} — ${formatMoney(w.amount)}`,
                }))}
              />
            ) : (
              <Callout intent="warning">{PAYMENT_MESSAGES.noWallet}</Callout>
            )}
          </FormGroup>
        )}
        {admin && (
          <>
            <FormGroup label={t('payment.comment')} labelFor="payment-comment">
              <InputGroup id="payment-comment" value={comment} onValueChange={setComment} />
            </FormGroup>
            <Checkbox
              label={t('payment.test')}
              checked={test}
              onChange={(e) => setTest(e.currentTarget.checked)}
            />
          </>
        )}
      </div>
    );
    footer = (
      <>
        <Button text={t('payment.cancel')} onClick={onClose} />
        <Button
          intent="primary"
          text={t(bank ? 'payment.payBank' : choice ? 'payment.save' : 'payment.pay')}
          data-testid="payment-pay"
          loading={creating || receiving.isLoading || saving.isLoading}
          disabled={Boolean(problem) || Boolean(walletShort) || (method === 'wallet' && !chosenWallet)}
          onClick={() => void pay()}
        />
      </>
    );
  }
  return (
    <Dialog isOpen title={title} icon="credit-card" onClose={onClose} className="caravan-payment-dialog">
      <DialogBody>{body}</DialogBody>
      <DialogFooter actions={footer} />
    </Dialog>
  );
}
