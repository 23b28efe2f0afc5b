import {
  amountWithFee,
  applyPriceAdjustment,
  convertToRubles,
  derivedPrices,
  packagePriceRur,
  positionDeliveryEstimates,
  currencyRate,
  deliveryDue,
  orderBuyoutCommission,
  orderBuyoutPriceRur,
  orderExchangeRate,
  orderPricePerKg,
  orderTotalPriceRur,
  positionBuyoutPriceRur,
  positionCalculatedWeight,
  positionDeliveryPerKg,
  positionPricePerKg,
  positionPricePerUnit,
  priceWithoutVat,
  priceWithVat,
  PRICING_MESSAGES,
  productDue,
  productPaymentStateByPaid,
  recalculateVat,
  resetPriceAdjustment,
  toRubles,
  vatPercentOf,
  orderWeightMismatchHint,
  type ExchangeRateRow,
  type OrderAdjustmentInput,
} from './pricing';

describe('calculated weight of a position', () => {
  // sums in China (price × amount + delivery to the consolidation warehouse):
  //   p1 = 100 × 2 + 20 = 220 ¥, p2 = 40 × 4 + 20 = 180 ¥, total 400 ¥ (the deleted one does not count)
  const p1 = { price_cny: '100', amount: '2', to_consolidation_warehouse_delivery_price_cny: '20' };
  const p2 = { price_cny: '40.00', amount: 4, to_consolidation_warehouse_delivery_price_cny: '20' };
  const gone = { price_cny: '1000', amount: '1', deleted: true };
  const positions = [p1, p2, gone];

  it("shares the order weight by the positions' sums, per unit", () => {
    // p1: 10 kg × 220 / 400 = 5.5 kg for 2 units → 2.75; p2: 10 × 180 / 400 = 4.5 kg for 4 → 1.125
    expect(positionCalculatedWeight(p1, positions, '10')).toBe('2.750');
    expect(positionCalculatedWeight(p2, positions, '10')).toBe('1.125');
  });

  it('rounds to grams', () => {
    // three equal sums of 1 ¥ share 1 kg: 1 / 3 = 0.3333… → 0.333
    const one = { price_cny: '1', amount: '1' };
    expect(positionCalculatedWeight(one, [one, one, one], '1')).toBe('0.333');
  });

  it('is null without an amount, an order weight or any sum to share by', () => {
    expect(positionCalculatedWeight({ ...p1, amount: '0' }, positions, '10')).toBeNull();
    expect(positionCalculatedWeight({ ...p1, amount: null }, positions, '10')).toBeNull();
    expect(positionCalculatedWeight(p1, positions, null)).toBeNull();
    const free = { price_cny: '0', amount: '1' };
    expect(positionCalculatedWeight(free, [free], '10')).toBeNull();
  });
});

describe('price per unit and per kg of a position', () => {
  // price 12.5 ¥ × 4, delivery to the consolidation warehouse 10 ¥, to Russia 30 ¥, within Russia 200 ₽,
  // yuan at 11.05: ((10 + 30) × 11.05 + 200) / 4 + 12.5 × 11.05 = (442 + 200) / 4 + 138.125
  //   = 160.5 + 138.125 = 298.625 → 298.63 ₽
  const position = {
    price_cny: '12.5',
    amount: '4',
    weight: '0.5',
    to_consolidation_warehouse_delivery_price_cny: '10',
    to_ru_delivery_price_cny: '30',
    to_door_delivery_price_rur: '200',
  };

  it('adds the delivery shared per unit to the price in rubles', () => {
    expect(positionPricePerUnit(position, '11.05')).toBe('298.63');
  });

  it('without deliveries is the price at the rate', () => {
    // 3.33 ¥ × 11.05 = 36.7965 → 36.80
    expect(positionPricePerUnit({ price_cny: '3.33', amount: '3' }, '11.05')).toBe('36.80');
  });

  it('per kg divides the unrounded unit price by the unit weight', () => {
    // 298.625 / 0.5 = 597.25; with 3 kg: 298.625 / 3 = 99.541666… → 99.54
    expect(positionPricePerKg(position, '11.05')).toBe('597.25');
    expect(positionPricePerKg({ ...position, weight: '3' }, '11.05')).toBe('99.54');
  });

  it('is null for a zero amount, a zero weight (per kg) or a missing rate', () => {
    expect(positionPricePerUnit({ ...position, amount: '0' }, '11.05')).toBeNull();
    expect(positionPricePerUnit(position, null)).toBeNull();
    expect(positionPricePerKg({ ...position, weight: '0' }, '11.05')).toBeNull();
    expect(positionPricePerKg({ ...position, weight: null }, '11.05')).toBeNull();
    expect(positionPricePerKg(position, undefined)).toBeNull();
  });
});

