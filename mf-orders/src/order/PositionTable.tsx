import { Button, Card, H5, HTMLTable, Icon, Tag, Tooltip } from '@blueprintjs/core';
import {
  clientOrderPosition,
  formatMoney,
  formatNumber,
  ORDER_MESSAGES,
  POSITION_ACTION_LABELS,
  POSITION_STAGE_LABELS,
  positionActionsFor,
  positionCalculatedWeight,
  positionPricePerKg,
  positionPricePerUnit,
  positionSumCnyText,
  positionWarnings,
  sumMoney,
  type BuyoutType,
  type PositionAction,
  type PositionFacts,
  type PositionStage,
} from '@caravan/contracts';
import {
  ConfirmDialog,
  EditDialog,
  fieldsOf,
  rolesOf,
  toast,
  useCurrentUser,
  useDocumentSaveMutation,
  userIsStaff,
  type EntityRow,
  type FieldDef,
  type Values,
} from '@caravan/ui-kit';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useOrderCallMutation, usePositionsOfOrder } from './api';

const P = clientOrderPosition.labels;
const today = () => new Date().toISOString().slice(0, 10);
const num = (v: unknown, digits = 2) =>
  v === null || v === undefined || v === '' ? '' : formatNumber(v as string, { maxDigits: digits });
const rub = (v: string | null) => (v === null ? '' : formatMoney(v));

/** The add-position dialog: what a client knows of a product (spec §2 position screen, first fields). */
export const NEW_POSITION_FIELDS: FieldDef[] = fieldsOf(clientOrderPosition, {
  title: {},
  link: {},
  waybill: {},
  type_id: {},
  price_cny: { kind: 'decimal' },
  amount: { kind: 'decimal' },
  weight: { kind: 'decimal' },
  product_images: { kind: 'images' },
});

/** The dialogs some actions ask through: the expected date, the shipment record (spec §4). */
const ACTION_FIELDS: Partial<Record<PositionAction, FieldDef[]>> = {
  warehouse_waiting: [
    { name: 'receive_date', label: P.to_consolidation_warehouse_delivery_date, kind: 'date', required: true },
  ],
  warehouse_received: [
    { name: 'date', label: 'дата', kind: 'date', required: true },
    { name: 'amount', label: 'кол-во коробок', kind: 'integer', required: true },
    { name: 'transporter', label: 'перевозчик' },
    { name: 'cost', label: 'стоимость', kind: 'decimal' },
    { name: 'comment', label: 'комментарий' },
  ],
};

type Pending = { position: EntityRow; action: PositionAction };

/**
 * The order's positions in item mode (spec §2): number, photo, title, waybill, price, amount, weights,
 * consolidation delivery, sums, estimates, prices per unit and kg, stage, the warning icon with its
 * reasons, staff actions and delete; the bottom line with the count and the buyout total.
 */
