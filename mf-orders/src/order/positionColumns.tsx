import { Icon, Tag } from '@blueprintjs/core';
import {
  clientOrderPosition,
  formatDate,
  formatMoney,
  formatNumber,
  POSITION_STAGE_LABELS,
  POSITION_STAGES,
  positionCalculatedWeight,
  orderBuyoutCommission,
  positionDeliveryPerKg,
  positionPricePerKg,
  positionPricePerUnit,
  positionSumCnyText,
  positionToRuPerUnitRur,
  type PositionColumn,
  type PositionStage,
} from '@caravan/contracts';
import type { EntityRow, Values } from '@caravan/ui-kit';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

const P = clientOrderPosition.labels;
const num = (v: unknown, digits = 2) =>
  v === null || v === undefined || v === '' ? '' : formatNumber(v as string, { maxDigits: digits });
const rub = (v: string | null) => (v === null ? '' : formatMoney(v));
const sentToConsolidation = (stage: unknown) =>
  POSITION_STAGES.indexOf(stage as PositionStage) >= POSITION_STAGES.indexOf('warehouse_waiting');

/** The buyout commission the order's prices carry (its route's, the service returns it with the rate). */
const commissionOf = (order: Values) =>
  orderBuyoutCommission(order, order.buyout_commission as string | null | undefined);

export type ColumnContext = { order: Values; rows: EntityRow[]; rate: string | null; t: TFunction };
type Column = {
  label(t: TFunction): string;
  numeric?: boolean;
  cell(r: EntityRow, i: number, c: ColumnContext): ReactNode;
};

/** What each column of the position table shows (spec §2 position table columns, §9 formulas). */
export const COLUMNS: Record<PositionColumn, Column> = {
  number: { label: () => '№', cell: (_r, i) => i + 1 },
  photo: {
    label: (t) => t('orders.photo'),
    cell: (r) => {
      const photo = (r.product_images as { file: string; deleted?: boolean }[]).find((f) => !f.deleted);
      return photo ? <img src={photo.file} alt="" className="caravan-thumb" /> : null;
    },
  },
  title: {
    label: () => P.title,
    cell: (r) => <Link to={`/client_order_position/${r.id}`}>{String(r.title)}</Link>,
  },
  stage: {
    label: () => P.stage,
    cell: (r) => (
      <Tag minimal data-testid="position-stage">
        {POSITION_STAGE_LABELS[r.stage as PositionStage]}
      </Tag>
    ),
  },
  waybill: { label: () => P.waybill, cell: (r) => String(r.waybill ?? '') },
  price_cny: { label: () => P.price_cny, numeric: true, cell: (r) => num(r.price_cny) },
  amount: { label: () => P.amount, numeric: true, cell: (r) => num(r.amount) },
  weight: { label: (t) => t('orders.unitWeight'), numeric: true, cell: (r) => num(r.weight, 3) },
  calculated_weight: {
    label: (t) => t('orders.calculatedWeight'),
    numeric: true,
    cell: (r, _i, c) => num(positionCalculatedWeight(r, c.rows, c.order.weight as string), 3),
  },
  consolidation_sent: {
    label: (t) => t('orders.bulk.sentToConsolidation'),
    cell: (r) => (sentToConsolidation(r.stage) ? <Icon icon="tick" intent="success" /> : null),
  },
  consolidation_date: {
    label: () => P.to_consolidation_warehouse_delivery_date,
    cell: (r) => formatDate(r.to_consolidation_warehouse_delivery_date as string | null),
  },
  consolidation_price_cny: {
    label: () => P.to_consolidation_warehouse_delivery_price_cny,
    numeric: true,
    cell: (r) => num(r.to_consolidation_warehouse_delivery_price_cny),
  },
  sum_cny: {
    label: (t) => t('orders.sumCny'),
    numeric: true,
    cell: (r) => (r.price_cny && r.amount ? num(positionSumCnyText(r)) : ''),
  },
  to_ru_delivery_price_cny: {
    label: () => String(P.to_ru_delivery_price_cny),
    numeric: true,
    cell: (r) => num(r.to_ru_delivery_price_cny),
  },
  to_ru_per_unit_rur: {
    label: (t) => t('orders.bulk.toRuPerUnit'),
    numeric: true,
    cell: (r, _i, c) => rub(positionToRuPerUnitRur(r, c.rate)),
  },
  to_door_delivery_price_rur: {
    label: () => String(P.to_door_delivery_price_rur),
    numeric: true,
    cell: (r) => num(r.to_door_delivery_price_rur),
  },
  price_per_unit: {
    label: (t) => t('orders.pricePerUnit'),
    numeric: true,
    cell: (r, _i, c) => rub(positionPricePerUnit(r, c.rate, commissionOf(c.order))),
  },
  price_per_kg: {
    label: (t) => t('orders.pricePerKg'),
    numeric: true,
    cell: (r, _i, c) => rub(positionPricePerKg(r, c.rate, commissionOf(c.order))),
  },
  delivery_per_kg: {
    label: (t) => t('orders.bulk.deliveryPerKg'),
    numeric: true,
    cell: (r, _i, c) => rub(positionDeliveryPerKg(r, c.rate)),
  },
  insurance: {
    label: () => P.transport_company_rus_insurance,
    cell: (r) => (r.transport_company_rus_insurance ? <Icon icon="shield" /> : null),
  },
};