describe('delivery per kg and the order price per kg', () => {
  const order = { weight: '20', to_ru_delivery_price_rur: '3000', to_door_delivery_price_rur: '500.00' };
  // the position's delivery estimates: to Russia 90.50 ¥ (at 11.05 = 1000.025 ₽), within Russia 200 ₽
  const position = {
    weight: '1.5',
    amount: '4',
    to_ru_delivery_price_cny: '90.50',
    to_door_delivery_price_rur: '200',
  };

  it("is the position's delivery in rubles over its weight, a price per kg (ADR 0018)", () => {
    // (90.50 × 11.05 + 200) / (1.5 × 4) = 1200.025 / 6 = 200.004… → 200.00
    expect(positionDeliveryPerKg(position, '11.05')).toBe('200.00');
    // within Russia only: 200 / 6 = 33.33
    expect(positionDeliveryPerKg({ ...position, to_ru_delivery_price_cny: null }, null)).toBe('33.33');
  });

  it('is not the share of the delivery the spec formula gives (that share is the weight times this)', () => {
    // the spec formula gave (3000 + 500) × 1.5 × 4 / 20 = 1050 for a position of 6 kg: 175 ₽/kg
    const shared = { ...position, to_ru_delivery_price_cny: null, to_door_delivery_price_rur: '1050' };
    expect(positionDeliveryPerKg(shared, '11.05')).toBe(orderPricePerKg(order));
  });

  it('order price per kg is the delivery over the weight', () => {
    // 3500 / 20 = 175; 3500 / 3 = 1166.666… → 1166.67
    expect(orderPricePerKg(order)).toBe('175.00');
    expect(orderPricePerKg({ ...order, weight: '3' })).toBe('1166.67');
    // to_door absent counts as 0: 3000 / 20 = 150
    expect(orderPricePerKg({ weight: '20', to_ru_delivery_price_rur: '3000' })).toBe('150.00');
  });

  it('is null without a weight, an amount, any delivery, or the rate its part to Russia needs', () => {
    expect(positionDeliveryPerKg({ ...position, weight: null }, '11.05')).toBeNull();
    expect(positionDeliveryPerKg({ ...position, weight: '0' }, '11.05')).toBeNull();
    expect(positionDeliveryPerKg({ ...position, amount: null }, '11.05')).toBeNull();
    expect(positionDeliveryPerKg({ weight: '1.5', amount: '4' }, '11.05')).toBeNull();
    expect(positionDeliveryPerKg(position, null)).toBeNull();
    expect(orderPricePerKg({ ...order, weight: '0' })).toBeNull();
    expect(orderPricePerKg({ ...order, weight: null })).toBeNull();
  });
});

describe("the route's buyout commission: one pricing for the calculator and the order", () => {
  const position = { price_cny: '100', amount: '10', to_consolidation_warehouse_delivery_price_cny: '50' };

  it('is carried by the buyout price: goods × (1 + commission) + consolidation delivery, at the rate', () => {
    // (100 × 1.03 × 10 + 50) × 11.05 = 1080 × 11.05 = 11934.00
    expect(positionBuyoutPriceRur(position, '11.05', '3')).toBe('11934.00');
    // without: (1000 + 50) × 11.05 = 11602.50
    expect(positionBuyoutPriceRur(position, '11.05')).toBe('11602.50');
    expect(orderBuyoutPriceRur([position, position], '11.05', '3.00')).toBe('23868.00');
  });

  it('by the price per unit and per kg', () => {
    // (50 × 11.05) / 10 + 100 × 1.03 × 11.05 = 55.25 + 1138.15 = 1193.40; per 2 kg: 596.70
    expect(positionPricePerUnit(position, '11.05', '3')).toBe('1193.40');
    expect(positionPricePerKg({ ...position, weight: '2' }, '11.05', '3')).toBe('596.70');
  });

  it("is the route's for an operator buyout, none for a self buyout", () => {
    expect(orderBuyoutCommission({ buyout_type: 'operator' }, '2.50')).toBe('2.50');
    expect(orderBuyoutCommission({ buyout_type: 'self' }, '2.50')).toBeNull();
    expect(orderBuyoutCommission({ buyout_type: 'operator' }, null)).toBeNull();
  });

  it('goes into the derived order prices and totals', () => {
    const derived = derivedPrices({
      order: { buyout_type: 'operator' },
      positions: [position],
      rate: {
        id: 1,
        date: '2026-01-01',
        operator_id: null,
        client_sell_rate_cny: '11.05',
        client_sell_rate_usd: '90',
      },
      routePriceUsd: null,
      routeBuyoutCommission: '3.00',
      package: null,
    });
    expect(derived.order).toMatchObject({ buyout_price_rur: '11934.00', total_price_rur: '11934.00' });
    expect(derived.positions[0]!.buyout_price_rur).toBe('11934.00');
  });
});

