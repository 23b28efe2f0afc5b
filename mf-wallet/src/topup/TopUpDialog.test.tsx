import { CURRENCY, type Wallet } from '@caravan/contracts';
import { Refusal, renderInWorld, USERS, type Answers } from '@caravan/ui-kit/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import '../routes';
import { TopUpDialog } from './TopUpDialog';

/** The top-up dialog (spec §2 'Top-up dialogs', §9), the gateway and the bank's answers in-process. */
const RUB = CURRENCY.RUB;
const wallet = (over: Partial<Wallet> & { id: number; title: string; amount: string }) =>
  ({
    label: '',
    client_id: 1,
    operator_id: null,
    currency_id: RUB,
    options: { is_default: false },
    deleted: false,
    ...over,
  }) as unknown as Wallet;
const MAIN = wallet({ id: 1, title: 'Основной', amount: '15000.00' });
const RESERVE = wallet({ id: 3, title: 'Резерв', amount: '500.00' });
const SAVINGS = wallet({ id: 4, title: 'Копилка', amount: '5000.00' });
const OTHER_CLIENT = wallet({ id: 5, title: 'Чужой', amount: '9000.00', client_id: 2 });
const YUANS = wallet({ id: 2, title: 'Юани', amount: '820.50', currency_id: 1 });

const base: Answers = {
  currency_get_by_id: (p: { id: number }) => ({ id: p.id, title: p.id === RUB ? 'Рубли' : 'Юани' }),
};
const open = (answers: Answers = {}, w = MAIN, user = USERS.client) => {
  const onClose = jest.fn();
  const world = renderInWorld(
    <TopUpDialog wallet={w} wallets={[MAIN, RESERVE, SAVINGS, OTHER_CLIENT, YUANS]} onClose={onClose} />,
    { user, answers: { ...base, ...answers } },
  );
  return { ...world, onClose };
};
const dialog = () => screen.findByRole('dialog');
const amount = () => screen.getByLabelText(/^сумма, /);
const submit = () => screen.getByRole('button', { name: 'пополнить' });

test('the amount is refused in words until it is above 0; the fee the payer pays follows the method', async () => {
  open();
  const d = await dialog();
  expect(d).toHaveTextContent('пополнение кошелька «Основной»');
  expect(submit()).toBeDisabled();
  await userEvent.type(amount(), '0');
  expect(d).toHaveTextContent('сумма должна быть больше 0');
  expect(submit()).toBeDisabled();
  await userEvent.clear(amount());
  await userEvent.type(amount(), '1000');
  // QR: 1000 / (1 − 0.7%) = 1007.05
  expect(d).toHaveTextContent(/к оплате с комиссией: 1\s007,05\s₽/);
  await userEvent.click(within(d).getByLabelText('карта'));
  // card: 1000 / (1 − 2.5%) = 1025.64
  expect(d).toHaveTextContent(/к оплате с комиссией: 1\s025,64\s₽/);
  expect(submit()).toBeEnabled();
});

test('by QR: the bank payment is created for the amount, and the dialog says when the bank paid', async () => {
  const { gateway } = open({
    '/api/modul_sbp_create': () => ({
      payment_id: 77,
      amount_with_fee: '1007.05',
      image: 'data:image/png;base64,iVBORw0KGgo=',
      sbp_link: 'https://sbp.example/pay/77',
    }),
    acquiring_payment_get_by_id: () => ({ id: 77, state: 'done', amount: '1000.00' }),
  });
  await dialog();
  await userEvent.type(amount(), '1000');
  await userEvent.click(submit());
  expect(await screen.findByText('готово!')).toBeInTheDocument();
  expect(screen.getByText(/^баланс пополнен на 1\s000,00\s₽$/)).toBeInTheDocument();
  expect(gateway.of('/api/modul_sbp_create').map((c) => c.params)).toEqual([
    { operation_type: 'wallet', type: 'img', wallet_id: 1, amount: '1000' },
  ]);
  expect(gateway.of('acquiring_payment_get_by_id')[0]!.params).toEqual({ id: 77 });
});

