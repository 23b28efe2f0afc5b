import { HTMLSelect } from '@blueprintjs/core';
import {
  CARRIER_MESSAGES,
  DELIVERY_DATA_LABELS,
  DeliveryData,
  type TransportCompany,
} from '@caravan/contracts';
import {
  EditDialog,
  useDocumentGetQuery,
  useDocumentSaveMutation,
  type FieldDef,
  type FieldInputProps,
  type Values,
} from '@caravan/ui-kit';

export const DELIVERY_DIALOG_TEXTS = {
  title: 'данные доставки для накладной',
  fromList: 'из данных клиента',
  newEntry: 'новые данные доставки',
} as const;

const EDITABLE = [
  'title',
  'contact_name',
  'contact_phone',
  'city',
  'address',
  'delivery_point_code',
] as const;

const fill = (d: Partial<DeliveryData> | undefined): Values =>
  Object.fromEntries(EDITABLE.map((f) => [f, d?.[f] ?? '']));

/** The client's saved delivery data: choosing one fills the fields below (they stay editable). */
function SavedDeliveryChoice({ value, onChange, onPatch, list }: FieldInputProps & { list: DeliveryData[] }) {
  return (
    <HTMLSelect
      fill
      value={(value as number | null | undefined) ?? -1}
      data-testid="delivery-choice"
      onChange={(e) => {
        const index = Number(e.target.value);
        onChange(index);
        onPatch(fill(list[index]));
      }}
    >
      <option value={-1}>{DELIVERY_DIALOG_TEXTS.newEntry}</option>
      {list.map((d, i) => (
        <option key={i} value={i}>
          {d.title} — {d.city || d.address || d.delivery_point_code}, {d.contact_name}
        </option>
      ))}
    </HTMLSelect>
  );
}

/** The order's delivery data for this carrier, validated as the contract validates it (spec §5 messages). */
export function deliveryDataOf(values: Values, carrier: TransportCompany): DeliveryData {
  const parsed = DeliveryData.safeParse({
    ...fill(values as Partial<DeliveryData>),
    transport_company: carrier,
    type: String(values.delivery_point_code ?? '').trim() ? 'pvz' : 'address',
  });
  if (!parsed.success) throw new Error(parsed.error.issues[0]!.message);
  return parsed.data;
}

/**
 * Spec §4: a CDEK waybill draft of an order with no delivery carrier chosen opens the delivery-data picker:
 * one of the client's saved entries (their carrier's or none) or new data typed here. The choice is saved
 * to the order's delivery_data with the order's carrier; then the draft goes on.
 */
export function DeliveryDataDialog({
  order,
  onClose,
  onChosen,
}: {
  order: Values;
  onClose(): void;
  onChosen(): void;
}) {
  const carrier = order.transport_company_rus as TransportCompany;
  const { data: client } = useDocumentGetQuery({ entity: 'client', id: order.client_id as number });
  const [save] = useDocumentSaveMutation();
  const list = ((client?.delivery_data_list as DeliveryData[] | undefined) ?? []).filter(
    (d) => !d.transport_company || d.transport_company === carrier,
  );
  const current = order.delivery_data as Partial<DeliveryData> | null | undefined;
  const fields: FieldDef[] = [
    {
      name: 'choice',
      label: DELIVERY_DIALOG_TEXTS.fromList,
      kind: 'custom',
      render: (props) => <SavedDeliveryChoice {...props} list={list} />,
    },
    ...EDITABLE.map((name) => ({
      name,
      label: DELIVERY_DATA_LABELS[name],
      required: ['title', 'contact_name', 'contact_phone'].includes(name),
    })),
  ];
  const submit = async (values: Values) => {
    const delivery_data = deliveryDataOf(values, carrier);
    await save({ entity: 'client_order', values: { id: order.id as number, delivery_data } }).unwrap();
    onChosen();
  };
  return (
    <EditDialog
      isOpen
      title={DELIVERY_DIALOG_TEXTS.title}
      fields={fields}
      initial={{ choice: -1, ...fill(current ?? undefined) }}
      successMessage={CARRIER_MESSAGES.deliveryDataChosen}
      onClose={onClose}
      onSubmit={submit}
    />
  );
}