describe("rubles at the order's rate", () => {
  const row = (id: number, date: string, operator_id: number | null, cny: string, usd: string) => ({
    id,
    date,
    operator_id,
    client_sell_rate_cny: cny,
    client_sell_rate_usd: usd,
  });
  const rates: ExchangeRateRow[] = [
    row(1, '2024-05-01', 7, '12.1', '90.5'),
    row(2, '2024-05-03', 7, '12.3', '91.0000'),
    row(5, '2024-05-03', 7, '12.4', '91.5'),
    row(3, '2024-05-04', 8, '12.9', '92'),
    row(4, '2024-05-10', null, '13', '95'),
  ];

  it("takes the order's own rate", () => {
    expect(orderExchangeRate({ rate_id: 1, operator_id: 7 }, rates)?.id).toBe(1);
  });

  it("else the operator's latest (by date, then id), else the latest general rate", () => {
    expect(orderExchangeRate({ rate_id: null, operator_id: 7 }, rates)?.id).toBe(5);
    expect(orderExchangeRate({ operator_id: 9 }, rates)?.id).toBe(4);
  });

  it('is null when the rate is missing', () => {
    expect(orderExchangeRate({ rate_id: 99, operator_id: 7 }, rates)).toBeNull();
    expect(orderExchangeRate({ operator_id: 7 }, [])).toBeNull();
  });

  it('reads the rate of the chosen currency (1 = CNY, 3 = USD)', () => {
    expect(currencyRate(rates[1]!, 1)).toBe('12.3');
    expect(currencyRate(rates[1]!, 3)).toBe('91');
    expect(currencyRate(rates[1]!, 2)).toBe('1');
    expect(currencyRate(rates[1]!, 42)).toBeNull();
    expect(currencyRate(null, 3)).toBeNull();
  });

  it('converts to rubles, two decimals', () => {
    // 465 $ × 91.5 = 42547.5; 465 $ × 91 = 42315; 10.01 ¥ × 12.345 = 123.57345 → 123.57
    expect(toRubles('465', '91.5')).toBe('42547.50');
    expect(convertToRubles('465', rates[1]!, 3)).toBe('42315.00');
    expect(toRubles('10.01', '12.345')).toBe('123.57');
    expect(convertToRubles('465', null, 3)).toBeNull();
    expect(toRubles(null, '91.5')).toBeNull();
  });
});

describe('payment fee gross-up', () => {
  it('divides by what is left after the fee, two decimals', () => {
    // card: 1000 / (1 − 0.025) = 1000 / 0.975 = 1025.641… → 1025.64
    expect(amountWithFee('1000', 'card')).toBe('1025.64');
    // QR and SBP: 1000 / 0.993 = 1007.0493… → 1007.05; 993 / 0.993 = 1000
    expect(amountWithFee('1000', 'img')).toBe('1007.05');
    expect(amountWithFee('1000', 'link')).toBe('1007.05');
    expect(amountWithFee('993', 'img')).toBe('1000.00');
    // wallet: no fee
    expect(amountWithFee('1000', 'wallet')).toBe('1000.00');
  });

  it('zero stays zero, nothing stays nothing', () => {
    expect(amountWithFee('0', 'card')).toBe('0.00');
    expect(amountWithFee(null, 'card')).toBeNull();
  });
});

