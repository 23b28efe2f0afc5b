import { Button, Tooltip } from '@blueprintjs/core';
import {
  CARRIER_MESSAGES,
  STAGES_BEFORE_WAREHOUSE,
  waybillDraftPositionProblems,
  type DeliveryData,
} from '@caravan/contracts';
import {
  ConfirmDialog,
  toast,
  useDocumentSaveMutation,
  useLazyDocumentListQuery,
  type Values,
} from '@caravan/ui-kit';
import { useState } from 'react';
import { useCdekOrderCreateMutation } from '../../api/carriers';
import { AddClientDialog } from './AddClientDialog';
import { DeliveryDataDialog } from './DeliveryDataDialog';
import { carrierApiData, operatorClient, useOrderOperator } from './operatorData';

export const CDEK_DRAFT_TEXTS = {
  button: 'создать накладную СДЭК',
  confirm: 'создать накладную СДЭК по данным заказа?',
  created: 'накладная СДЭК создана',
  defaults: 'количество мест и вес не указаны: в накладную уйдут 1 место и 1 кг',
} as const;

/** The steps of the draft (spec §4): client identifier → positions → delivery data → confirmation. */
type Step = 'client' | 'positions' | 'delivery' | 'confirm';
const STEPS: readonly Step[] = ['client', 'positions', 'delivery', 'confirm'];

/** The first step from `from` on that needs the user (a dialog or a refusal); 'confirm' when all hold. */
export function draftStep(order: Values, operator: Values | undefined, from: Step = 'client'): Step {
  const delivery = order.delivery_data as Partial<DeliveryData> | null | undefined;
  const needs: Record<Step, boolean> = {
    client: !operatorClient(operator, order.client_id)?.identifier,
    positions: true, // asked of the server each time
    delivery: !delivery?.transport_company,
    confirm: true,
  };
  return STEPS.slice(STEPS.indexOf(from)).find((step) => needs[step])!;
}

const emptyFigure = (v: unknown) => v === null || v === undefined || v === '' || Number(v) === 0;

/**
 * The CDEK waybill draft of an order (staff, spec §2, §4): shown for a CDEK order without a waybill yet;
 * disabled while the operator has no CDEK API data; asks for confirmation, then POST /api/cdek_order_create.
 */
export function CdekWaybillDraft({ id, values }: { id: number; values: Values }) {
  const { staff, operator } = useOrderOperator(values);
  const [asking, setAsking] = useState<Step | null>(null);
  const [create, { isLoading }] = useCdekOrderCreateMutation();
  const [save] = useDocumentSaveMutation();
  const [listPositions] = useLazyDocumentListQuery();
  const hasWaybill = Boolean(
    values.transport_company_rus_order_uuid || values.transport_company_rus_order_number,
  );
  if (!staff || !operator || values.transport_company_rus !== 'cdek' || hasWaybill || values.deleted)
    return null;
  const noApi = !carrierApiData(operator, 'cdek')?.client_id;
  const needsDefaults = emptyFigure(values.amount) || emptyFigure(values.weight);

  const countPositions = async (stages?: readonly string[]) => {
    const where_param = [
      { field: 'client_order_id', op: '=' as const, value: id },
      ...(stages ? [{ field: 'stage', op: 'in' as const, value: [...stages] }] : []),
    ];
    const page = await listPositions({
      entity: 'client_order_position',
      params: { where_param, per_page: 1 },
    }).unwrap();
    return page.total;
  };

  // a dialog closes after its save has moved the draft on: closing must not undo the next step
  const closeStep = (step: Step) => setAsking((now) => (now === step ? null : now));

  /** Walks the steps from `from`: opens the dialog a step needs, or stops with the reason in words. */
  const proceed = async (from: Step, order: Values = values) => {
    let step = draftStep(order, operator, from);
    if (step === 'positions') {
      try {
        const [total, notAtWarehouse] = await Promise.all([
          countPositions(),
          countPositions(STAGES_BEFORE_WAREHOUSE),
        ]);
        const problems = waybillDraftPositionProblems({ total, notAtWarehouse });
        if (problems.length) return problems.forEach((p) => void toast(p, 'warning'));
      } catch (err) {
        return void toast((err as { message?: string }).message ?? CARRIER_MESSAGES.somethingWrong, 'danger');
      }
      step = draftStep(order, operator, 'delivery');
    }
    const delivery = order.delivery_data as { title?: string } | null | undefined;
    if (step === 'confirm' && !delivery?.title)
      return void toast(CARRIER_MESSAGES.waybillDraftNeedsTitle, 'warning');
    setAsking(step);
  };
  const run = async () => {
    setAsking(null);
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
          onClick={() => void proceed('client')}
        />
      </Tooltip>
      {asking === 'client' && (
        <AddClientDialog
          order={values}
          operator={operator}
          onClose={() => closeStep('client')}
          onAdded={() => void proceed('positions')}
        />
      )}
      {asking === 'delivery' && (
        <DeliveryDataDialog
          order={values}
          onClose={() => closeStep('delivery')}
          onChosen={() => setAsking('confirm')}
        />
      )}
      <ConfirmDialog
        isOpen={asking === 'confirm'}
        text={
          <>
            {CDEK_DRAFT_TEXTS.confirm}
            {needsDefaults && <p>{CDEK_DRAFT_TEXTS.defaults}</p>}
          </>
        }
        confirmText={CDEK_DRAFT_TEXTS.button}
        onConfirm={() => void run()}
        onCancel={() => setAsking(null)}
      />
    </>
  );
}
