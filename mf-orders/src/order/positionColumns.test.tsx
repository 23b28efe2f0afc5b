import { render } from '@testing-library/react';
import type { TFunction } from 'i18next';
import { COLUMNS, type ColumnContext } from './positionColumns';

/**
 * The position table's price columns (issue 17, ADR 0018) read the rate and the buyout commission the
 * order carries and price by contracts' pricing, as the service prices the buyout.
 */
const t = ((key: string) => key) as unknown as TFunction;
const position = {
  id: 1,
  deleted: false,
  created_at: '2026-11-24T10:00:00Z',
  price_cny: '100',
  amount: '10',
  weight: '2',
  to_consolidation_warehouse_delivery_price_cny: '50',
  to_ru_delivery_price_cny: '40',
  to_door_delivery_price_rur: '300',
};
const order = { id: 7, buyout_type: 'operator', rate_cny: '12.5', buyout_commission: '3.00', weight: '20' };
const context = (over: Partial<ColumnContext['order']> = {}): ColumnContext => ({
  order: { ...order, ...over },
  rows: [position],
  rate: (over.rate_cny === undefined ? order.rate_cny : over.rate_cny) as string | null,
  t,
});
const shown = (column: 'price_per_unit' | 'price_per_kg' | 'delivery_per_kg', c: ColumnContext) =>
  render(<>{COLUMNS[column].cell(position, 0, c)}</>).container.textContent?.replace(/\s/g, ' ');

test('price per unit and per kg carry the commission for an operator buyout', () => {
  // ((50 + 40) × 12.5 + 300) / 10 + 100 × 1.03 × 12.5 = 142.50 + 1287.50 = 1430.00; per 2 kg 715.00
  expect(shown('price_per_unit', context())).toBe('1 430,00 ₽');
  expect(shown('price_per_kg', context())).toBe('715,00 ₽');
});

test('a self buyout carries no commission: 142.50 + 1250.00', () => {
  expect(shown('price_per_unit', context({ buyout_type: 'self' }))).toBe('1 392,50 ₽');
});

test("delivery per kg is the position's delivery over its weight: (40 × 12.5 + 300) / 20 kg", () => {
  expect(shown('delivery_per_kg', context())).toBe('40,00 ₽');
});

test('without a rate the price columns stay empty rather than wrong', () => {
  expect(shown('price_per_unit', context({ rate_cny: null }))).toBe('');
});