describe('what is due and the product payment state', () => {
  const order = {
    buyout_price_rur: '5000',
    product_paid_rur: '2000',
    total_price_rur: '8000',
    delivery_paid_rur: '1000',
    product_payment_state: 'not_paid',
  };

  it('product due is the buyout price less what was paid', () => {
    // 5000 − 2000 = 3000; overpaid 100 − 150 = −50
    expect(productDue(order)).toBe('3000.00');
    expect(productDue({ buyout_price_rur: '100', product_paid_rur: '150' })).toBe('-50.00');
    expect(productDue({})).toBe('0.00');
    // goods the client buys out themselves are not paid to us (the total leaves them out too)
    expect(productDue({ ...order, buyout_type: 'self' })).toBe('0.00');
    expect(productDue({ ...order, product_payment_state: 'self' })).toBe('0.00');
  });

  it('delivery due is the total less the delivery paid and the goods', () => {
    // 8000 − 1000 − 5000 (buyout) = 2000
    expect(deliveryDue(order)).toBe('2000.00');
  });

  it('with self-bought goods subtracts what was paid for them instead', () => {
    // 8000 − 1000 − 300 (product_paid_rur) = 6700
    expect(deliveryDue({ ...order, product_paid_rur: '300', product_payment_state: 'self' })).toBe('6700.00');
  });

  it('is paid in part or in full by the paid amount versus the buyout price', () => {
    expect(productPaymentStateByPaid({ buyout_price_rur: '5000', product_paid_rur: '0' })).toBe('not_paid');
    expect(productPaymentStateByPaid({ buyout_price_rur: '5000', product_paid_rur: '2000' })).toBe('partial');
    expect(productPaymentStateByPaid({ buyout_price_rur: '5000', product_paid_rur: '5000.00' })).toBe('paid');
    expect(productPaymentStateByPaid({ buyout_price_rur: '5000', product_paid_rur: '6000' })).toBe('paid');
    expect(productPaymentStateByPaid({ buyout_price_rur: '0' })).toBe('not_paid');
  });
});

describe('order totals', () => {
  const order = {
    buyout_type: 'operator',
    buyout_price_rur: '5000',
    to_ru_delivery_price_rur: '2500.5',
    to_door_delivery_price_rur: '400',
    package_price_rur: '99.50',
  };

  it('adds the buyout, the deliveries and the package', () => {
    // 5000 + 2500.5 + 400 + 99.5 = 8000
    expect(orderTotalPriceRur(order)).toBe('8000.00');
    expect(orderTotalPriceRur({ buyout_type: 'operator', buyout_price_rur: '10.10' })).toBe('10.10');
  });

  it('leaves the buyout out when the client buys the goods themselves', () => {
    // 2500.5 + 400 + 99.5 = 3000
    expect(orderTotalPriceRur({ ...order, buyout_type: 'self' })).toBe('3000.00');
  });

  it("prices the buyout from the positions' sums in China at the yuan rate", () => {
    // (12.5 × 4 + 10) ¥ = 60 ¥ × 11.05 = 663; 3.33 × 3 = 9.99 ¥ × 11.05 = 110.3895 → 110.39;
    // the order: 663 + 110.39 = 773.39 (the deleted position does not count)
    const p1 = { price_cny: '12.5', amount: '4', to_consolidation_warehouse_delivery_price_cny: '10' };
    const p2 = { price_cny: '3.33', amount: '3' };
    expect(positionBuyoutPriceRur(p1, '11.05')).toBe('663.00');
    expect(positionBuyoutPriceRur(p2, '11.05')).toBe('110.39');
    expect(orderBuyoutPriceRur([p1, p2, { price_cny: '1', amount: '1', deleted: true }], '11.05')).toBe(
      '773.39',
    );
    expect(orderBuyoutPriceRur([p1], null)).toBeNull();
  });
});

