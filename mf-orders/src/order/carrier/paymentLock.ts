import { CARRIER_MESSAGES, cdekLocksPayment } from '@caravan/contracts';
import { toast, useCurrentUser, userIsStaff, type Values } from '@caravan/ui-kit';
import { useState } from 'react';

/** Spec §4: CDEK's own statuses lock the payment card once the shipment moved past ACCEPTED / CREATED. */
export const paymentLockedByCdek = (order: Values) =>
  order.transport_company_rus === 'cdek' &&
  cdekLocksPayment(order.transport_company_rus_delivery_state as string);

/** The mark on a payment card CDEK's status locks. */
export const CDEK_LOCK_NOTE = 'оплата заблокирована статусом СДЭК';

/** How long the CDEK lock warning stays (spec §9: CDEK warnings time out at 10 000 ms). */
export const CDEK_WARNING_MS = 10_000;

/**
 * The CDEK lock of the payment card: `locked`, and `guard(open)` for a change of payment — a client is
 * warned and the telegram dialog to the operator opens (`writing`, spec §6), nothing else; staff are
 * reminded to fix the waybill by hand and go on.
 */
export function useCdekPaymentLock(order: Values) {
  const staff = userIsStaff(useCurrentUser());
  const locked = paymentLockedByCdek(order);
  const [writing, setWriting] = useState(false);
  const guard = (open: () => void) => {
    if (!locked) return open();
    void toast(
      staff ? CARRIER_MESSAGES.cdekLockedStaff : CARRIER_MESSAGES.cdekLockedClient,
      'warning',
      CDEK_WARNING_MS,
    );
    if (staff) open();
    else setWriting(true);
  };
  return { locked, staff, guard, writing, stopWriting: () => setWriting(false) };
}
