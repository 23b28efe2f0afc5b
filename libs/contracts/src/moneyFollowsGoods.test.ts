import { duesShown, paidShares } from './moneyFollowsGoods';

describe('paidShares: what was paid for goods that leave goes with them', () => {
  it('pro rata of the goods, rounded down to the kopeck while goods stay', () => {
    expect(paidShares('1000.00', '3000.00', ['1000.00'], false)).toEqual(['333.33']);
    expect(paidShares('14555.74', '29111.48', ['14555.74'], false)).toEqual(['7277.87']);
  });
  it('the remainder kopeck goes to the last share when nothing stays', () => {
    const shares = paidShares('100.00', '3.00', ['1.00', '1.00', '1.00'], true);
    expect(shares).toEqual(['33.33', '33.33', '33.34']);
  });
  it('nothing paid, nothing moves', () => {
    expect(paidShares('0.00', '300.00', ['100.00'], false)).toEqual(['0.00']);
  });
});

describe('duesShown: never a negative due', () => {
  it('an overpaid order shows nothing due and the overpayment apart', () => {
    expect(
      duesShown({ buyout_price_rur: '14555.74', product_paid_rur: '29111.48', total_price_rur: '14555.74' }),
    ).toEqual({ product: '0.00', delivery: '0.00', overpaid: '14555.74' });
    expect(duesShown({ buyout_price_rur: '1000', product_paid_rur: '400', total_price_rur: '1300' })).toEqual(
      {
        product: '600.00',
        delivery: '300.00',
        overpaid: '0.00',
      },
    );
  });
});
