import {
  Button,
  Callout,
  Checkbox,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  NonIdealState,
  Radio,
  RadioGroup,
  TextArea,
} from '@blueprintjs/core';
import {
  ACQUIRING_STATE_LABELS,
  amountWithFee,
  formatMoney,
  formatPercent,
  PAYMENT_FEE_PERCENT,
  PAYMENT_MESSAGES,
  PAYMENT_METHOD_LABELS,
  type AcquiringMethod,
  type Wallet,
} from '@caravan/contracts';
import {
  NumberInput,
  toast,
  useCurrencySymbol,
  useCurrentUser,
  userIsAdmin,
  type AppStore,
} from '@caravan/ui-kit';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import {
  amountProblem,
  createTopUp,
  moneyChanged,
  useWalletTransferMutation,
  type SbpCreated,
} from '../store/walletApi';
import { BankPayment, type BankOutcome } from '../payment/BankPayment';
import { holdsAtLeast, isRoubleWallet } from '../widget/wallets';
import '../wallet.css';

type Method = AcquiringMethod | 'wallet';
const METHODS: Method[] = ['img', 'link', 'card', 'wallet'];

type Phase =
  | { step: 'form' }
  | { step: 'waiting'; method: AcquiringMethod; created: SbpCreated }
  | { step: 'done'; amount: string }
  | { step: 'failed'; message: string }
  | { step: 'expired'; message: string };

/** A settled payment of the bank: what the dialog shows as its result. */
export const settledPhase = (outcome: BankOutcome): Phase =>
  outcome.state === 'done'
    ? { step: 'done', amount: outcome.amount }
    : outcome.state === 'expired'
      ? { step: 'expired', message: outcome.message }
      : { step: 'failed', message: outcome.message || PAYMENT_MESSAGES.declined };

/**
 * The top-up of a wallet (spec §2 'Top-up dialogs', §9): the method (QR, SBP link, card, another
 * wallet), the amount with the fee the payer pays, an admin's comment and 'тест'. Through the bank it
 * waits, with a spinner, until the service says the payment settled (the live stream, and a poll when
 * the stream is silent), then shows 'готово!' or 'ошибка'. From another wallet: only wallets holding the
 * amount can be chosen, and the transfer is done at once.
 */
