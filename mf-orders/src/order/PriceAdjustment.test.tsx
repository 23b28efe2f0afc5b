import { ADJUSTABLE_PRICE_LABELS } from '@caravan/contracts';
import { createAppStore } from '@caravan/ui-kit';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { PriceAdjustmentDialog } from './PriceAdjustment';

beforeEach(() => {
  // the operator the rates come from, as the gateway answers
  globalThis.fetch = jest.fn(async () => ({
    status: 200,
    json: async () => ({ ok: true, result: { id: 3, tax_rate: '6', nds_rate: '20' } }),
  })) as unknown as typeof fetch;
});

test('typing a price ticks its field, so the save is open without a second click', async () => {
  render(
    <Provider store={createAppStore()}>
      <PriceAdjustmentDialog
        order={{ id: 7, operator_id: 3, buyout_price_rur: '1000.00' }}
        onClose={() => {}}
      />
    </Provider>,
  );
  const buyout = screen.getByRole('checkbox', { name: ADJUSTABLE_PRICE_LABELS.buyout_price_rur });
  expect(buyout).not.toBeChecked();
  expect(screen.getByRole('button', { name: 'сохранить' })).toBeDisabled();

  await userEvent.type(document.getElementById('adjust-buyout_price_rur')!, '1200');

  expect(buyout).toBeChecked();
  expect(screen.getByRole('checkbox', { name: ADJUSTABLE_PRICE_LABELS.package_price_rur })).not.toBeChecked();
  expect(screen.getByRole('button', { name: 'сохранить' })).toBeEnabled();
});
