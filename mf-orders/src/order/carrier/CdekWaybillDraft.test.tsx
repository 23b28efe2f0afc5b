import { CARRIER_MESSAGES } from '@caravan/contracts';
import { listOf, Refusal, renderInWorld, USERS, type Answers } from '@caravan/ui-kit/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADD_CLIENT_TITLE } from './AddClientDialog';
import { CDEK_DRAFT_TEXTS, CdekWaybillDraft } from './CdekWaybillDraft';
import { DELIVERY_DIALOG_TEXTS } from './DeliveryDataDialog';

/** The CDEK waybill draft on the card (spec orders-payments-calls §2, §4; issue 18). */
const operator = (over: Record<string, unknown> = {}) => ({
  id: 5,
  title: 'Карго Восток',
  transport_company_data: [
    {
      type: 'cdek',
      api_data: { client_id: 'cdek-account', access_token: '' },
      recipient_cost_commission: '0',
    },
  ],
  client_list: [{ id: 2, title: 'ИП Петров', identifier: 'PET-7' }],
  ...over,
});
const order = (over: Record<string, unknown> = {}) => ({
  id: 40,
  client_id: 2,
  operator_id: 5,
  transport_company_rus: 'cdek',
  transport_company_rus_order_number: null,
  transport_company_rus_order_uuid: null,
  client_title: 'ИП Петров',
  delivery_data: {
    title: 'Пётр Петров',
    city: 'Казань',
    delivery_point_code: 'KZN12',
    transport_company: 'cdek',
  },
  amount: 3,
  weight: '12.500',
  ...over,
});
const created = { entity: { uuid: 'e7b1c1a0-0000-4000-8000-000000000001', cdek_number: null, statuses: [] } };
/** The order's positions: all at the warehouse unless told; the draft asks for two counts. */
const positions =
  ({ total = 2, notAtWarehouse = 0 } = {}) =>
  (p: Record<string, unknown>) => {
    const byStage = (p.where_param as { field: string }[]).some((w) => w.field === 'stage');
    const n = byStage ? notAtWarehouse : total;
    return { ...listOf([]), total: n };
  };
const show = (values = order(), answers: Answers = {}, user = USERS.operator) =>
  renderInWorld(<CdekWaybillDraft id={40} values={values} />, {
    user,
    answers: {
      operator_get_by_id: () => operator(),
      client_order_position_list: positions(),
      '/api/cdek_order_create': () => created,
      ...answers,
    },
  });
const confirm = async () => {
  await userEvent.click(await screen.findByTestId('cdek-draft'));
  const dialog = await screen.findByRole('alertdialog');
  return dialog;
};

test('the operator confirms and the waybill is created in CDEK for this order', async () => {
  const { gateway } = show();
  const dialog = await confirm();
  expect(dialog).toHaveTextContent(CDEK_DRAFT_TEXTS.confirm);
  expect(dialog).not.toHaveTextContent(CDEK_DRAFT_TEXTS.defaults);
  await userEvent.click(within(dialog).getByRole('button', { name: CDEK_DRAFT_TEXTS.button }));
  expect(await screen.findByText(CDEK_DRAFT_TEXTS.created)).toBeInTheDocument();
  expect(gateway.of('/api/cdek_order_create').map((c) => c.params)).toEqual([{ client_order_id: 40 }]);
  expect(gateway.of('client_order_update')).toHaveLength(0);
});

test('an order without places or weight goes to CDEK as one place of 1 kg, saved first', async () => {
  const { gateway } = show(order({ amount: null, weight: '' }), {
    client_order_update: (p: Record<string, unknown>) => ({ ...order(), ...p }),
  });
  const dialog = await confirm();
  expect(dialog).toHaveTextContent(CDEK_DRAFT_TEXTS.defaults);
  await userEvent.click(within(dialog).getByRole('button', { name: CDEK_DRAFT_TEXTS.button }));
  await waitFor(() => expect(gateway.of('/api/cdek_order_create')).toHaveLength(1));
  expect(gateway.of('client_order_update')[0]!.params).toEqual({ id: 40, amount: 1, weight: '1' });
  const order_ = gateway.calls
    .map((c) => c.method)
    .filter((m) => m !== 'operator_get_by_id' && m !== 'client_order_position_list');
  expect(order_).toEqual(['client_order_update', '/api/cdek_order_create']);
});

test("CDEK's refusal reaches the operator in its words", async () => {
  show(order(), { '/api/cdek_order_create': () => new Refusal('СДЭК: не указан код ПВЗ') });
  const dialog = await confirm();
  await userEvent.click(within(dialog).getByRole('button', { name: CDEK_DRAFT_TEXTS.button }));
  expect(
    await screen.findByText(CARRIER_MESSAGES.waybillDraftFailed('СДЭК: не указан код ПВЗ')),
  ).toBeInTheDocument();
});