export function TopUpDialog({
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
  const admin = userIsAdmin(useCurrentUser());
  const symbol = useCurrencySymbol(wallet.currency_id);
  const viaBank = isRoubleWallet(wallet);
  const [method, setMethod] = useState<Method>(viaBank ? 'img' : 'wallet');
  const [amount, setAmount] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const [comment, setComment] = useState('');
  const [test, setTest] = useState(false);
  const [senderId, setSenderId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [phase, setPhase] = useState<Phase>({ step: 'form' });
  const [transfer] = useWalletTransferMutation();

  const problem = amountProblem(amount);
  const valid = problem === null ? amount : null;
  // told once something is typed, or when the user presses the button with nothing typed
  const shownProblem = amount !== null || touched ? problem : null;
  // the same client's wallets in the same currency: the only ones a transfer can come from
  const senders = wallets.filter(
    (w) => w.id !== wallet.id && w.client_id === wallet.client_id && w.currency_id === wallet.currency_id,
  );
  // an empty wallet can give nothing; with an amount typed, only a wallet holding it is offered
  const canGive = (w: Wallet) => holdsAtLeast(w, valid ?? '0.01');
  const sender = senders.find((w) => w.id === senderId && canGive(w));
  const fee = method === 'wallet' || !valid ? null : amountWithFee(valid, method);
  const extras = admin ? { comment, test } : {};

  const submit = async () => {
    setTouched(true);
    if (!valid) return;
    setBusy(true);
    try {
      if (method === 'wallet') {
        if (!sender) return;
        await transfer({
          sender_wallet_id: sender.id,
          receiver_wallet_id: wallet.id,
          amount: valid,
          ...extras,
        }).unwrap();
        setPhase({ step: 'done', amount: valid });
        return;
      }
      const reply = await createTopUp({ type: method, wallet_id: wallet.id, amount: valid, ...extras });
      if (!reply.ok) return void toast(reply.message, 'danger');
      const url = reply.result.bill?.url;
      if (method === 'card' && url) window.open(url, '_blank', 'noopener');
      setPhase({ step: 'waiting', method, created: reply.result });
    } catch (err) {
      void toast((err as { message?: string }).message ?? PAYMENT_MESSAGES.declined, 'danger');
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    if (phase.step === 'done') dispatch(moneyChanged());
  }, [phase.step, dispatch]);

  const waiting = phase.step === 'waiting';
  const form = phase.step === 'form';
  return (
    <Dialog
      isOpen
      className="mfw-dialog mfw-topup"
      icon="add"
      title={t('wallets.topUp.title', { title: wallet.title })}
      onClose={onClose}
      canOutsideClickClose={form}
      canEscapeKeyClose={!waiting}
    >
      <DialogBody>
        {form && (
          <div data-testid="topup-form">
            <p className="bp6-text-muted mfw-topup-balance">
              {t('wallets.balance')}: {formatMoney(wallet.amount, symbol)}
            </p>
            <RadioGroup
              label={t('wallets.topUp.method')}
              selectedValue={method}
              onChange={(e) => setMethod(e.currentTarget.value as Method)}
              className="mfw-methods"
            >
              {METHODS.map((m) => (
                <Radio
                  key={m}
                  value={m}
                  label={
                    m === 'wallet'
                      ? t('wallets.topUp.fromWallet')
                      : t(`wallets.methods.${m}`, { defaultValue: PAYMENT_METHOD_LABELS[m] })
                  }
                  disabled={m !== 'wallet' && !viaBank}
                />
              ))}
            </RadioGroup>
            {!viaBank && (
              <Callout intent="primary" compact className="mfw-gap">
                {PAYMENT_MESSAGES.currencyRub}
              </Callout>
            )}
            <FormGroup
              label={t('wallets.topUp.amount', { symbol })}
              labelFor="mfw-topup-amount"
              intent={shownProblem ? 'danger' : 'none'}
              helperText={
                shownProblem
                  ? shownProblem
                  : fee
                    ? t('wallets.topUp.withFee', {
                        amount: formatMoney(fee),
                        fee: formatPercent(PAYMENT_FEE_PERCENT[method as AcquiringMethod]),
                      })
                    : undefined
              }
            >
              <NumberInput
                id="mfw-topup-amount"
                value={amount}
                intent={shownProblem ? 'danger' : 'none'}
                onChange={(v) => setAmount(v === null ? null : String(v))}
              />
            </FormGroup>
            {method === 'wallet' && (
              <FormGroup label={t('wallets.topUp.sender')}>
                {senders.length === 0 ? (
                  <Callout compact>{t('wallets.topUp.noSenders')}</Callout>
                ) : (
                  <RadioGroup
                    selectedValue={sender?.id ?? ''}
                    onChange={(e) => setSenderId(Number(e.currentTarget.value))}
                    className="mfw-senders"
                  >
                    {senders.map((w) => (
                      <Radio
                        key={w.id}
                        value={w.id}
                        disabled={!canGive(w)}
                        labelElement={
                          <span className="mfw-sender">
                            <span>{w.title}</span>
                            <span className="mfw-money">{formatMoney(w.amount, symbol)}</span>
                          </span>
                        }
                      />
                    ))}
                  </RadioGroup>
                )}
              </FormGroup>
            )}
            {admin && (
              <>
                <FormGroup label={t('wallets.topUp.comment')} labelFor="mfw-topup-comment">
                  <TextArea
                    id="mfw-topup-comment"
                    fill
                    value={comment}
                    maxLength={500}
                    onChange={(e) => setComment(e.currentTarget.value)}
                  />
                </FormGroup>
                <Checkbox
                  label={t('wallets.topUp.test')}
                  checked={test}
                  onChange={(e) => setTest(e.currentTarget.checked)}
                />
              </>
            )}
          </div>
        )}
        {phase.step === 'waiting' && (
          <BankPayment
            method={phase.method}
            created={phase.created}
            stream="wallet_item"
            param={wallet.id}
            onSettled={(outcome) => setPhase((p) => (p.step === 'waiting' ? settledPhase(outcome) : p))}
          />
        )}
        {phase.step === 'done' && (
          <NonIdealState
            icon="tick-circle"
            iconMuted={false}
            className="mfw-result mfw-result-done"
            title={PAYMENT_MESSAGES.done}
            description={PAYMENT_MESSAGES.toppedUp(phase.amount)}
          />
        )}
        {phase.step === 'expired' && (
          <NonIdealState
            icon="time"
            iconMuted={false}
            className="mfw-result mfw-result-failed"
            title={ACQUIRING_STATE_LABELS.expired}
            description={<div data-testid="topup-expired-message">{phase.message}</div>}
          />
        )}
        {phase.step === 'failed' && (
          <NonIdealState
            icon="error"
            iconMuted={false}
            className="mfw-result mfw-result-failed"
            title={t('wallets.topUp.error')}
            description={
              <>
                <div>{t('wallets.topUp.errorDescription')}</div>
                <div data-testid="topup-error-message">{phase.message}</div>
              </>
            }
          />
        )}
      </DialogBody>
      <DialogFooter
        actions={
          form ? (
            <>
              <Button text={t('common.cancel')} onClick={onClose} />
              <Button
                intent="primary"
                text={t('wallets.topUp.submit')}
                loading={busy}
                disabled={!valid || (method === 'wallet' && !sender)}
                onClick={() => void submit()}
              />
            </>
          ) : (
            <Button
              text={waiting ? t('wallets.topUp.closeWaiting') : t('wallets.close')}
              intent={waiting ? 'none' : 'primary'}
              onClick={onClose}
            />
          )
        }
      />
    </Dialog>
  );
}
