import {
  Button,
  Card,
  Dialog,
  DialogBody,
  DialogFooter,
  H6,
  HTMLTable,
  NonIdealState,
  Spinner,
} from '@blueprintjs/core';
import { BULK_MESSAGES, clientOrderPosition, formatNumber, type WhereCondition } from '@caravan/contracts';
import { toast, useDocumentListQuery, type EntityRow, type Values } from '@caravan/ui-kit';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrderCallMutation, usePositionsOfOrder } from '../api';

const P = clientOrderPosition.labels;

/**
 * The consolidation dialog (spec §2, §5): this order and, one at a time, each other suitable order of
 * the client side by side; a click moves a position across, or all at once. 'пропустить' goes to the
 * next order until something moved, then 'готово' applies it (client_order_consolidate).
 */
export function ConsolidationDialog({ order, onClose }: { order: Values & { id: number }; onClose(): void }) {
  const { t } = useTranslation();
  const [call] = useOrderCallMutation();
  const where: WhereCondition[] = [
    { field: 'client_id', op: '=', value: order.client_id as number },
    { field: 'operator_id', op: '=', value: order.operator_id as number },
    { field: 'stage', op: '=', value: order.stage as string },
    { field: 'id', op: 'not_in', value: [order.id] },
  ];
  const { data: candidates, isLoading } = useDocumentListQuery({
    entity: 'client_order',
    params: { where_param: where, per_page: 50, order_by: 'id desc' },
  });
  const [index, setIndex] = useState(0);
  const other = candidates?.items[index];
  const left = usePositionsOfOrder(order.id).data?.items ?? [];
  const right = usePositionsOfOrder(other?.id ?? 0, !other).data?.items ?? [];
  const [sideOf, setSideOf] = useState<Record<number, 'left' | 'right'>>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (candidates && candidates.items.length === 0) {
      void toast(BULK_MESSAGES.tooFewOrders(1), 'warning');
      onClose();
    }
  }, [candidates, onClose]);

  const home = (r: EntityRow) => (r.client_order_id === order.id ? 'left' : 'right');
  const side = (r: EntityRow) => sideOf[r.id] ?? home(r);
  const all = [...left, ...right];
  const moved = all.filter((r) => side(r) !== home(r)).length;
  const move = (r: EntityRow) =>
    setSideOf((prev) => ({ ...prev, [r.id]: side(r) === 'left' ? 'right' : 'left' }));
  const moveAll = (to: 'left' | 'right') => setSideOf(Object.fromEntries(all.map((r) => [r.id, to])));

  const skip = () => {
    setSideOf({});
    if (candidates && index + 1 < candidates.items.length) setIndex(index + 1);
    else onClose();
  };
  const finish = async () => {
    setSaving(true);
    try {
      await call({
        method: 'client_order_consolidate',
        params: {
          order_map: {
            [order.id]: all.filter((r) => side(r) === 'left').map((r) => r.id),
            [other!.id]: all.filter((r) => side(r) === 'right').map((r) => r.id),
          },
        },
      }).unwrap();
      void toast(BULK_MESSAGES.consolidated, 'success');
      onClose();
    } catch (err) {
      void toast((err as { message: string }).message, 'danger');
    } finally {
      setSaving(false);
    }
  };

  const column = (which: 'left' | 'right', title: string) => (
    <Card className="caravan-consolidation-side" data-testid={`consolidation-${which}`}>
      <div className="caravan-item-header">
        <H6>{title}</H6>
        <Button
          size="small"
          icon={which === 'left' ? 'double-chevron-right' : 'double-chevron-left'}
          text={t('orders.bulk.moveAll')}
          onClick={() => moveAll(which === 'left' ? 'right' : 'left')}
        />
      </div>
      <HTMLTable compact interactive striped>
        <thead>
          <tr>
            <th>{P.title}</th>
            <th>{P.waybill}</th>
            <th>{P.amount}</th>
          </tr>
        </thead>
        <tbody>
          {all
            .filter((r) => side(r) === which)
            .map((r) => (
              <tr key={r.id} onClick={() => move(r)} title={t('orders.bulk.clickToMove')}>
                <td>{String(r.title)}</td>
                <td>{String(r.waybill ?? '')}</td>
                <td>{formatNumber(r.amount as string)}</td>
              </tr>
            ))}
        </tbody>
      </HTMLTable>
    </Card>
  );

  return (
    <Dialog
      isOpen
      title={t('orders.bulk.consolidationTitle')}
      onClose={onClose}
      style={{ width: 'min(1100px, 95vw)' }}
    >
      <DialogBody>
        {isLoading || !other ? (
          <NonIdealState icon={<Spinner />} />
        ) : (
          <>
            <p>{t('orders.bulk.consolidationOf', { index: index + 1, count: candidates!.items.length })}</p>
            <div className="caravan-consolidation">
              {column('left', String(order.title))}
              {column('right', String(other.title))}
            </div>
          </>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t('common.cancel')} onClick={onClose} />
            {moved === 0 ? (
              <Button text={t('orders.bulk.skip')} onClick={skip} />
            ) : (
              <Button
                intent="primary"
                text={t('orders.bulk.done')}
                loading={saving}
                onClick={() => void finish()}
              />
            )}
          </>
        }
      />
    </Dialog>
  );
}
