import { configureStore } from '@reduxjs/toolkit';
import type { AcquiringPayment, Wallet } from '@caravan/contracts';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import '../routes';
import { TopUpDialog } from './TopUpDialog';

/**
 * The top-up dialog's outcome of a payment through the bank (issue 17, ADR 0014): what the service says
 * of the payment — here the payment as the dialog reads it (the live stream is silent) — is shown as
 * 'готово!', 'ошибка' with the bank's words, or, when the reconciliation learned from the bank that it
 * will not be paid, 'не оплачен в срок' with the reason.
 */
let payment: Partial<AcquiringPayment> = {};

jest.mock('@caravan/ui-kit', () => ({
  ...jest.requireActual<object>('@caravan/ui-kit'),
  useCurrentUser: () => ({ id: 501, roles: ['client'], fullname: 'Клиент' }),
  useCurrencySymbol: () => '₽',
  toast: jest.fn(),
  useServerEvents: jest.fn(),
  useDocumentGetQuery: () => ({ data: payment.state ? payment : undefined }),
}));
jest.mock('../store/walletApi', () => ({
  ...jest.requireActual<object>('../store/walletApi'),
  useWalletTransferMutation: () => [jest.fn()],
  createTopUp: jest.fn(async () => ({
    ok: true,
    result: { payment_id: 41, amount_with_fee: '1007.05', sbp_link: 'https://bank.test/sbp/41' },
  })),
}));

const wallet = {
  id: 7,
  title: 'Основной',
  client_id: 3,
  currency_id: 2,
  amount: '0.00',
  deleted: false,
} as unknown as Wallet;

async function payThroughTheBank(settled: Partial<AcquiringPayment>) {
  payment = {};
  const store = configureStore({ reducer: { idle: (state: object = {}) => state } });
  const view = render(
    <Provider store={store}>
      <TopUpDialog wallet={wallet} wallets={[wallet]} onClose={jest.fn()} />
    </Provider>,
  );
  await userEvent.click(screen.getByRole('radio', { name: 'ссылка СБП' }));
  await userEvent.type(screen.getByRole('textbox', { name: /сумма/ }), '1000');
  await userEvent.click(screen.getByRole('button', { name: 'пополнить' }));
  expect(await screen.findByText('ожидаем оплату…')).toBeInTheDocument();
  // the service settles the payment; the dialog reads it on its next poll
  payment = { id: 41, amount: '1000.00', ...settled };
  view.rerender(
    <Provider store={store}>
      <TopUpDialog wallet={wallet} wallets={[wallet]} onClose={jest.fn()} />
    </Provider>,
  );
}

test('a payment the bank declined or never started, learned by the reconciliation: не оплачен в срок, with why', async () => {
  await payThroughTheBank({ state: 'expired', message: 'платёж не состоялся: банк не начал этот платёж' });
  expect(await screen.findByText('не оплачен в срок')).toBeInTheDocument();
  expect(screen.getByTestId('topup-expired-message')).toHaveTextContent(
    'платёж не состоялся: банк не начал этот платёж',
  );
  expect(screen.queryByText('ожидаем оплату…')).not.toBeInTheDocument();
  expect(screen.queryByText('готово!')).not.toBeInTheDocument();
});

test('a payment the bank completed (by its callback or by the reconciliation): готово!', async () => {
  await payThroughTheBank({ state: 'done', message: 'баланс пополнен на 1 000,00 ₽' });
  expect(await screen.findByText('готово!')).toBeInTheDocument();
});

test('a declined payment: ошибка with the bank’s words', async () => {
  await payThroughTheBank({ state: 'failed', message: 'платёж отклонён плательщиком' });
  expect(await screen.findByText('ошибка')).toBeInTheDocument();
  expect(screen.getByTestId('topup-error-message')).toHaveTextContent('платёж отклонён плательщиком');
});
