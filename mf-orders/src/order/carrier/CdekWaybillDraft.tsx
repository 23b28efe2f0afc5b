import { Button, Tooltip } from '@blueprintjs/core';
import { CARRIER_MESSAGES } from '@caravan/contracts';
import { ConfirmDialog, toast, useDocumentSaveMutation, type Values } from '@caravan/ui-kit';
import { useState } from 'react';
import { useCdekOrderCreateMutation } from '../../api/carriers';
import { carrierApiData, operatorClient, useOrderOperator } from './operatorData';

export const CDEK_DRAFT_TEXTS = {
  button: 'создать накладную СДЭК',
  confirm: 'создать накладную СДЭК по данным заказа?',
  created: 'накладная СДЭК создана',
  defaults: 'количество мест и вес не указаны: в накладную уйдут 1 место и 1 кг',
} as const;

/** Why the draft cannot start now (spec §4 flow), in the user's words; null when it may. */
export function draftBlocker(order: Values, operator: Values | undefined): string | null {
  if (!operatorClient(operator, order.client_id)?.identifier) return CARRIER_MESSAGES.noClientInOperator;
  const delivery = order.delivery_data as { title?: string } | null | undefined;
  if (!delivery?.title) return CARRIER_MESSAGES.waybillDraftNeedsTitle;
  return null;
}

const emptyFigure = (v: unknown) => v === null || v === undefined || v === '' || Number(v) === 0;

/**
 * The CDEK waybill draft of an order (staff, spec §2, §4): shown for a CDEK order without a waybill yet;
 * disabled while the operator has no CDEK API data; asks for confirmation, then POST /api/cdek_order_create.
 */
export function CdekWaybillDraft({ id, values }: { id: number; values: Values }) {
  const { staff, operator } = useOrderOperator(values);
  const [asking, setAsking] = useState(false);
  const [create, { isLoading }] = useCdekOrderCreateMutation();
  const [save] = useDocumentSaveMutation();
  const hasWaybill = Boolean(
    values.transport_company_rus_order_uuid || values.transport_company_rus_order_number,
  );
  if (!staff || !operator || values.transport_company_rus !== 'cdek' || hasWaybill || values.deleted)
    return null;
  const noApi = !carrierApiData(operator, 'cdek')?.client_id;
  const needsDefaults = emptyFigure(values.amount) || emptyFigure(values.weight);

  const start = () => {
    const blocker = draftBlocker(values, operator);
    if (blocker) void toast(blocker, 'warning');
    else setAsking(true);
  };
  const run = async () => {
    setAsking(false);
    try {
      // spec §4: a draft with no places or weight goes as one place of 1 kg
      if (needsDefaults)
        await save({ entity: 'client_order', values: { id, amount: 1, weight: '1' } }).unwrap();
      await create({ client_order_id: id }).unwrap();
      void toast(CDEK_DRAFT_TEXTS.created, 'success');
    } catch (err) {
      void toast(CARRIER_MESSAGES.waybillDraftFailed((err as { message: string }).message), 'danger');
    }
  };
  return (
    <>
      <Tooltip content={CARRIER_MESSAGES.noApiData} disabled={!noApi}>
        <Button
          icon="document-share"
          disabled={noApi}
          loading={isLoading}
          text={CDEK_DRAFT_TEXTS.button}
          data-testid="cdek-draft"
          onClick={start}
        />
      </Tooltip>
      <ConfirmDialog
        isOpen={asking}
        text={
          <>
            {CDEK_DRAFT_TEXTS.confirm}
            {needsDefaults && <p>{CDEK_DRAFT_TEXTS.defaults}</p>}
          </>
        }
        confirmText={CDEK_DRAFT_TEXTS.button}
        onConfirm={() => void run()}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}
