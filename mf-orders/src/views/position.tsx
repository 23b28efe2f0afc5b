import { Button, ButtonGroup, ControlGroup, Tag } from '@blueprintjs/core';
import {
  BUYOUT_STATE_LABELS,
  clientOrderPosition,
  formatNumber,
  isStaff,
  ORDER_MESSAGES,
  POSITION_ACTION_LABELS,
  POSITION_STAGE_LABELS,
  positionActionsFor,
  positionDataEditable,
  recalculateVat,
  vatPercentOf,
  type BuyoutState,
  type PositionAction,
  type PositionFacts,
  type PositionStage,
  type VatField,
} from '@caravan/contracts';
import {
  enumOptions,
  fieldsOf,
  ID_COLUMN,
  labelledColumn,
  NumberInput,
  rolesOf,
  toast,
  useCurrentUser,
  userIsStaff,
  type EntityView,
  type FieldInputProps,
  type SectionContext,
  type Values,
} from '@caravan/ui-kit';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useOrderCallMutation } from '../order/api';
import { WaybillTracking } from '../order/carrier/WaybillTracking';

const P = clientOrderPosition.labels;

/**
 * The two sale prices and the VAT between them (spec §5): editing one recalculates the other — with VAT
 * = without × (1 + VAT/100), 2 decimals — and the VAT is derived when only the two prices are known.
 * The VAT percent is not stored: it is read back from the two prices.
 */
function SalePrices({ values, onPatch, disabled }: FieldInputProps) {
  const { t } = useTranslation();
  // the percent is read back from the two prices until the user types one of their own
  const [typed, setTyped] = useState<string | null | undefined>(undefined);
  const nds =
    typed !== undefined
      ? typed
      : vatPercentOf(values.sell_price_no_nds_rur as string, values.sell_price_nds_rur as string);
  const setNds = setTyped;
  const prices = () => ({
    price_no_nds: values.sell_price_no_nds_rur as string | null,
    nds,
    price_nds: values.sell_price_nds_rur as string | null,
  });
  const change = (field: VatField, value: unknown) => {
    const next = recalculateVat({ ...prices(), [field]: value as string | null }, field);
    setNds(next.nds as string | null);
    onPatch({ sell_price_no_nds_rur: next.price_no_nds, sell_price_nds_rur: next.price_nds });
  };
  return (
    <ControlGroup fill>
      <NumberInput
        id="field-sell_price_no_nds_rur"
        value={values.sell_price_no_nds_rur}
        disabled={disabled}
        onChange={(v) => change('price_no_nds', v)}
      />
      <NumberInput id="field-nds" value={nds} disabled={disabled} onChange={(v) => change('nds', v)} />
      <NumberInput
        id="field-sell_price_nds_rur"
        value={values.sell_price_nds_rur}
        disabled={disabled}
        onChange={(v) => change('price_nds', v)}
      />
      <span className="caravan-hint">{t('orders.salePricesHint')}</span>
    </ControlGroup>
  );
}

/** The position screen's stage, buyout state and the staff's action buttons (spec §2). */
function PositionHeader({ values }: SectionContext) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const [call, { isLoading }] = useOrderCallMutation();
  const actions =
    userIsStaff(user) && !values.deleted ? positionActionsFor(values as unknown as PositionFacts) : [];
  // actions asking for a date or a shipment record are made from the order's position table
  const direct = actions.filter((a: PositionAction) => !a.startsWith('warehouse_'));
  const act = async (action: PositionAction) => {
    try {
      await call({ method: 'client_order_position_action', params: { id: values.id, action } }).unwrap();
      void toast(ORDER_MESSAGES.done, 'success');
    } catch (err) {
      void toast((err as { message: string }).message, 'danger');
    }
  };
  const stage = values.stage as PositionStage;
  return (
    <div className="caravan-order-stage" data-testid="position-header">
      <Tag large intent="primary" data-testid="position-stage">
        {POSITION_STAGE_LABELS[stage]}
      </Tag>
      {!['draft', 'verification'].includes(stage) && (
        <Tag large minimal>
          {P.buyout_state}: {BUYOUT_STATE_LABELS[values.buyout_state as BuyoutState]}
        </Tag>
      )}
      <Link to={`/client_order/${values.client_order_id as number}`}>
        {t('orders.toOrder', { title: values.client_order_title ?? values.client_order_id })}
      </Link>
      <WaybillTracking values={values} />
      <ButtonGroup>
        {direct.map((a) => (
          <Button
            key={a}
            intent="primary"
            loading={isLoading}
            text={POSITION_ACTION_LABELS[a]}
            data-testid={`position-action-${a}`}
            onClick={() => void act(a)}
          />
        ))}
      </ButtonGroup>
    </div>
  );
}