describe("the admin's price adjustment", () => {
  const who = { adjusted_by: 17, adjusted_at: '2024-05-10T12:00:00.000Z' };
  const order: OrderAdjustmentInput = {
    buyout_type: 'operator',
    buyout_price_rur: '900',
    to_ru_delivery_price_rur: '2000',
    to_door_delivery_price_rur: '450',
    package_price_rur: '100',
    product_payment_state: 'not_paid',
    delivery_payment_state: 'in_cdek',
  };
  const rates = { tax_rate: '6', nds_rate: '20', recipient_cost_commission: '3' };

  it('grosses the entered prices up by the taxes, and the in_cdek ones by the commission', () => {
    const reply = applyPriceAdjustment(
      order,
      { buyout_price_rur: '1000', to_door_delivery_price_rur: '500' },
      rates,
      who,
    );
    expect(reply.ok).toBe(true);
    // goods (not in CDEK): 1000 × 1.06 × 1.2 = 1272
    // to the door (delivery in_cdek): 500 × 1.06 × 1.2 = 636, / (1 − 0.03) = 636 / 0.97 = 655.670… → 655.67
    // total: 1272 + 2000 + 655.67 + 100 = 4027.67
    expect(reply.result?.prices).toEqual({
      buyout_price_rur: '1272.00',
      to_door_delivery_price_rur: '655.67',
      total_price_rur: '4027.67',
    });
    expect(reply.result?.price_info).toEqual({
      tax_rate: '6.00',
      nds_rate: '20.00',
      cdek_commission: '3.00',
      manually_adjusted: true,
      adjusted_by: 17,
      adjusted_at: '2024-05-10T12:00:00.000Z',
      price_breakdown: {
        'buyout_price_rur.entered': '1000.00',
        'buyout_price_rur.before': '900.00',
        'buyout_price_rur.price': '1272.00',
        'to_door_delivery_price_rur.entered': '500.00',
        'to_door_delivery_price_rur.before': '450.00',
        'to_door_delivery_price_rur.price': '655.67',
      },
    });
  });

  it('takes absent rates as 0 and leaves the buyout out of a self-bought total', () => {
    const self = { ...order, buyout_type: 'self', delivery_payment_state: 'not_paid' };
    const reply = applyPriceAdjustment(self, { to_ru_delivery_price_rur: '1000' }, {}, who);
    // 1000 × 1 × 1 = 1000; total without the buyout: 1000 + 450 + 100 = 1550
    expect(reply.result?.prices).toEqual({ to_ru_delivery_price_rur: '1000.00', total_price_rur: '1550.00' });
    expect(reply.result?.price_info.cdek_commission).toBeNull();
    expect(reply.result?.price_info.tax_rate).toBe('0.00');
  });

  it('refuses with nothing ticked, a price that is not a number, or a 100% commission', () => {
    expect(applyPriceAdjustment(order, {}, rates, who)).toEqual({
      ok: false,
      result: null,
      message: PRICING_MESSAGES.nothingTicked,
    });
    expect(applyPriceAdjustment(order, { package_price_rur: '' }, rates, who).message).toBe(
      'отметьте хотя бы одну цену',
    );
    expect(applyPriceAdjustment(order, { package_price_rur: '-5' }, rates, who).message).toBe(
      "цена 'упаковка, ₽': ожидается число не меньше 0",
    );
    const full = { ...rates, recipient_cost_commission: '100' };
    expect(applyPriceAdjustment(order, { to_ru_delivery_price_rur: '10' }, full, who).message).toBe(
      PRICING_MESSAGES.fullCommission,
    );
  });

  it('reset restores the prices before, keeps a price changed since, and clears the marker', () => {
    const adjusted = applyPriceAdjustment(
      order,
      { buyout_price_rur: '1000', to_door_delivery_price_rur: '500' },
      rates,
      who,
    ).result!;
    // since then the to-door price was set to 700 by someone else
    const now = { ...order, buyout_price_rur: '1272.00', to_door_delivery_price_rur: '700' };
    const reset = resetPriceAdjustment(now, adjusted.price_info);
    // buyout back to 900; total 900 + 2000 + 700 + 100 = 3700
    expect(reset.prices).toEqual({ buyout_price_rur: '900.00', total_price_rur: '3700.00' });
    expect(reset.price_info).toMatchObject({
      manually_adjusted: false,
      adjusted_by: null,
      price_breakdown: {},
    });
  });

  it('reset of an order never adjusted changes no price', () => {
    // total recomputed from the parts: 900 + 2000 + 450 + 100 = 3450
    expect(resetPriceAdjustment(order, null).prices).toEqual({ total_price_rur: '3450.00' });
    expect(resetPriceAdjustment(order, { price_breakdown: {} }).prices).toEqual({
      total_price_rur: '3450.00',
    });
  });
});

