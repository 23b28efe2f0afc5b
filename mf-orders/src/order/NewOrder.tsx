import { Callout, Checkbox, Radio, RadioGroup } from '@blueprintjs/core';
import { NEW_ORDER_TEXTS, type WhereCondition } from '@caravan/contracts';
import {
  FieldInput,
  ReferenceSelect,
  useLazyDocumentListQuery,
  type FieldInputProps,
  type Values,
} from '@caravan/ui-kit';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The settings the new-order dialog carries over from the client's latest order for an operator (spec §4). */
const CARRIED = [
  'consolidation_warehouse_id',
  'to_warehouse_id',
  'logistic_route_id',
  'package_id',
  'buyout_type',
  'delivery_type',
  'delivery_data',
  'transport_company_rus',
] as const;

type Lookup = ReturnType<typeof useLazyDocumentListQuery>[0];

const firstId = async (lookup: Lookup, entity: string, where: WhereCondition[]) => {
  const rows = await lookup({ entity, params: { where_param: where, per_page: 1, order_by: 'id asc' } })
    .unwrap()
    .catch(() => ({ items: [] as Values[] }));
  return (rows.items[0]?.id as number | undefined) ?? null;
};

/** Does the operator carry goods on from this arrival warehouse to the door (a transfer service there)? */
async function hasTransfer(lookup: Lookup, operatorId: number, warehouseId: number | null) {
  if (!warehouseId) return true;
  return (
    (await firstId(lookup, 'extra_service', [
      { field: 'operator_id', op: '=', value: operatorId },
      { field: 'type', op: '=', value: 'transfer' },
      { field: 'warehouse_point_id', op: '=', value: warehouseId },
    ])) !== null
  );
}

/** The warehouses an operator works from: their own and those linked to them (operator_warehouse_point_link). */
async function operatorWarehouseIds(lookup: Lookup, operatorId: number): Promise<number[]> {
  const links = await lookup({
    entity: 'operator_warehouse_point_link',
    params: { where_param: [{ field: 'operator_id', op: '=', value: operatorId }], per_page: 100 },
  })
    .unwrap()
    .catch(() => ({ items: [] as Values[] }));
  return links.items.map((l) => l.warehouse_point_id as number);
}

/** The operator's defaults (spec §4): their own warehouses, an active route and package; operator buyout, to the door. */
async function operatorDefaults(lookup: Lookup, operatorId: number): Promise<Values> {
  const mine = { field: 'operator_id', op: '=' as const, value: operatorId };
  const linked = await operatorWarehouseIds(lookup, operatorId);
  const warehouse = (type: string) =>
    firstId(lookup, 'warehouse_point', [
      { field: 'type', op: '=', value: type },
      linked.length ? { field: 'id', op: 'in', value: linked } : mine,
    ]);
  const [consolidation, arrival, route, pack] = await Promise.all([
    warehouse('consolidation'),
    warehouse('arrival'),
    firstId(lookup, 'logistic_route', [mine, { field: 'state', op: '=', value: 'active' }]),
    firstId(lookup, 'extra_service', [mine, { field: 'type', op: '=', value: 'package' }]),
  ]);
  const toDoor = await hasTransfer(lookup, operatorId, arrival);
  return {
    consolidation_warehouse_id: consolidation,
    to_warehouse_id: arrival,
    logistic_route_id: route,
    package_id: pack,
    buyout_type: 'operator',
    delivery_type: toDoor ? 'to_door' : 'to_ru',
  };
}

/**
 * The operator choice of a new order (spec §4 new-order dialog): choosing an operator fills the
 * operator's defaults, or — when the client has ordered from that operator before — offers the
 * previous order's settings instead, with a toggle between the two.
 */
