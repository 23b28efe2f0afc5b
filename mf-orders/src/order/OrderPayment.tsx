import { Button, ButtonGroup, Tag } from '@blueprintjs/core';
import {
  CARRIER_MESSAGES,
  DELIVERY_PAYMENT_STATE_LABELS,
  formatMoney,
  payableNow,
  PRODUCT_PAYMENT_STATE_LABELS,
  type DeliveryPaymentState,
  type ProductPaymentState,
  paymentClosedReason,
} from '@caravan/contracts';
import { Slot } from '@caravan/slots';
import { authHeaders, toast, useCurrentUser, userIsAdmin, type SectionContext } from '@caravan/ui-kit';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CDEK_LOCK_NOTE, useCdekPaymentLock } from './carrier/paymentLock';
import { TelegramDialog } from './TelegramDialog';

const PAID_INTENT: Record<string, 'success' | 'warning' | 'none'> = {
  paid: 'success',
  paid_to_door: 'success',
  paid_to_ru: 'success',
  partial: 'warning',
};

/** The file name the server gave (content-disposition, RFC 5987 first), else a plain one. */
function fileNameOf(header: string | null, fallback: string) {
  const star = header?.match(/filename\*=UTF-8''([^;]+)/i)?.[1];
  if (star) return decodeURIComponent(star);
  return header?.match(/filename="([^"]+)"/i)?.[1] ?? fallback;
}

/**
 * POST /api/client_order_invoice_download (spec §7): the file, or the server's refusal in words (§8).
 * Returns the downloaded file's name.
 */
async function downloadInvoice(id: number, format: 'pdf' | 'xlsx'): Promise<string> {
  const res = await fetch('/api/client_order_invoice_download', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...authHeaders() },
    body: JSON.stringify({ id, format_value: format }),
  });
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('application/json')) {
    const reply = (await res.json()) as { message?: string };
    throw new Error(reply.message ?? 'ошибка загрузки');
  }
  if (!res.ok) throw new Error(`ошибка загрузки (${res.status})`);
  const name = fileNameOf(res.headers.get('content-disposition'), `invoice-${id}.${format}`);
  const url = URL.createObjectURL(await res.blob());
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}

/**
 * The order's payment on its card (spec §2, §4): the goods' and the delivery's payment states with what
 * is paid, the payment dialog (mf-wallet's, through the 'order-payment' slot) for the order's client and
 * admins, and the invoice as PDF or XLSX with its progress.
 */
export function OrderPayment({ id, values }: Pick<SectionContext, 'id' | 'values'>) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const [paying, setPaying] = useState(false);
  const [making, setMaking] = useState<'pdf' | 'xlsx' | null>(null);
  const cdekLock = useCdekPaymentLock(values);
  // the pay button where something is due here (the dialog tells the exact dues and the reasons)
  const due = (['product', 'delivery'] as const).some((k) => Number(payableNow(values, k)) > 0);
  const payer = userIsAdmin(user) || user?.role.includes('client');
  // payment opens once the operator priced the order and asked for it (contracts' paymentClosedReason)
  const closed = paymentClosedReason(values);
  const payable = due && !closed && !values.deleted && payer;
  const product = values.product_payment_state as ProductPaymentState;
  const delivery = values.delivery_payment_state as DeliveryPaymentState;
  const invoice = async (format: 'pdf' | 'xlsx') => {
    setMaking(format);
    try {
      const name = await downloadInvoice(id, format);
      void toast(t('orders.payment.downloaded', { name }), 'success');
    } catch (err) {
      void toast((err as Error).message, 'danger');
    } finally {
      setMaking(null);
    }
  };
  return (
    <div className="caravan-order-payment" data-testid="order-payment">
      <span>
        {t('orders.payment.product')}:{' '}
        <Tag minimal intent={PAID_INTENT[product] ?? 'none'} data-testid="product-payment-state">
          {PRODUCT_PAYMENT_STATE_LABELS[product] ?? product}
        </Tag>{' '}
        <span className="caravan-muted">
          {formatMoney((values.product_paid_rur as string | null) ?? '0')}
        </span>
      </span>
      <span>
        {t('orders.payment.delivery')}:{' '}
        <Tag minimal intent={PAID_INTENT[delivery] ?? 'none'} data-testid="delivery-payment-state">
          {DELIVERY_PAYMENT_STATE_LABELS[delivery] ?? delivery}
        </Tag>{' '}
        <span className="caravan-muted">
          {formatMoney((values.delivery_paid_rur as string | null) ?? '0')}
        </span>
      </span>
      <ButtonGroup>
        {payable && (
          <Button
            intent="success"
            icon="credit-card"
            text={t('orders.payment.pay')}
            data-testid="order-pay"
            onClick={() => cdekLock.guard(() => setPaying(true))}
          />
        )}
        <Button
          icon="document"
          loading={making === 'pdf'}
          disabled={making !== null}
          text={making === 'pdf' ? t('orders.payment.making') : t('orders.payment.invoicePdf')}
          data-testid="invoice-pdf"
          onClick={() => void invoice('pdf')}
        />
        <Button
          icon="th"
          loading={making === 'xlsx'}
          disabled={making !== null}
          text={t('orders.payment.invoiceXlsx')}
          onClick={() => void invoice('xlsx')}
        />
      </ButtonGroup>
      {cdekLock.locked && (
        <Tag minimal intent="warning" icon="lock" data-testid="payment-cdek-locked">
          {CDEK_LOCK_NOTE}
        </Tag>
      )}
      {payer && values.stage === 'created' && closed && (
        <span className="caravan-muted" data-testid="payment-closed">
          {closed}
        </span>
      )}
      {paying && <Slot name="order-payment" orderId={id} onClose={() => setPaying(false)} fallback={null} />}
      {cdekLock.writing && (
        <TelegramDialog
          orderId={id}
          note={CARRIER_MESSAGES.cdekLockedClient}
          onClose={cdekLock.stopWriting}
        />
      )}
    </div>
  );
}