describe('VAT recalculation', () => {
  it('with VAT = without × (1 + VAT/100), two decimals', () => {
    // 100 × 1.2 = 120; 99.99 × 1.2 = 119.988 → 119.99
    expect(priceWithVat('100', '20')).toBe('120.00');
    expect(priceWithVat('99.99', '20')).toBe('119.99');
    expect(priceWithVat('100', null)).toBeNull();
  });

  it('without VAT from with VAT', () => {
    // 120 / 1.2 = 100; 100 / 1.2 = 83.333… → 83.33
    expect(priceWithoutVat('120', '20')).toBe('100.00');
    expect(priceWithoutVat('100', '20')).toBe('83.33');
    expect(priceWithoutVat('100', '-100')).toBeNull();
  });

  it('VAT percent from the two prices', () => {
    // (120 − 100) × 100 / 100 = 20; (4 − 3) × 100 / 3 = 33.333… → 33.33
    expect(vatPercentOf('100', '120')).toBe('20.00');
    expect(vatPercentOf('3', '4')).toBe('33.33');
    expect(vatPercentOf('0', '4')).toBeNull();
  });

  it('keeps a known VAT and moves the other price', () => {
    // 200 × 1.2 = 240
    expect(recalculateVat({ price_no_nds: '200', nds: '20', price_nds: '120.00' }, 'price_no_nds')).toEqual({
      price_no_nds: '200',
      nds: '20',
      price_nds: '240.00',
    });
    // 132 / 1.2 = 110
    expect(recalculateVat({ price_no_nds: '100', nds: '20', price_nds: '132' }, 'price_nds')).toEqual({
      price_no_nds: '110.00',
      nds: '20',
      price_nds: '132',
    });
    // a new VAT: 100 × 1.1 = 110; with only the price with VAT: 60 / 1.2 = 50
    expect(recalculateVat({ price_no_nds: '100', nds: '10', price_nds: '120' }, 'nds').price_nds).toBe(
      '110.00',
    );
    expect(recalculateVat({ price_no_nds: null, nds: '20', price_nds: '60' }, 'nds').price_no_nds).toBe(
      '50.00',
    );
  });

  it('derives the VAT when only the two prices are known', () => {
    // (118 − 100) × 100 / 100 = 18
    expect(recalculateVat({ price_no_nds: '100', nds: null, price_nds: '118' }, 'price_nds').nds).toBe(
      '18.00',
    );
    expect(recalculateVat({ price_no_nds: '100', nds: '', price_nds: '118' }, 'price_no_nds').nds).toBe(
      '18.00',
    );
  });

  it('changes nothing when the edited value is empty', () => {
    const values = { price_no_nds: '', nds: '20', price_nds: '120' };
    expect(recalculateVat(values, 'price_no_nds')).toEqual(values);
  });
});

describe('the weight mismatch hint', () => {
  // 1.5 kg × 4 + 0.25 kg × 3 = 6 + 0.75 = 6.75 kg
  const positions = [
    { weight: '1.5', amount: '4' },
    { weight: '0.250', amount: 3 },
    { weight: '100', amount: '1', deleted: true },
  ];

  it('names the sum of the positions when it differs from the order weight', () => {
    expect(orderWeightMismatchHint('10', positions)).toBe(
      'вес заказа не совпадает с суммой весов позиций (6,75 кг)',
    );
    // 1.125 × 1000 = 1125, grouped the ru-RU way
    expect(orderWeightMismatchHint('1000', [{ weight: '1.125', amount: '1000' }])).toBe(
      'вес заказа не совпадает с суммой весов позиций (1\u00a0125 кг)',
    );
  });

  it('is silent when the weights match', () => {
    expect(orderWeightMismatchHint('6.75', positions)).toBeNull();
    expect(orderWeightMismatchHint('6.750', positions)).toBeNull();
  });

  it('is silent unless every position has an amount and a weight, or without an order weight', () => {
    expect(orderWeightMismatchHint('10', [...positions, { weight: null, amount: '1' }])).toBeNull();
    expect(orderWeightMismatchHint('10', [...positions, { weight: '1', amount: '0' }])).toBeNull();
    expect(orderWeightMismatchHint(null, positions)).toBeNull();
    expect(orderWeightMismatchHint('10', [])).toBeNull();
  });
});