/** spec §5: data of a position in draft, or by staff; consolidation delivery by staff, its date in warehouse_waiting. */
const dataLocked = (v: Values, user: Parameters<typeof userIsStaff>[0]) =>
  Boolean(v.id && v.id !== -1) && !positionDataEditable(String(v.stage), rolesOf(user));
const staffOnly = (v: Values, user: Parameters<typeof userIsStaff>[0]) => !isStaff(rolesOf(user));

export const positionView: EntityView = {
  entity: 'client_order_position',
  title: 'pages.client_order_position',
  canCreate: () => false,
  columns: [
    ID_COLUMN,
    { key: 'title', label: P.title },
    { key: 'client_order_title', label: P.client_order_title! },
    { key: 'client_title', label: P.client_title! },
    { key: 'waybill', label: P.waybill },
    labelledColumn('stage', P.stage, POSITION_STAGE_LABELS),
    {
      key: 'price_cny',
      label: P.price_cny,
      render: (row) => (row.price_cny ? formatNumber(row.price_cny as string, { minDigits: 2 }) : ''),
    },
    {
      key: 'amount',
      label: P.amount,
      render: (row) => (row.amount ? formatNumber(row.amount as string) : ''),
    },
  ],
  filters: fieldsOf(clientOrderPosition, {
    stage: { kind: 'select', options: enumOptions(POSITION_STAGE_LABELS) },
    buyout_state: { kind: 'select', options: enumOptions(BUYOUT_STATE_LABELS) },
    client_order_id: {},
    type_id: {},
    provider_id: {},
    waybill: {},
    created_at: { kind: 'datetime', label: 'создана' },
  }),
  itemTitle: (v) => String(v.title ?? ''),
  header: (ctx) => <PositionHeader {...ctx} />,
  fields: fieldsOf(clientOrderPosition, {
    title: { readOnly: dataLocked },
    type_id: { readOnly: dataLocked },
    title_original: { readOnly: dataLocked },
    title_ru: { readOnly: dataLocked },
    waybill: { readOnly: dataLocked },
    provider_id: { readOnly: dataLocked },
    link: { readOnly: dataLocked },
    price_cny: { kind: 'decimal', readOnly: dataLocked },
    amount: { kind: 'decimal', readOnly: dataLocked },
    weight: { kind: 'decimal', readOnly: dataLocked },
    volume: { kind: 'decimal', readOnly: dataLocked },
    client_order_id: { readOnly: () => true },
    to_consolidation_warehouse_delivery_date: {
      kind: 'date',
      readOnly: (v, user) => staffOnly(v, user) || v.stage !== 'warehouse_waiting',
    },
    to_consolidation_warehouse_delivery_price_cny: { kind: 'decimal', readOnly: staffOnly },
    transport_company_rus_insurance: { kind: 'checkbox', readOnly: staffOnly },
    sell_price_no_nds_rur: {
      kind: 'custom',
      label: `${P.sell_price_no_nds_rur} / НДС, % / ${P.sell_price_nds_rur}`,
      render: (props) => <SalePrices {...props} />,
      alsoWrites: ['sell_price_nds_rur'],
      wide: true,
      readOnly: staffOnly,
    },
    consolidation_receive_table: {
      kind: 'table',
      hidden: (v) =>
        ['draft', 'verification', 'created', 'buyout_waiting', 'buyout_done'].includes(String(v.stage)),
      readOnly: () => true,
      columns: fieldsOf(
        {
          labels: {
            id: '№',
            transporter: 'перевозчик',
            date: 'дата',
            amount: 'кол-во коробок',
            cost: 'стоимость',
            comment: 'комментарий',
          },
          required: [],
        },
        {
          id: { kind: 'integer' },
          transporter: {},
          date: { kind: 'date' },
          amount: { kind: 'integer' },
          cost: { kind: 'decimal' },
          comment: {},
        },
      ),
    },
    files: { kind: 'files', readOnly: dataLocked },
    product_images: { kind: 'images', readOnly: dataLocked },
    warehouse_images: { kind: 'images', readOnly: staffOnly },
  }),
};
