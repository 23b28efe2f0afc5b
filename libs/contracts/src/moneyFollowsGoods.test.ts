import { paidShares } from './moneyFollowsGoods';

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
