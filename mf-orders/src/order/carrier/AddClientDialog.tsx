import { CARRIER_MESSAGES, OPERATOR_CLIENT_LABELS, type OperatorClient } from '@caravan/contracts';
import { EditDialog, useDocumentSaveMutation, type Values } from '@caravan/ui-kit';

export const ADD_CLIENT_TITLE = 'клиент в списке оператора';

const FIELDS = [
  { name: 'title', label: OPERATOR_CLIENT_LABELS.title },
  // spec §5: adding a client needs its identifier
  { name: 'identifier', label: OPERATOR_CLIENT_LABELS.identifier, required: true },
];

/** The operator's client list with the order's client in it, under the identifier given (added or updated). */
export function withClientEntry(
  list: readonly OperatorClient[],
  entry: Pick<OperatorClient, 'id' | 'title' | 'identifier'>,
) {
  const present = list.some((c) => c.id === entry.id);
  return present
    ? list.map((c) =>
        c.id === entry.id ? { ...c, title: entry.title || c.title, identifier: entry.identifier } : c,
      )
    : [...list, entry];
}

/**
 * Spec §4: a CDEK waybill needs the client's identifier at the operator; when it is missing the draft
 * opens this dialog first. It writes the operator's client list (the operator may add a client who has
 * orders with them; svc-carriers checks it) and then the draft goes on.
 */
export function AddClientDialog({
  order,
  operator,
  onClose,
  onAdded,
}: {
  order: Values;
  operator: Values;
  onClose(): void;
  onAdded(): void;
}) {
  const [save] = useDocumentSaveMutation();
  const list = (operator.client_list as OperatorClient[] | undefined) ?? [];
  const current = list.find((c) => c.id === order.client_id);
  const submit = async (values: Values) => {
    const entry = {
      id: order.client_id as number,
      title: String(values.title ?? '').trim(),
      identifier: String(values.identifier ?? '').trim(),
    };
    await save({
      entity: 'operator',
      values: { id: operator.id as number, client_list: withClientEntry(list, entry) },
    }).unwrap();
    onAdded();
  };
  return (
    <EditDialog
      isOpen
      title={ADD_CLIENT_TITLE}
      fields={FIELDS}
      initial={{ title: current?.title || order.client_title || '', identifier: current?.identifier ?? '' }}
      successMessage={CARRIER_MESSAGES.clientAddedToOperator}
      onClose={onClose}
      onSubmit={submit}
    />
  );
}
