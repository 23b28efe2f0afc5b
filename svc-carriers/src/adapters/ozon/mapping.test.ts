import { retryAfterMs } from '../vendorCall';
import { postingWeightKg, toOzonPosting } from './mapping';
import type { OzonWireProduct } from './types';

const product = (quantity: number, weight?: string): OzonWireProduct => ({
  sku: 1,
  offer_id: 'A',
  name: 'Товар',
  quantity,
  price: '100.0000',
  currency_code: 'RUB',
  dimensions: weight === undefined ? null : { weight },
});

describe('the posting weight the card compares with the order (kg, from grams)', () => {
  it('sums grams × quantity and gives kg with three decimals, exactly', () => {
    expect(postingWeightKg([product(3, '333.3'), product(1, '0.1')])).toBe('1.000');
    expect(postingWeightKg([product(2, '1250')])).toBe('2.500');
  });

  it('a product without a weight counts as nothing; none with one: no weight at all', () => {
    expect(postingWeightKg([product(1, '500'), product(4)])).toBe('0.500');
    expect(postingWeightKg([product(1), product(2, '')])).toBeNull();
    expect(postingWeightKg([])).toBeNull();
  });

  it('a posting without products reads as empty, not as a failure', () => {
    expect(toOzonPosting({ posting_number: 'X-1', status: 'cancelled', products: [] })).toEqual({
      posting_number: 'X-1',
      status: 'cancelled',
      products: [],
      weight: null,
      delivering_date: null,
    });
  });
});

describe('Retry-After', () => {
  it('seconds or an HTTP date; 1 s when absent or unreadable', () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs('Tue, 24 Nov 2026 12:00:03 GMT', now)).toBe(3000);
    expect(retryAfterMs(null, now)).toBe(1000);
    expect(retryAfterMs('soon', now)).toBe(1000);
  });
});