export function OrderOperatorField({ value, values, onPatch, disabled, id }: FieldInputProps) {
  const { t } = useTranslation();
  const [lookup] = useLazyDocumentListQuery();
  const [choices, setChoices] = useState<{ previous: Values | null; defaults: Values } | null>(null);
  const [use, setUse] = useState<'previous' | 'defaults'>('previous');
  const isNew = !values.id || values.id === -1;

  const choose = async (operatorId: number | null) => {
    onPatch({ operator_id: operatorId });
    setChoices(null);
    if (!isNew || !operatorId) return;
    const [defaults, latest] = await Promise.all([
      operatorDefaults(lookup, operatorId),
      values.client_id
        ? lookup({
            entity: 'client_order',
            params: {
              client_id: values.client_id,
              operator_id: operatorId,
              per_page: 1,
              order_by: 'id desc',
            },
          })
            .unwrap()
            .then((r) => r.items[0] ?? null)
            .catch(() => null)
        : Promise.resolve(null),
    ]);
    const previous = latest ? Object.fromEntries(CARRIED.map((k) => [k, latest[k] ?? null])) : null;
    if (previous && previous.product_payment_state === 'in_cdek') previous.product_payment_state = 'not_paid';
    setChoices({ previous, defaults });
    setUse(previous ? 'previous' : 'defaults');
    onPatch({ operator_id: operatorId, ...(previous ?? defaults) });
  };

  return (
    <>
      <ReferenceSelect
        id={id}
        entity="operator"
        value={value as number | null}
        disabled={disabled}
        onChange={(next) => void choose(next)}
      />
      {isNew && choices?.previous && (
        <RadioGroup
          inline
          selectedValue={use}
          onChange={(e) => {
            const next = e.currentTarget.value as 'previous' | 'defaults';
            setUse(next);
            onPatch(next === 'previous' ? choices.previous! : choices.defaults);
          }}
        >
          <Radio value="previous" label={t('orders.previousSettings')} data-testid="settings-previous" />
          <Radio value="defaults" label={t('orders.defaultSettings')} data-testid="settings-defaults" />
        </RadioGroup>
      )}
    </>
  );
}

/** The arrival warehouse of an order: another one resets the route and the package (spec §4) and, without a transfer service there, delivery to the door. */
export function OrderArrivalField({ value, values, onPatch, disabled, id, field }: FieldInputProps) {
  const [lookup] = useLazyDocumentListQuery();
  const change = async (warehouseId: number | null) => {
    if (warehouseId === value) return;
    onPatch({ to_warehouse_id: warehouseId, logistic_route_id: null, package_id: null });
    const operatorId = values.operator_id as number | null;
    if (operatorId && !(await hasTransfer(lookup, operatorId, warehouseId)))
      onPatch({ delivery_type: 'to_ru' });
  };
  return (
    <ReferenceSelect
      id={id}
      entity="warehouse_point"
      where={field.where?.(values)}
      value={value as number | null}
      disabled={disabled}
      onChange={(next) => void change(next)}
    />
  );
}

const isNewOrder = (values: Values) => !values.id || values.id === -1;

/**
 * The client of an order: in a new order of a user with a single client record it is that one, chosen
 * already (the user sees only their own clients, so one row means one record).
 */
export function OrderClientField(props: FieldInputProps) {
  const { value, values, onPatch, field } = props;
  const [lookup] = useLazyDocumentListQuery();
  const isNew = isNewOrder(values);
  useEffect(() => {
    if (!isNew || value) return;
    let gone = false;
    void lookup({ entity: 'client', params: { per_page: 2, order_by: 'id asc' } })
      .unwrap()
      .then((rows) => {
        if (!gone && rows.items.length === 1) onPatch({ client_id: rows.items[0]!.id });
      })
      .catch(() => {});
    return () => {
      gone = true;
    };
    // once per new order (only isNew): a choice cleared afterwards is the user's
  }, [isNew]);
  return <FieldInput {...props} field={{ ...field, kind: 'ref', entity: 'client', render: undefined }} />;
}

/**
 * How the delivery is paid: in a new order the client's 'оплата в СДЭК' choice with the note that the
 * positions' data is locked once the order is formed; later the state itself.
 */
export function OrderDeliveryPaymentField(props: FieldInputProps) {
  const { value, values, onChange, disabled, id, field } = props;
  if (!isNewOrder(values))
    return <FieldInput {...props} field={{ ...field, kind: 'select', render: undefined }} />;
  return (
    <>
      <Checkbox
        id={id}
        label={NEW_ORDER_TEXTS.payInCdek}
        checked={value === 'in_cdek'}
        disabled={disabled}
        onChange={(e) => onChange(e.currentTarget.checked ? 'in_cdek' : 'not_paid')}
      />
      <Callout intent="warning" data-testid="positions-locked-note">
        {NEW_ORDER_TEXTS.positionsLocked}
      </Callout>
    </>
  );
}
