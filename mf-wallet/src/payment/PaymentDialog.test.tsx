import { Refusal, listOf, renderInWorld, USERS, type Answers } from '@caravan/ui-kit/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import PaymentDialog from './PaymentDialog';

/**
 * The order payment dialog (spec orders-payments-calls §2, §4; ADR 0012): asks the service whether
 * and what the order can be paid, then what and how; the result in the spec's words.
 */
const ORDER = {
  id: 40,
  title: 'Кроссовки и носки',
  client_id: 1,
  product_paid_rur: '0',
  delivery_paid_rur: '0',
  transport_company_rus_order_uuid: null,
};
const MAIN = {
  id: 1,
  title: 'Основной',
  client_id: 1,
  currency_id: 2,
  amount: '15000.00',
  options: { is_default: true },
  deleted: false,
};
const SMALL = { ...MAIN, id: 3, title: 'Мелочь', amount: '100.00', options: { is_default: false } };
const OTHER_CLIENT = { ...MAIN, id: 5, title: 'Чужой', client_id: 2 };
type Receive = {
  id: number;
  prepare?: boolean;
  kind?: string;
  type?: string;
  amount?: string;
  wallet_id?: number;
};
const answers = (over: Answers = {}): Answers => ({
  client_order_get_by_id: () => ORDER,
  wallet_list: () => listOf([MAIN, SMALL, OTHER_CLIENT]),
  client_order_payment_receive: (p: Receive) =>
    p.prepare ? { product_due: '12000.00', delivery_due: '3500.00' } : { message: 'товар оплачен частично' },
  ...over,
});
const open = (over: Answers = {}, user = USERS.client) => {
  const onClose = jest.fn();
  const world = renderInWorld(<PaymentDialog orderId={ORDER.id} onClose={onClose} />, {
    user,
    answers: answers(over),
  });
  return { ...world, onClose };
};
const amount = () => screen.getByLabelText('сумма, ₽');
const pay = () => screen.getByTestId('payment-pay');

test("shows the dues, proposes the goods' whole due, refuses more than is due in words", async () => {
  open();
  const dues = await screen.findByTestId('payment-dues');
  expect(dues).toHaveTextContent(/товар к оплате: 12\s000,00\s₽/);
  expect(dues).toHaveTextContent(/доставка к оплате: 3\s500,00\s₽/);
  expect(screen.getByRole('dialog')).toHaveTextContent('оплата заказа Кроссовки и носки');
  expect(screen.getByLabelText('товар')).toBeChecked();
  expect(amount()).toHaveValue('12000.00');
  // QR by default: 12 000 / (1 − 0.7%) = 12 084.59
  expect(screen.getByRole('dialog')).toHaveTextContent(/к оплате с комиссией: 12\s084,59\s₽/);
  await userEvent.clear(amount());
  await userEvent.type(amount(), '12000,01');
  expect(screen.getByRole('dialog')).toHaveTextContent(/сумма больше суммы к оплате: 12\s000,00\s₽/);
  expect(pay()).toBeDisabled();
  await userEvent.click(screen.getByLabelText('доставка'));
  expect(amount()).toHaveValue('3500.00');
  expect(pay()).toBeEnabled();
});

test('when the service says the order cannot be paid here, its words are all the dialog shows', async () => {
  open({
    client_order_payment_receive: () => new Refusal('оплата в Caravan недоступна: заказ ещё не оценён'),
  });
  expect(await screen.findByTestId('payment-unavailable')).toHaveTextContent(
    'оплата в Caravan недоступна: заказ ещё не оценён',
  );
  expect(screen.queryByTestId('payment-pay')).not.toBeInTheDocument();
});

test("from the wallet: the client's rouble wallets, the default first; a wallet holding less is refused", async () => {
  const { gateway } = open();
  await screen.findByTestId('payment-dues');
  await userEvent.click(screen.getByLabelText('с кошелька'));
  const select = screen.getByLabelText('кошелёк');
  await waitFor(() => expect(select).toHaveValue('1'));
  expect(
    within(select)
      .getAllByRole('option')
      .map((o) => o.textContent),
  ).toEqual([
    expect.stringMatching(/^Основной — 15\s000,00\s₽$/),
    expect.stringMatching(/^Мелочь — 100,00\s₽$/),
  ]);
  await userEvent.selectOptions(select, '3');
  expect(screen.getByText('на кошельке не хватает денег')).toBeInTheDocument();
  expect(pay()).toBeDisabled();
  await userEvent.selectOptions(select, '1');
  await userEvent.clear(amount());
  await userEvent.type(amount(), '10 000');
  await userEvent.click(pay());
  expect(await screen.findByText('готово!')).toBeInTheDocument();
  expect(screen.getAllByText('товар оплачен частично').length).toBeGreaterThan(0);
  expect(
    gateway
      .of('client_order_payment_receive')
      .filter((c) => !c.params.prepare)
      .map((c) => c.params),
  ).toEqual([{ id: 40, kind: 'product', type: 'wallet', amount: '10000', wallet_id: 1 }]);
});

test("a refused payment shows 'ошибка' with the service's description", async () => {
  open({
    client_order_payment_receive: (p: Receive) =>
      p.prepare ? { product_due: '12000.00', delivery_due: '0.00' } : new Refusal('недостаточно средств'),
  });
  await screen.findByTestId('payment-dues');
  expect(screen.getByLabelText('доставка')).toBeDisabled();
  await userEvent.click(screen.getByLabelText('с кошелька'));
  await waitFor(() => expect(pay()).toBeEnabled());
  await userEvent.click(pay());
  expect(await screen.findByTestId('payment-error')).toHaveTextContent('недостаточно средств');
  expect(screen.getByText('ошибка', { exact: true })).toBeInTheDocument();
});

test("'оплата в СДЭК' is offered only with a CDEK waybill; the admin's mark only to an admin", async () => {
  open();
  await screen.findByTestId('payment-dues');
  expect(screen.queryByLabelText('оплата в СДЭК (при получении)')).not.toBeInTheDocument();
  expect(screen.queryByLabelText('отметить оплаченным (администратор)')).not.toBeInTheDocument();
});

test('an admin sees the mark and the CDEK choice of an order with a waybill', async () => {
  open(
    { client_order_get_by_id: () => ({ ...ORDER, transport_company_rus_order_uuid: 'cdek-1' }) },
    USERS.admin,
  );
  await screen.findByTestId('payment-dues');
  expect(screen.getByLabelText('оплата в СДЭК (при получении)')).toBeInTheDocument();
  expect(screen.getByLabelText('отметить оплаченным (администратор)')).toBeInTheDocument();
});
