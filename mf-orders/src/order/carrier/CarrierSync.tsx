import { Button, Tooltip } from '@blueprintjs/core';
import {
  CARRIER_MESSAGES,
  JDE_DELIVERED_STATUSES,
  JDE_NUMBER_LENGTHS,
  PEC_DELIVERED_STATUSES,
  PEC_NUMBER_LENGTH,
  carrierStatusLabel,
} from '@caravan/contracts';
import { toast, type Values } from '@caravan/ui-kit';
import { useJdeOrderGetMutation, usePecOrderGetMutation } from '../../api/carriers';
import { carrierApiData, useOrderOperator } from './operatorData';

export const SYNC_TEXTS = {
  button: 'обновить статус',
  synced: (label: string) => `статус перевозчика: ${label}`,
};

/** Which sync button an order gets (spec §5): PEC for a 12-character number, JDE for 16 or 19, until delivered. */
export function syncCarrier(order: Values): 'pec' | 'jde' | null {
  const number = String(order.transport_company_rus_order_number ?? '').trim();
  const state = String(order.transport_company_rus_delivery_state ?? '');
  if (order.transport_company_rus === 'pec')
    return number.length === PEC_NUMBER_LENGTH &&
      !(PEC_DELIVERED_STATUSES as readonly string[]).includes(state)
      ? 'pec'
      : null;
  if (order.transport_company_rus === 'jde')
    return JDE_NUMBER_LENGTHS.includes(number.length) &&
      !(JDE_DELIVERED_STATUSES as readonly string[]).includes(state)
      ? 'jde'
      : null;
  return null;
}

/** The PEC / JDE sync button of the card (staff): asks the carrier now; the card refreshes with the answer. */
export function CarrierSync({ id, values }: { id: number; values: Values }) {
  const { staff, operator } = useOrderOperator(values);
  const [pec, pecState] = usePecOrderGetMutation();
  const [jde, jdeState] = useJdeOrderGetMutation();
  const carrier = syncCarrier(values);
  if (!staff || !operator || !carrier || values.deleted) return null;
  const noToken = !carrierApiData(operator, carrier)?.access_token;
  const sync = async () => {
    try {
      const status =
        carrier === 'pec'
          ? (await pec({ order_id: id }).unwrap()).info.cargoStatus
          : (await jde({ order_id: id }).unwrap()).status;
      void toast(SYNC_TEXTS.synced(carrierStatusLabel(carrier, status)), 'success');
    } catch {
      void toast(CARRIER_MESSAGES.somethingWrongRetry, 'primary');
    }
  };
  return (
    <Tooltip content={CARRIER_MESSAGES.noApiData} disabled={!noToken}>
      <Button
        icon="refresh"
        disabled={noToken}
        loading={pecState.isLoading || jdeState.isLoading}
        text={SYNC_TEXTS.button}
        data-testid={`${carrier}-sync`}
        onClick={() => void sync()}
      />
    </Tooltip>
  );
}
