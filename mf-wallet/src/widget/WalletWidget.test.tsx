import { Refusal, listOf, renderInWorld, USERS, type Answers } from '@caravan/ui-kit/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import '../routes';
import WalletWidget from './WalletWidget';

/** The wallet widget in the header (spec §2, ADR 0012), the gateway answered in-process. */
const RUB = 2;
const YUAN = 1;
const wallet = (over: Record<string, unknown>) => ({
  id: 1,
  title: 'Основной',
  label: '',
  client_id: 1,
  operator_id: null,
  currency_id: RUB,
  amount: '15000.00',
  options: { is_default: true },
  deleted: false,
  ...over,
});
const MAIN = wallet({});
const YUANS = wallet({
  id: 2,
  title: 'Юани',
  currency_id: YUAN,
  amount: '0.00',
  options: { is_default: false },
});
const dues = (total_due: string) => ({
  rows: [],
  count: 0,
  total_due,
  product_due: total_due,
  delivery_due: '0.00',
});
const CURRENCIES: Record<number, object> = {
  [RUB]: { id: RUB, title: 'Рубли', symbol: '₽' },
  [YUAN]: { id: YUAN, title: 'Юани', symbol: '¥' },
};
const answers = (over: Answers = {}): Answers => ({
  wallet_list: () => listOf([MAIN, YUANS]),
  client_order_dues: () => dues('2500.00'),
  currency_get_by_id: (p: { id: number }) => CURRENCIES[p.id],
  client_get_by_id: () => ({ id: 1, title: 'ООО «Ромашка»' }),
  ...over,
});
const widget = () => screen.findByTestId('wallet-widget');
const menu = async () => {
  await userEvent.click(await widget());
  return screen.findByTestId('wallet-menu');
};

test("shows the default wallet's title, balance and what the client's orders owe", async () => {
  const { gateway } = renderInWorld(<WalletWidget />, { user: USERS.client, answers: answers() });
  const w = await widget();
  expect(w).toHaveTextContent('Основной');
  expect(within(w).getByTestId('wallet-widget-balance')).toHaveTextContent(/^15\s000,00\s₽$/);
  expect(await within(w).findByTestId('wallet-widget-due')).toHaveTextContent(/^к оплате: 2\s500,00\s₽$/);
  expect(gateway.of('client_order_dues')[0]!.params).toMatchObject({ client_id: 1 });
});

test('owes nothing: no due is shown', async () => {
  const { gateway } = renderInWorld(<WalletWidget />, {
    user: USERS.client,
    answers: answers({ client_order_dues: () => dues('0.00') }),
  });
  await widget();
  await waitFor(() => expect(gateway.of('client_order_dues')).toHaveLength(1));
  expect(screen.queryByTestId('wallet-widget-due')).not.toBeInTheDocument();
});

test('the wallet the user chose for the widget is shown, not the default one', async () => {
  const user = { ...USERS.client, options: { state: 'working' as const, settings: { wallet_widget_id: 2 } } };
  renderInWorld(<WalletWidget />, { user, answers: answers() });
  expect(await widget()).toHaveTextContent('Юани');
  expect(screen.getByTestId('wallet-widget-balance')).toHaveTextContent(/^0,00\s¥$/);
});

test('no wallets: the widget says so and offers nothing', async () => {
  renderInWorld(<WalletWidget />, {
    user: USERS.client,
    answers: answers({ wallet_list: () => listOf([]) }),
  });
  const button = await screen.findByRole('button', { name: 'нет кошельков' });
  expect(button).toBeDisabled();
});

test('the menu: a funded wallet cannot be deleted; the default one turns auto-debit off', async () => {
  const { gateway } = renderInWorld(<WalletWidget />, {
    user: USERS.client,
    answers: answers({ wallet_update: (p: object) => ({ ...MAIN, ...p }) }),
  });
  const m = await menu();
  expect(within(m).getByRole('menuitem', { name: 'удалить' })).toHaveAttribute('aria-disabled', 'true');
  await userEvent.click(within(m).getByRole('menuitem', { name: 'отключить автосписание (основной: нет)' }));
  await waitFor(() =>
    expect(gateway.of('wallet_update').map((c) => c.params)).toEqual([
      { id: 1, options: { is_default: false } },
    ]),
  );
  expect(await screen.findByText('автосписание отключено: основного кошелька нет')).toBeInTheDocument();
});

test("a refused change shows the service's words", async () => {
  renderInWorld(<WalletWidget />, {
    user: USERS.client,
    answers: answers({ wallet_update: () => new Refusal('действие недоступно') }),
  });
  const m = await menu();
  await userEvent.click(within(m).getByRole('menuitem', { name: 'отключить автосписание (основной: нет)' }));
  expect(await screen.findByText('действие недоступно')).toBeInTheDocument();
});

test('the menu opens the top-up dialog of the shown wallet', async () => {
  renderInWorld(<WalletWidget />, { user: USERS.client, answers: answers() });
  await userEvent.click(within(await menu()).getByRole('menuitem', { name: 'пополнить' }));
  expect(await screen.findByRole('dialog')).toHaveTextContent('пополнение кошелька «Основной»');
});
