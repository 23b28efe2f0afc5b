import { render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { EditDialog } from './EditDialog';

const amount = { name: 'amount', label: 'количество', kind: 'integer' as const };

afterEach(() => void i18next.changeLanguage('ru'));

test("a position's 'количество' reads 'quantity' in English, never 'balance'", async () => {
  await i18next.changeLanguage('en');
  render(
    <EditDialog
      title="positions"
      entity="client_order_position"
      fields={[amount]}
      isOpen
      onClose={() => {}}
      onSubmit={async () => {}}
    />,
  );
  expect(await screen.findByText('quantity')).toBeInTheDocument();
  expect(screen.queryByText('balance')).not.toBeInTheDocument();
});

test("a wallet's amount is its balance; in Russian the spec's label stays", async () => {
  await i18next.changeLanguage('en');
  const { unmount } = render(
    <EditDialog
      title="wallet"
      entity="wallet"
      fields={[{ ...amount, label: 'баланс' }]}
      isOpen
      onClose={() => {}}
      onSubmit={async () => {}}
    />,
  );
  expect(await screen.findByText('balance')).toBeInTheDocument();
  unmount();
  await i18next.changeLanguage('ru');
  render(
    <EditDialog
      title="позиции"
      entity="client_order_position"
      fields={[amount]}
      isOpen
      onClose={() => {}}
      onSubmit={async () => {}}
    />,
  );
  expect(await screen.findByText('количество')).toBeInTheDocument();
});