describe('what the service derives for an order and its positions', () => {
  const rate: ExchangeRateRow = {
    id: 7,
    date: '2026-11-01',
    operator_id: 2,
    client_sell_rate_cny: '12.5',
    client_sell_rate_usd: '95',
  };
  // A: 10 × ¥20 + ¥15 delivery = ¥215, 2 kg each → 20 kg; B: 4 × ¥50 = ¥200, 5 kg each → 20 kg
  const a = {
    price_cny: '20',
    amount: '10',
    weight: '2',
    to_consolidation_warehouse_delivery_price_cny: '15',
  };
  const b = { price_cny: '50', amount: '4', weight: '5' };

  it('shares the deliveries by weight when every position has one', () => {
    // ₽1000 to Russia at ¥12.5 → ¥80 in all, half each; ₽301 within Russia → 150.50 each
    const [ea, eb] = positionDeliveryEstimates(
      [a, b],
      { to_ru_delivery_price_rur: '1000', to_door_delivery_price_rur: '301' },
      '12.5',
    );
    expect(ea).toEqual({ to_ru_delivery_price_cny: '40.00', to_door_delivery_price_rur: '150.50' });
    expect(eb).toEqual({ to_ru_delivery_price_cny: '40.00', to_door_delivery_price_rur: '150.50' });
  });

  it('shares by the sums in China when a weight is missing, and skips deleted positions', () => {
    // shares 215 : 200 of ₽415 → 215.00 and 200.00
    const estimates = positionDeliveryEstimates(
      [{ ...a, weight: null }, b, { price_cny: '999', amount: '1', deleted: true }],
      { to_door_delivery_price_rur: '415' },
      null,
    );
    expect(estimates.map((e) => e.to_door_delivery_price_rur)).toEqual(['215.00', '200.00', null]);
    // no yuan rate: delivery to Russia in yuan cannot be told
    expect(estimates[0]!.to_ru_delivery_price_cny).toBeNull();
  });

  it('prices a package by its unit: per kg of the order, fixed, converted at the rate', () => {
    // $2 per kg × 40 kg = $80 × 95 = ₽7600
    expect(
      packagePriceRur(
        { client_price_from: '2', client_price_currency_id: 3, unit: 'kg' },
        { weight: '40' },
        '14',
        rate,
      ),
    ).toBe('7600.00');
    expect(
      packagePriceRur(
        { client_price_from: '350', client_price_currency_id: 2, unit: 'kg', client_price_fix: true },
        {},
        null,
        null,
      ),
    ).toBe('350.00');
    // per kg without an order weight: not yet known
    expect(packagePriceRur({ client_price_from: '2', unit: 'kg' }, {}, '14', rate)).toBeNull();
  });

  it('computes the order: buyout at the yuan rate, delivery to Russia in dollars, total', () => {
    const derived = derivedPrices({
      order: { buyout_type: 'operator', to_ru_delivery_price: '100', to_door_delivery_price_rur: '500' },
      positions: [a, b],
      rate,
      routePriceUsd: '88.00',
      package: null,
    });
    // buyout: ¥215 × 12.5 = 2687.50, ¥200 × 12.5 = 2500.00 → 5187.50; $100 × 95 = 9500.00
    expect(derived.order).toEqual({
      buyout_price_rur: '5187.50',
      to_ru_delivery_price_rur: '9500.00',
      package_price_rur: null,
      logistic_route_price_usd: '88.00',
      total_price_rur: '15187.50',
    });
    expect(derived.positions.map((p) => p.buyout_price_rur)).toEqual(['2687.50', '2500.00']);
    // ₽9500 / 12.5 = ¥760 shared by 20 kg : 20 kg
    expect(derived.positions.map((p) => p.to_ru_delivery_price_cny)).toEqual(['380.00', '380.00']);
  });

  it("keeps an admin's adjusted prices and total while the adjustment stands", () => {
    const derived = derivedPrices({
      order: {
        buyout_type: 'operator',
        manually_adjusted: true,
        buyout_price_rur: '6000.00',
        total_price_rur: '6000.00',
        to_ru_delivery_price: '100',
      },
      positions: [a, b],
      rate,
      routePriceUsd: null,
      package: null,
    });
    expect(derived.order.buyout_price_rur).toBe('6000.00');
    expect(derived.order.total_price_rur).toBe('6000.00');
    expect(derived.order.to_ru_delivery_price_rur).toBeNull();
  });

  it('leaves the buyout out of the total of a self-bought order', () => {
    const derived = derivedPrices({
      order: { buyout_type: 'self', to_ru_delivery_price: '10' },
      positions: [a],
      rate,
      routePriceUsd: null,
      package: null,
    });
    expect(derived.order.buyout_price_rur).toBe('2687.50');
    expect(derived.order.total_price_rur).toBe('950.00');
  });
});