test('without an identifier of the client at the operator the add-client dialog comes first, then the draft goes on', async () => {
  const { gateway } = show(order(), {
    operator_get_by_id: () => operator({ client_list: [{ id: 9, title: 'Другой', identifier: 'D-1' }] }),
    operator_update: (p: Record<string, unknown>) => operator(p),
  });
  await userEvent.click(await screen.findByTestId('cdek-draft'));
  const dialog = await screen.findByRole('dialog', { name: ADD_CLIENT_TITLE });
  expect(within(dialog).getByLabelText(/название/)).toHaveValue('ИП Петров');
  await userEvent.click(within(dialog).getByRole('button', { name: 'сохранить' }));
  expect(await screen.findByText('не заполнено поле: идентификатор')).toBeInTheDocument();
  expect(gateway.of('operator_update')).toHaveLength(0);
  await userEvent.type(within(dialog).getByLabelText(/идентификатор/), ' PET-9 ');
  await userEvent.click(within(dialog).getByRole('button', { name: 'сохранить' }));
  expect(await screen.findByText(CARRIER_MESSAGES.clientAddedToOperator)).toBeInTheDocument();
  expect(gateway.of('operator_update')[0]!.params).toEqual({
    id: 5,
    client_list: [
      { id: 9, title: 'Другой', identifier: 'D-1' },
      { id: 2, title: 'ИП Петров', identifier: 'PET-9' },
    ],
  });
  expect(await screen.findByRole('alertdialog')).toHaveTextContent(CDEK_DRAFT_TEXTS.confirm);
  expect(gateway.of('/api/cdek_order_create')).toHaveLength(0);
});

test('positions not yet at the consolidation warehouse stop the draft with their count', async () => {
  const { gateway } = show(order(), {
    client_order_position_list: positions({ total: 3, notAtWarehouse: 2 }),
  });
  await userEvent.click(await screen.findByTestId('cdek-draft'));
  expect(await screen.findByText(CARRIER_MESSAGES.positionsNotAtWarehouse(2))).toBeInTheDocument();
  expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  expect(gateway.of('client_order_position_list').map((c) => c.params.where_param)).toContainEqual([
    { field: 'client_order_id', op: '=', value: 40 },
    {
      field: 'stage',
      op: 'in',
      value: ['draft', 'verification', 'created', 'buyout_waiting', 'buyout_done', 'warehouse_waiting'],
    },
  ]);
  expect(gateway.of('/api/cdek_order_create')).toHaveLength(0);
});

test('an order without positions has nothing to send', async () => {
  show(order(), { client_order_position_list: positions({ total: 0 }) });
  await userEvent.click(await screen.findByTestId('cdek-draft'));
  expect(await screen.findByText('в заказе нет позиций')).toBeInTheDocument();
  expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
});

test('without a delivery carrier the picker opens: a saved entry of the client is chosen, checked and saved to the order', async () => {
  const saved = {
    title: 'Склад Казань',
    transport_company: 'cdek',
    type: 'pvz',
    city: 'Казань',
    address: '',
    delivery_point_code: 'KZN7',
    contact_name: 'Пётр',
    contact_phone: '+79001234567',
  };
  const { gateway } = show(order({ delivery_data: null }), {
    client_get_by_id: () => ({
      id: 2,
      delivery_data_list: [saved, { ...saved, title: 'ПЭК Москва', transport_company: 'pec' }],
    }),
    client_order_update: (p: Record<string, unknown>) => ({ ...order(), ...p }),
  });
  await userEvent.click(await screen.findByTestId('cdek-draft'));
  const dialog = await screen.findByRole('dialog', { name: DELIVERY_DIALOG_TEXTS.title });
  const choice = within(dialog).getByTestId('delivery-choice');
  await waitFor(() => expect(within(choice).getAllByRole('option')).toHaveLength(2)); // the PEC one is not offered
  await userEvent.selectOptions(choice, '0');
  await userEvent.clear(within(dialog).getByLabelText(/телефон/));
  await userEvent.type(within(dialog).getByLabelText(/телефон/), '89001234567');
  await userEvent.click(within(dialog).getByRole('button', { name: 'сохранить' }));
  expect(await screen.findByText('введите корректный номер')).toBeInTheDocument();
  expect(gateway.of('client_order_update')).toHaveLength(0);
  await userEvent.clear(within(dialog).getByLabelText(/телефон/));
  await userEvent.type(within(dialog).getByLabelText(/телефон/), '+79001234567');
  await userEvent.click(within(dialog).getByRole('button', { name: 'сохранить' }));
  expect(await screen.findByRole('alertdialog')).toHaveTextContent(CDEK_DRAFT_TEXTS.confirm);
  expect(gateway.of('client_order_update')[0]!.params).toEqual({ id: 40, delivery_data: saved });
});

test('delivery data without a recipient title stops at the confirmation with the reason', async () => {
  show(order({ delivery_data: { transport_company: 'cdek', title: '' } }));
  await userEvent.click(await screen.findByTestId('cdek-draft'));
  expect(await screen.findByText(CARRIER_MESSAGES.waybillDraftNeedsTitle)).toBeInTheDocument();
  expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
});

test('an operator without CDEK API data sees the button disabled with the reason', async () => {
  show(order(), { operator_get_by_id: () => operator({ transport_company_data: [] }) });
  const button = await screen.findByTestId('cdek-draft');
  expect(button).toBeDisabled();
  await userEvent.hover(button.parentElement!);
  expect(await screen.findByText(CARRIER_MESSAGES.noApiData)).toBeInTheDocument();
});

test('no button once the order has a CDEK waybill', async () => {
  const { gateway } = show(order({ transport_company_rus_order_uuid: 'e7b1c1a0' }));
  await waitFor(() => expect(gateway.of('operator_get_by_id')).toHaveLength(1));
  await new Promise((r) => setTimeout(r, 0));
  expect(screen.queryByTestId('cdek-draft')).not.toBeInTheDocument();
});

test('a client gets no draft button and the operator is not loaded for them', async () => {
  const { gateway } = show(order(), {}, USERS.client);
  await new Promise((r) => setTimeout(r, 0));
  expect(screen.queryByTestId('cdek-draft')).not.toBeInTheDocument();
  expect(gateway.calls).toHaveLength(0);
});
