import { Callout, HTMLSelect } from '@blueprintjs/core';
import {
  clientOrder,
  CURRENCY,
  DELIVERY_PAYMENT_STATE_LABELS,
  operatorHoursNotice,
  ORDER_STAGE_LABELS,
  PRODUCT_PAYMENT_STATE_LABELS,
  TRANSPORT_COMPANY_LABELS,
  type DeliveryData,
  type OrderTransition,
  type WorkingHours,
  todayLocal,
} from '@caravan/contracts';
import {
  EditDialog,
  enumOptions,
  fieldsOf,
  useDocumentGetQuery,
  useDocumentSaveMutation,
  type FieldDef,
  type FieldInputProps,
  type Values,
} from '@caravan/ui-kit';
import { useTranslation } from 'react-i18next';
import { useOrderCallMutation } from './api';

const today = () => todayLocal();

/** The kinds of the stage dialogs' fields (the labels and required marks come from the contract). */
const DIALOG_FIELDS: Record<string, Partial<FieldDef>> = {
  send_date: { kind: 'date' },
  to_ru_delivery_date: { kind: 'date' },
  to_door_delivery_date: { kind: 'date' },
  shipment_article: {},
  weight: { kind: 'decimal' },
  volume: { kind: 'decimal' },
  density: { kind: 'decimal' },
  amount: { kind: 'integer' },
  to_ru_delivery_price: { kind: 'decimal' },
  to_ru_delivery_currency_id: {},
  transport_company_rus_order_number: {},
  transport_company_rus: { kind: 'select', options: enumOptions(TRANSPORT_COMPANY_LABELS) },
};

/** The client's saved delivery addresses to pick from (spec §4: the order-created confirmation with delivery contact). */
function DeliveryPicker({ value, onChange, list }: FieldInputProps & { list: DeliveryData[] }) {
  const { t } = useTranslation();
  const chosen = value as DeliveryData | null;
  const index = chosen ? list.findIndex((d) => d.title === chosen.title) : -1;
  return (
    <HTMLSelect
      fill
      value={index}
      data-testid="delivery-picker"
      onChange={(e) => onChange(Number(e.target.value) >= 0 ? list[Number(e.target.value)] : null)}
    >
      <option value={-1}>{t('orders.noDelivery')}</option>
      {list.map((d, i) => (
        <option key={i} value={i}>
          {d.title} — {d.city || d.address || d.delivery_point_code}, {d.contact_name} {d.contact_phone}
        </option>
      ))}
    </HTMLSelect>
  );
}

/** The fields a move asks for: the dialog's own of the transition (spec §5 dialogs). */
function fieldsFor(move: OrderTransition, deliveryList: DeliveryData[]): FieldDef[] {
  if (move.to === 'created')
    return [
      {
        name: 'delivery_data',
        label: clientOrder.labels.delivery_data,
        kind: 'custom',
        render: (props) => <DeliveryPicker {...props} list={deliveryList} />,
      },
      ...fieldsOf(clientOrder, {
        transport_company_rus: DIALOG_FIELDS.transport_company_rus!,
        // a client chooses how they will pay: now (not paid yet) or later in the product (spec §4)
        product_payment_state: {
          kind: 'select',
          options: enumOptions(PRODUCT_PAYMENT_STATE_LABELS).filter((o) =>
            ['not_paid', 'in_caravan', 'self'].includes(o.value),
          ),
        },
        delivery_payment_state: {
          kind: 'select',
          options: enumOptions(DELIVERY_PAYMENT_STATE_LABELS).filter((o) =>
            ['not_paid', 'in_caravan'].includes(o.value),
          ),
        },
      }),
    ];
  return fieldsOf(
    clientOrder,
    Object.fromEntries(
      move.fields.map((f) => [f, { ...DIALOG_FIELDS[f], required: move.required.includes(f) }]),
    ),
  );
}

function initialFor(move: OrderTransition, order: Values): Values {
  const values: Values = Object.fromEntries(move.fields.map((f) => [f, order[f] ?? null]));
  if ('send_date' in values && !values.send_date) values.send_date = today();
  if ('to_ru_delivery_currency_id' in values && !values.to_ru_delivery_currency_id)
    values.to_ru_delivery_currency_id = CURRENCY.USD; // spec §5: the currency defaults to USD
  if (move.to === 'created' && order.product_payment_state === 'in_cdek')
    values.product_payment_state = 'not_paid';
  return values;
}

/**
 * One stage move of the order card: the order-created confirmation (delivery contact, payment choice,
 * the operator's working hours in Moscow time), 'ожидает оплаты' and the sent/received dialogs. The
 * server checks every rule again; its refusal is shown as it comes.
 */
export function StageDialog({
  order,
  move,
  onClose,
}: {
  order: Values;
  move: OrderTransition;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const [call] = useOrderCallMutation();
  const [save] = useDocumentSaveMutation();
  const { data: client } = useDocumentGetQuery(
    { entity: 'client', id: order.client_id as number },
    { skip: move.to !== 'created' },
  );
  const { data: operator } = useDocumentGetQuery(
    { entity: 'operator', id: order.operator_id as number },
    { skip: move.to !== 'created' },
  );
  const id = order.id as number;
  const submit = async (values: Values) => {
    if (move.via === 'client_order_created' || move.via === 'client_order_buyout_waiting')
      await call({ method: move.via, params: { id, ...values } }).unwrap();
    // the version the dialog was opened on: a second press of the same move is refused, not applied twice
    else
      await save({
        entity: 'client_order',
        values: { id, stage: move.to, version: order.version, ...values },
      }).unwrap();
  };
  const notice =
    move.to === 'created' && operator
      ? operatorHoursNotice(operator.working_hours as Partial<WorkingHours>, new Date())
      : null;
  return (
    <EditDialog
      isOpen
      title={`${t('orders.moveTitle')}: ${ORDER_STAGE_LABELS[move.to]}`}
      fields={fieldsFor(move, (client?.delivery_data_list as DeliveryData[] | undefined) ?? [])}
      initial={initialFor(move, order)}
      submitText={t(`orders.move.${move.to}`)}
      successMessage={move.success}
      onClose={onClose}
      onSubmit={submit}
    >
      {notice && (
        <Callout
          intent={notice.kind === 'within' ? 'success' : 'warning'}
          icon="time"
          data-testid="hours-notice"
        >
          {notice.text}
        </Callout>
      )}
      {move.to === 'buyout_waiting' && <p>{t('orders.buyoutWaitingConfirm')}</p>}
    </EditDialog>
  );
}
