import type { OzonPosting } from '@caravan/contracts';
import { ozonMismatches } from './ozon';

/** Spec §5: the posting is compared with the order (quantities, number, weight within 0.1 kg, date). */
const posting: OzonPosting = {
  posting_number: '0123456789-0001-1',
  status: 'delivering',
  products: [
    { name: 'Кроссовки', sku: 1001, offer_id: 'RUN-42', quantity: 2, price: '4990.00', currency_code: 'RUB' },
  ],
  weight: '1.950',
  delivering_date: '2026-11-28T00:00:00Z',
};
const order = {
  transport_company_rus_order_number: ' 0123456789-0001-1 ',
  weight: '2.000',
  to_door_delivery_date: '2026-11-28',
};
const linked = (amount: string) => ({
  id: 1,
  amount,
  options: { ozonData: { sku: 1001, offer_id: 'RUN-42', quantity: 2 } },
});

test('an order agreeing with its posting (weight within 0.1 kg) has no mismatch', () => {
  expect(ozonMismatches(posting, order, [linked('2.00')])).toEqual([]);
});

test('each disagreement is named', () => {
  const found = ozonMismatches(
    posting,
    {
      transport_company_rus_order_number: '0123456789-0002-1',
      weight: '2.100',
      to_door_delivery_date: '2026-11-30',
    },
    [linked('3.00')],
  );
  expect(found).toHaveLength(4);
  expect(found.join('; ')).toMatch(
    /номер отправления.*товар 1001: в отправлении 2, в заказе 3.*вес 1\.950 кг.*дата доставки 2026-11-28/,
  );
});