test("a declined payment ends in 'ошибка' with the bank's words", async () => {
  open({
    '/api/modul_sbp_create': () => ({
      payment_id: 78,
      amount_with_fee: '512.82',
      sbp_link: 'https://sbp/78',
    }),
    acquiring_payment_get_by_id: () => ({ id: 78, state: 'failed', message: 'платёж отклонён плательщиком' }),
  });
  await dialog();
  await userEvent.click(screen.getByLabelText('ссылка СБП'));
  await userEvent.type(amount(), '500');
  await userEvent.click(submit());
  expect(await screen.findByText('ошибка', { exact: true })).toBeInTheDocument();
  expect(screen.getByTestId('topup-error-message')).toHaveTextContent('платёж отклонён плательщиком');
});

test("the service's refusal is shown and the form stays", async () => {
  open({ '/api/modul_sbp_create': () => new Refusal('что-то пошло не так: банк недоступен') });
  await dialog();
  await userEvent.type(amount(), '1000');
  await userEvent.click(submit());
  expect(await screen.findByText('что-то пошло не так: банк недоступен')).toBeInTheDocument();
  expect(screen.getByTestId('topup-form')).toBeInTheDocument();
});

test("from another wallet: only the client's wallets in the currency holding the amount; the transfer is done at once", async () => {
  const { gateway } = open({
    wallet_transfer: () => ({ message: 'перевод выполнен' }),
  });
  const d = await dialog();
  await userEvent.click(within(d).getByLabelText('с другого кошелька'));
  await userEvent.type(amount(), '1000');
  // another client's and the yuan wallet are not offered; 'Резерв' holds only 500
  expect(within(d).queryByText('Чужой')).not.toBeInTheDocument();
  expect(within(d).queryByText('Юани')).not.toBeInTheDocument();
  expect(within(d).getByRole('radio', { name: /Резерв/ })).toBeDisabled();
  expect(submit()).toBeDisabled();
  await userEvent.click(within(d).getByRole('radio', { name: /Копилка/ }));
  await userEvent.click(submit());
  expect(await screen.findByText('готово!')).toBeInTheDocument();
  expect(gateway.of('wallet_transfer').map((c) => c.params)).toEqual([
    { sender_wallet_id: 4, receiver_wallet_id: 1, amount: '1000' },
  ]);
  expect(gateway.of('/api/modul_sbp_create')).toHaveLength(0);
});

test('a yuan wallet cannot be topped up through the bank', async () => {
  open({}, YUANS);
  const d = await dialog();
  expect(d).toHaveTextContent('пополнить через банк можно только рублёвый кошелёк');
  for (const method of ['QR-код СБП', 'ссылка СБП', 'карта'])
    expect(within(d).getByLabelText(method)).toBeDisabled();
  await waitFor(() => expect(within(d).getByLabelText('с другого кошелька')).toBeChecked());
});

test("a payment the reconciliation learned the bank will not pay ends in 'не оплачен в срок' with why (ADR 0014)", async () => {
  open({
    '/api/modul_sbp_create': () => ({
      payment_id: 79,
      amount_with_fee: '1007.05',
      sbp_link: 'https://sbp/79',
    }),
    acquiring_payment_get_by_id: () => ({
      id: 79,
      state: 'expired',
      message: 'платёж не состоялся: банк не начал этот платёж',
    }),
  });
  await dialog();
  await userEvent.click(screen.getByLabelText('ссылка СБП'));
  await userEvent.type(amount(), '1000');
  await userEvent.click(submit());
  expect(await screen.findByText('не оплачен в срок')).toBeInTheDocument();
  expect(screen.getByTestId('topup-expired-message')).toHaveTextContent(
    'платёж не состоялся: банк не начал этот платёж',
  );
  expect(screen.queryByText('готово!')).not.toBeInTheDocument();
});
