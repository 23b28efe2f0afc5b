import { Button, Callout, Checkbox, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import {
  ADJUSTABLE_PRICE_FIELDS,
  ADJUSTABLE_PRICE_LABELS,
  applyPriceAdjustment,
  formatMoney,
  formatPercent,
  resetPriceAdjustment,
  type AdjustablePriceField,
  type OrderAdjustmentInput,
  type PriceInfo,
} from '@caravan/contracts';
import {
  NumberInput,
  toast,
  useCurrentUser,
  useDocumentGetQuery,
  useDocumentSaveMutation,
  type Values,
} from '@caravan/ui-kit';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** spec §9: the adjustment's notification lasts 5000 ms */
const NOTICE_MS = 5000;

type Entered = Partial<Record<AdjustablePriceField, string | null>>;

/** The operator's rates the adjustment grosses up by: tax, VAT, and the carrier's cash-on-delivery fee. */
function useRates(order: Values) {
  const { data: operator } = useDocumentGetQuery({ entity: 'operator', id: order.operator_id as number });
  const carrier = (
    operator?.transport_company_data as { type: string; recipient_cost_commission: string }[] | undefined
  )?.find((c) => c.type === (order.transport_company_rus ?? 'cdek'));
  return {
    tax_rate: (operator?.tax_rate as string | undefined) ?? null,
    nds_rate: (operator?.nds_rate as string | undefined) ?? null,
    recipient_cost_commission: carrier?.recipient_cost_commission ?? null,
  };
}

/**
 * The admin's price adjustment (spec §9): prices entered without taxes, each ticked one grossed up by
 * the operator's tax and VAT (and divided by the carrier's commission when paid in CDEK); save is
 * disabled until one is ticked. The order is marked manually adjusted and keeps these prices until
 * the reset.
 */
export function PriceAdjustmentDialog({ order, onClose }: { order: Values; onClose(): void }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const rates = useRates(order);
  const [save, { isLoading }] = useDocumentSaveMutation();
  const [ticked, setTicked] = useState<Set<AdjustablePriceField>>(new Set());
  const [entered, setEntered] = useState<Entered>({});
  const submit = async () => {
    const chosen = Object.fromEntries([...ticked].map((f) => [f, entered[f] ?? null]));
    const result = applyPriceAdjustment(order as OrderAdjustmentInput, chosen, rates, {
      adjusted_by: user?.id ?? 0,
      adjusted_at: new Date().toISOString(),
    });
    if (!result.ok) return void toast(result.message, 'warning', NOTICE_MS);
    const options = { ...(order.options as Values), price_info: result.result.price_info };
    try {
      await save({
        entity: 'client_order',
        values: { id: order.id as number, ...result.result.prices, options },
      }).unwrap();
      void toast(t('orders.adjusted'), 'success', NOTICE_MS);
      onClose();
    } catch (err) {
      void toast((err as { message: string }).message, 'danger', NOTICE_MS);
    }
  };
  return (
    <Dialog isOpen title={t('orders.adjustPrices')} onClose={onClose}>
      <DialogBody>
        <Callout icon="info-sign">
          {t('orders.adjustHint', {
            tax: formatPercent(rates.tax_rate ?? '0'),
            nds: formatPercent(rates.nds_rate ?? '0'),
          })}
        </Callout>
        {ADJUSTABLE_PRICE_FIELDS.map((f) => (
          <div key={f} className="caravan-adjust-row">
            <Checkbox
              label={ADJUSTABLE_PRICE_LABELS[f]}
              checked={ticked.has(f)}
              onChange={(e) => {
                const next = new Set(ticked);
                if (e.currentTarget.checked) next.add(f);
                else next.delete(f);
                setTicked(next);
              }}
            />
            <NumberInput
              id={`adjust-${f}`}
              value={entered[f] ?? null}
              onChange={(v) => {
                setEntered({ ...entered, [f]: v as string | null });
                // a typed price is the one to adjust: ticked with it, not left for a second click
                if (v !== null && v !== '' && !ticked.has(f)) setTicked(new Set(ticked).add(f));
              }}
            />
            <span className="caravan-hint">
              {t('orders.now')}: {order[f] ? formatMoney(order[f] as string) : '—'}
            </span>
          </div>
        ))}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('common.cancel')} onClick={onClose} />
            <Button
              intent="primary"
              text={t('common.save')}
              disabled={!ticked.size}
              loading={isLoading}
              onClick={() => void submit()}
            />
          </>
        }
      />
    </Dialog>
  );
}

/** Spec §2 tax rates section and the reset of a manual price adjustment (admin). */
export function TaxRates({ order, admin }: { order: Values; admin: boolean }) {
  const { t } = useTranslation();
  const [save, { isLoading }] = useDocumentSaveMutation();
  const [adjusting, setAdjusting] = useState(false);
  const info = ((order.options as { price_info?: PriceInfo } | null)?.price_info ?? null) as PriceInfo | null;
  const reset = async () => {
    const { prices, price_info } = resetPriceAdjustment(order as OrderAdjustmentInput, info);
    try {
      await save({
        entity: 'client_order',
        values: { id: order.id as number, ...prices, options: { ...(order.options as Values), price_info } },
      }).unwrap();
      void toast(t('orders.adjustmentReset'), 'success', NOTICE_MS);
    } catch (err) {
      void toast((err as { message: string }).message, 'danger', NOTICE_MS);
    }
  };
  return (
    <div data-testid="tax-rates">
      <p>
        {t('orders.ndsRate')}: {info?.nds_rate ? formatPercent(info.nds_rate) : '—'} · {t('orders.taxRate')}:{' '}
        {info?.tax_rate ? formatPercent(info.tax_rate) : '—'} · {t('orders.cdekCommission')}:{' '}
        {info?.cdek_commission ? formatPercent(info.cdek_commission) : '—'}
      </p>
      {info?.manually_adjusted && (
        <Callout intent="warning" icon="edit" data-testid="manually-adjusted">
          {t('orders.manuallyAdjusted', { at: info.adjusted_at?.slice(0, 16).replace('T', ' ') ?? '' })}
        </Callout>
      )}
      {admin && (
        <p>
          <Button icon="edit" text={t('orders.adjustPrices')} onClick={() => setAdjusting(true)} />{' '}
          {info?.manually_adjusted && (
            <Button
              icon="undo"
              text={t('orders.resetAdjustment')}
              loading={isLoading}
              onClick={() => void reset()}
            />
          )}
        </p>
      )}
      {adjusting && <PriceAdjustmentDialog order={order} onClose={() => setAdjusting(false)} />}
    </div>
  );
}
