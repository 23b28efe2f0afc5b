import type { OrderDue, Wallet } from '@caravan/contracts';
import { Refusal, renderInWorld, USERS, type Answers } from '@caravan/ui-kit/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import '../routes';
import { WriteOffDialog } from './WriteOffDialog';

/**
 * The write-off (spec §2, §4, §5): the client's orders with dues, the sum of the choice, 'не хватает'
 * with the button disabled, each chosen order paid delivery first then goods, a refusal naming its order.
 */
const wallet = (over: Partial<Wallet> & { id: number; title: string; amount: string }) =>
  ({
    label: '',
    client_id: 1,
    operator_id: null,
    currency_id: 2,
    options: { is_default: false },
    deleted: false,
    ...over,
  }) as unknown as Wallet;
const MAIN = wallet({ id: 1, title: 'Основной', amount: '3000.00', options: { is_default: true } });
const due = (id: number, title: string, product_due: string, delivery_due: string): OrderDue =>
  ({
    id,
    title,
    stage: 'buyout_waiting',
    client_id: 1,
    product_due,
    delivery_due,
    due: (Number(product_due) + Number(delivery_due)).toFixed(2),
  }) as unknown as OrderDue;
const SHOES = due(11, 'Кроссовки', '1200.00', '300.00');
const TOYS = due(12, 'Игрушки', '2500.00', '0.00');
const dues = (rows: OrderDue[]) => ({
  rows,
  count: rows.length,
  total_due: rows.reduce((s, r) => s + Number(r.due), 0).toFixed(2),
  product_due: '0',
  delivery_due: '0',
});

type Pay = { id: number; kind?: string; amount?: string; prepare?: boolean; wallet_id?: number };
const open = (answers: Answers = {}, wallets = [MAIN]) => {
  const onClose = jest.fn();
  const world = renderInWorld(<WriteOffDialog wallet={MAIN} wallets={wallets} onClose={onClose} />, {
    user: USERS.client,
    url: '/',
    answers: { client_order_dues: () => dues([SHOES, TOYS]), ...answers },
  });
  return { ...world, onClose };
};
const tick = async (order: OrderDue) =>
  userEvent.click(within(screen.getByTestId(`writeoff-row-${order.id}`)).getByRole('checkbox'));
const payButton = () => screen.getByRole('button', { name: /^оплатить/ });

test('lists the orders owing, sums the choice, and says what the wallet lacks with the button disabled', async () => {
  const { gateway } = open();
  const d = await screen.findByRole('dialog');
  expect(await screen.findByTestId('writeoff-table')).toBeInTheDocument();
  expect(screen.getByTestId('writeoff-wallet')).toHaveTextContent(/^Основной — 3\s000,00\s₽$/);
  expect(d).toHaveTextContent(/всего к оплате: 4\s000,00\s₽, заказов: 2/);
  expect(gateway.of('client_order_dues')[0]!.params).toEqual({ client_id: 1, page: 1, per_page: 20 });
  expect(screen.queryByTestId('writeoff-selection')).not.toBeInTheDocument();

  await tick(SHOES);
  expect(screen.getByTestId('writeoff-selection')).toHaveTextContent(
    /выбрано заказов: 1, на сумму 1\s500,00\s₽/,
  );
  expect(screen.queryByTestId('writeoff-shortfall')).not.toBeInTheDocument();
  expect(payButton()).toBeEnabled();
  await tick(TOYS);
  expect(screen.getByTestId('writeoff-shortfall')).toHaveTextContent(/^не хватает: 1\s000,00\s₽$/);
  expect(payButton()).toBeDisabled();
  expect(payButton()).toHaveTextContent(/оплатить 4\s000,00\s₽/);
});

test('pays the chosen order from the wallet, the delivery and then the goods, never more than shown', async () => {
  const paid: Pay[] = [];
  const { onClose } = open({
    // what is payable now: the goods a little less than the table showed (paid in part meanwhile)
    client_order_payment_receive: (p: Pay) =>
      p.prepare ? { product_due: '1000.00', delivery_due: '300.00' } : (paid.push(p), { message: 'ok' }),
  });
  await screen.findByTestId('writeoff-table');
  await tick(SHOES);
  await userEvent.click(payButton());
  await waitFor(() => expect(onClose).toHaveBeenCalled());
  expect(paid).toEqual([
    { id: 11, kind: 'delivery', type: 'wallet', wallet_id: 1, amount: '300.00' },
    { id: 11, kind: 'product', type: 'wallet', wallet_id: 1, amount: '1000.00' },
  ]);
  expect(await screen.findByText('готово')).toBeInTheDocument();
});

test('a refusal stops the run and names the order; the dialog stays open', async () => {
  const { onClose, gateway } = open({
    client_order_payment_receive: (p: Pay) =>
      p.prepare ? { product_due: '1200.00', delivery_due: '300.00' } : new Refusal('недостаточно средств'),
  });
  await screen.findByTestId('writeoff-table');
  await tick(SHOES);
  await userEvent.click(payButton());
  expect(await screen.findByTestId('writeoff-failure')).toHaveTextContent(
    'заказ «Кроссовки»: недостаточно средств',
  );
  expect(onClose).not.toHaveBeenCalled();
  // stopped at the first refused payment: the goods were not tried
  expect(gateway.of('client_order_payment_receive').filter((c) => !c.params.prepare)).toHaveLength(1);
});

test('nothing to pay: says so and offers no payment', async () => {
  open({ client_order_dues: () => dues([]) });
  expect(await screen.findByText('нет заказов к оплате')).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: /^оплатить/ })).not.toBeInTheDocument();
});

test('several rouble wallets of the client: the default is chosen first, another one can be', async () => {
  const spare = wallet({ id: 6, title: 'Запасной', amount: '9000.00' });
  const yuans = wallet({ id: 2, title: 'Юани', amount: '820.50', currency_id: 1 });
  open({}, [MAIN, spare, yuans]);
  await screen.findByTestId('writeoff-table');
  const select = screen.getByLabelText('кошелёк');
  expect(select).toHaveValue('1');
  expect(
    within(select)
      .getAllByRole('option')
      .map((o) => o.textContent),
  ).toEqual([
    expect.stringMatching(/^Основной ★ — 3\s000,00\s₽$/),
    expect.stringMatching(/^Запасной — 9\s000,00\s₽$/),
  ]);
  await userEvent.selectOptions(select, '6');
  await tick(SHOES);
  await tick(TOYS);
  expect(screen.queryByTestId('writeoff-shortfall')).not.toBeInTheDocument();
  expect(payButton()).toBeEnabled();
});