export function PositionTable({
  order,
  orderId,
  editable,
}: {
  order: Values;
  orderId: number;
  editable: boolean;
}) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const staff = userIsStaff(user);
  const [save] = useDocumentSaveMutation();
  const [call] = useOrderCallMutation();
  const [adding, setAdding] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const [removing, setRemoving] = useState<EntityRow | null>(null);
  const { data } = usePositionsOfOrder(orderId);
  const rows = data?.items ?? [];
  const draft = order.stage === 'draft';
  const canAdd = editable && draft;
  const canDelete = editable && (draft || staff);
  const rate = order.rate_cny as string | null;
  const buyoutTotal = sumMoney(rows.map((r) => r.buyout_price_rur as string | null));

  const act = async (position: EntityRow, action: PositionAction, extra: Values = {}) => {
    try {
      await call({
        method: 'client_order_position_action',
        params: { id: position.id, action, ...extra },
      }).unwrap();
      void toast(ORDER_MESSAGES.done, 'success');
    } catch (err) {
      void toast((err as { message: string }).message, 'danger');
      throw err;
    }
  };
  const start = (position: EntityRow, action: PositionAction) => {
    if (
      ACTION_FIELDS[action] ||
      (action.startsWith('buyout_done') && order.product_payment_state === 'not_paid')
    )
      setPending({ position, action });
    else void act(position, action).catch(() => undefined);
  };
  const remove = async (position: EntityRow) => {
    setRemoving(null);
    try {
      await save({ entity: 'client_order_position', values: { id: position.id, deleted: true } }).unwrap();
      void toast(ORDER_MESSAGES.positionDeleted(String(position.title)), 'success');
    } catch (err) {
      void toast((err as { message: string }).message, 'danger');
    }
  };

  return (
    <Card className="caravan-order-section" data-testid="position-table">
      <div className="caravan-item-header">
        <H5>{t('orders.positions')}</H5>
        {canAdd && (
          <Button
            icon="add"
            intent="primary"
            text={t('orders.addPosition')}
            onClick={() => setAdding(true)}
          />
        )}
      </div>
      <div className="caravan-table-scroll">
        <HTMLTable compact striped interactive className="caravan-position-table">
          <thead>
            <tr>
              <th>№</th>
              <th>{t('orders.photo')}</th>
              <th>{P.title}</th>
              <th>{P.stage}</th>
              <th />
              <th>{P.waybill}</th>
              <th>{P.price_cny}</th>
              <th>{P.amount}</th>
              <th>{t('orders.unitWeight')}</th>
              <th>{t('orders.calculatedWeight')}</th>
              <th>{t('orders.sumCny')}</th>
              <th>{P.to_ru_delivery_price_cny}</th>
              <th>{P.to_door_delivery_price_rur}</th>
              <th>{t('orders.pricePerUnit')}</th>
              <th>{t('orders.pricePerKg')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => {
              const warnings = positionWarnings(
                r as unknown as PositionFacts,
                order.buyout_type as BuyoutType,
                rolesOf(user),
              );
              const photo = (r.product_images as { file: string; deleted?: boolean }[]).find(
                (f) => !f.deleted,
              );
              return (
                <tr key={r.id} data-testid={`position-row-${i + 1}`}>
                  <td>{i + 1}</td>
                  <td>{photo && <img src={photo.file} alt="" className="caravan-thumb" />}</td>
                  <td>
                    <Link to={`/client_order_position/${r.id}`}>{String(r.title)}</Link>
                  </td>
                  <td>
                    <Tag minimal data-testid="position-stage">
                      {POSITION_STAGE_LABELS[r.stage as PositionStage]}
                    </Tag>
                  </td>
                  <td>
                    {warnings.length > 0 && (
                      <Tooltip content={warnings.join('; ')}>
                        <Icon icon="warning-sign" intent="warning" aria-label={warnings.join('; ')} />
                      </Tooltip>
                    )}
                    {staff &&
                      editable &&
                      positionActionsFor(r as unknown as PositionFacts).map((action) => (
                        <Button
                          key={action}
                          size="small"
                          variant="outlined"
                          text={POSITION_ACTION_LABELS[action]}
                          data-testid={`position-action-${action}`}
                          onClick={() => start(r, action)}
                        />
                      ))}
                  </td>
                  <td>{String(r.waybill ?? '')}</td>
                  <td className="caravan-number">{num(r.price_cny)}</td>
                  <td className="caravan-number">{num(r.amount)}</td>
                  <td className="caravan-number">{num(r.weight, 3)}</td>
                  <td className="caravan-number">
                    {num(positionCalculatedWeight(r, rows, order.weight as string), 3)}
                  </td>
                  <td className="caravan-number">
                    {r.price_cny && r.amount ? num(positionSumCnyText(r)) : ''}
                  </td>
                  <td className="caravan-number">{num(r.to_ru_delivery_price_cny)}</td>
                  <td className="caravan-number">{num(r.to_door_delivery_price_rur)}</td>
                  <td className="caravan-number">{rub(positionPricePerUnit(r, rate))}</td>
                  <td className="caravan-number">{rub(positionPricePerKg(r, rate))}</td>
                  <td>
                    {canDelete && (
                      <Button
                        size="small"
                        variant="minimal"
                        icon="trash"
                        intent="danger"
                        aria-label={t('item.delete')}
                        onClick={() => setRemoving(r)}
                      />
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </HTMLTable>
      </div>
      <p data-testid="position-summary">
        {t('orders.positionCount', { count: rows.length })}
        {Number(buyoutTotal) > 0 && ` · ${P.buyout_price_rur}: ${formatMoney(buyoutTotal)}`}
      </p>
      {adding && (
        <EditDialog
          isOpen
          title={t('orders.addPosition')}
          fields={NEW_POSITION_FIELDS}
          initial={{ product_images: [] }}
          successMessage={(v) => ORDER_MESSAGES.positionAdded(String(v.title))}
          onClose={() => setAdding(false)}
          onSubmit={(values) =>
            save({
              entity: 'client_order_position',
              values: { id: -1, client_order_id: orderId, ...values },
            }).unwrap()
          }
        />
      )}
      {pending && ACTION_FIELDS[pending.action] && (
        <EditDialog
          isOpen
          title={POSITION_ACTION_LABELS[pending.action]}
          fields={ACTION_FIELDS[pending.action]!}
          initial={pending.action === 'warehouse_waiting' ? { receive_date: today() } : { date: today() }}
          submitText={POSITION_ACTION_LABELS[pending.action]}
          successMessage={ORDER_MESSAGES.done}
          onClose={() => setPending(null)}
          onSubmit={(v) =>
            call({
              method: 'client_order_position_action',
              params:
                pending.action === 'warehouse_waiting'
                  ? { id: pending.position.id, action: pending.action, receive_date: v.receive_date }
                  : {
                      id: pending.position.id,
                      action: pending.action,
                      receive_record: {
                        date: v.date,
                        amount: v.amount,
                        transporter: v.transporter ?? '',
                        cost: v.cost ?? null,
                        comment: v.comment ?? '',
                      },
                    },
            }).unwrap()
          }
        />
      )}
      <ConfirmDialog
        isOpen={Boolean(pending && !ACTION_FIELDS[pending.action])}
        intent="warning"
        text={ORDER_MESSAGES.notPaid}
        confirmText={pending ? POSITION_ACTION_LABELS[pending.action] : ''}
        onConfirm={() => {
          const p = pending!;
          setPending(null);
          void act(p.position, p.action).catch(() => undefined);
        }}
        onCancel={() => setPending(null)}
      />
      <ConfirmDialog
        isOpen={removing !== null}
        intent="danger"
        text={t('orders.deletePositionConfirm', { title: removing?.title })}
        confirmText={t('item.delete')}
        onConfirm={() => void remove(removing!)}
        onCancel={() => setRemoving(null)}
      />
    </Card>
  );
}
