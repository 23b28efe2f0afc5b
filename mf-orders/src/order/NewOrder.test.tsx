import { NEW_ORDER_TEXTS } from '@caravan/contracts';
import { createAppStore, type FieldDef } from '@caravan/ui-kit';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { OrderClientField, OrderDeliveryPaymentField } from './NewOrder';

/** The gateway as the browser sees it: the clients this user may see. */
function clientsAre(items: { id: number; title: string }[]) {
  globalThis.fetch = jest.fn(async () => ({
    status: 200,
    json: async () => ({ ok: true, result: { items, count: { total: items.length } } }),
  })) as unknown as typeof fetch;
}

const clientField: FieldDef = { name: 'client_id', label: 'клиент', kind: 'custom' };
const renderClient = (values: Record<string, unknown>, onPatch = jest.fn()) => {
  render(
    <Provider store={createAppStore()}>
      <OrderClientField
        field={clientField}
        value={values.client_id}
        values={values}
        onChange={() => {}}
        onPatch={onPatch}
      />
    </Provider>,
  );
  return onPatch;
};

test('a client with one client record finds it chosen in a new order', async () => {
  clientsAre([{ id: 5, title: 'ООО «Ромашка»' }]);
  const onPatch = renderClient({ id: -1 });
  await waitFor(() => expect(onPatch).toHaveBeenCalledWith({ client_id: 5 }));
});

test('with two client records nothing is chosen for the user; an existing order is left alone', async () => {
  clientsAre([
    { id: 5, title: 'ООО «Ромашка»' },
    { id: 6, title: 'ИП Иванов' },
  ]);
  const onPatch = renderClient({ id: -1 });
  await waitFor(() => expect(globalThis.fetch).toHaveBeenCalled());
  await new Promise((r) => setTimeout(r, 50));
  expect(onPatch).not.toHaveBeenCalled();

  clientsAre([{ id: 5, title: 'ООО «Ромашка»' }]);
  const untouched = renderClient({ id: 12, client_id: 6 });
  await new Promise((r) => setTimeout(r, 50));
  expect(untouched).not.toHaveBeenCalled();
});

test("the new order offers 'оплата в СДЭК' and says the positions' data will be locked", async () => {
  const onChange = jest.fn();
  const field: FieldDef = { name: 'delivery_payment_state', label: 'оплата доставки', kind: 'custom' };
  render(
    <Provider store={createAppStore()}>
      <OrderDeliveryPaymentField
        field={field}
        value="not_paid"
        values={{ id: -1 }}
        onChange={onChange}
        onPatch={() => {}}
      />
    </Provider>,
  );
  expect(screen.getByTestId('positions-locked-note')).toHaveTextContent(NEW_ORDER_TEXTS.positionsLocked);
  await userEvent.click(screen.getByLabelText('оплата в СДЭК'));
  expect(onChange).toHaveBeenCalledWith('in_cdek');
});
