import { deliveryPaymentStateByPaid, payableNow, paymentStatesByPaid } from './pricing';

/**
 * What may be paid and the states payments lead to (spec §4, §9; docs/adr/0012-payments.md), worked by
 * hand (the fee gross-up is in pricing.test.ts). An order: goods 1 000 ₽, delivery to Russia 300 ₽ with a 20 ₽ package, to the door 180 ₽:
 * total 1 500 ₽, so the delivery is 500 ₽ of which 320 ₽ reach Russia.
 */
const order = {
  buyout_type: 'operator',
  buyout_price_rur: '1000.00',
  to_ru_delivery_price_rur: '300.00',
  package_price_rur: '20.00',
  total_price_rur: '1500.00',
  product_paid_rur: '0.00',
  delivery_paid_rur: '0.00',
  product_payment_state: 'not_paid',
  delivery_payment_state: 'not_paid',
};

describe('what is payable now', () => {
  it('goods: buyout − paid; delivery: total − delivery paid − buyout', () => {
    expect(payableNow(order, 'product')).toBe('1000.00');
    expect(payableNow(order, 'delivery')).toBe('500.00');
    expect(payableNow({ ...order, product_paid_rur: '400.00', delivery_paid_rur: '320.00' }, 'product')).toBe(
      '600.00',
    );
    expect(payableNow({ ...order, delivery_paid_rur: '320.00' }, 'delivery')).toBe('180.00');
  });
  it('nothing for self-bought goods; never below zero when overpaid', () => {
    expect(payableNow({ ...order, buyout_type: 'self' }, 'product')).toBe('0.00');
    expect(payableNow({ ...order, product_paid_rur: '1200.00' }, 'product')).toBe('0.00');
  });
  it("an 'in_cdek' delivery: only the delivery to Russia with its package is paid here", () => {
    const inCdek = { ...order, delivery_payment_state: 'in_cdek' };
    expect(payableNow(inCdek, 'delivery')).toBe('320.00');
    expect(payableNow({ ...inCdek, delivery_paid_rur: '320.00' }, 'delivery')).toBe('0.00');
  });
});

describe('the states paid amounts lead to (spec §4)', () => {
  it('goods: not paid, partial, paid', () => {
    expect(paymentStatesByPaid(order).product_payment_state).toBe('not_paid');
    expect(paymentStatesByPaid({ ...order, product_paid_rur: '1.00' }).product_payment_state).toBe('partial');
    expect(paymentStatesByPaid({ ...order, product_paid_rur: '1000.00' }).product_payment_state).toBe('paid');
  });
  it('delivery: partial, paid to Russia, paid to the door', () => {
    expect(deliveryPaymentStateByPaid({ ...order, delivery_paid_rur: '100.00' })).toBe('partial');
    expect(deliveryPaymentStateByPaid({ ...order, delivery_paid_rur: '320.00' })).toBe('paid_to_ru');
    expect(deliveryPaymentStateByPaid({ ...order, delivery_paid_rur: '500.00' })).toBe('paid_to_door');
  });
  it("an 'in_cdek' delivery becomes paid_to_ru, never paid_to_door", () => {
    const inCdek = { ...order, delivery_payment_state: 'in_cdek' };
    expect(deliveryPaymentStateByPaid({ ...inCdek, delivery_paid_rur: '320.00' })).toBe('paid_to_ru');
    expect(deliveryPaymentStateByPaid({ ...inCdek, delivery_paid_rur: '500.00' })).toBe('paid_to_ru');
  });
  it("nothing paid keeps the user's choice: self, in CDEK, later", () => {
    expect(
      paymentStatesByPaid({
        ...order,
        product_payment_state: 'in_caravan',
        delivery_payment_state: 'in_cdek',
      }),
    ).toEqual({
      product_payment_state: 'in_caravan',
      delivery_payment_state: 'in_cdek',
    });
    expect(paymentStatesByPaid({ ...order, product_payment_state: 'paid' }).product_payment_state).toBe(
      'not_paid',
    );
  });
});
