import { z } from 'zod';
import { dec, decFormat, type Decimal } from './decimal';
import { deliveryDue, productDue, type OrderPaymentPricing } from './pricing';

/**
 * Money follows the goods (docs/adr/0013-money-follows-the-goods.md): when positions leave an order
 * (split, move, consolidation) what was paid for them goes with them, as a transfer of paid amount
 * between the orders. svc-orders tells which goods went where (`goods.moved` on the orders' topic, keyed
 * by the order they left); svc-payments, which owns the paid amounts, moves them and records each
 * transfer as ONE `order_payment` of type `transfer` carrying both orders' paid amounts after it and
 * each order's account sequence, by which svc-orders converges whatever order events arrive in.
 */
export const GOODS_MOVED_EVENT = 'goods.moved' as const;

const MoneyText = z.string().regex(/^-?\d+(\.\d+)?$/);
/** What svc-orders showed as paid when the goods moved: opens an order's account that svc-payments has not opened yet. */
const PaidSeen = z.object({ product_paid_rur: MoneyText, delivery_paid_rur: MoneyText });
export const GoodsMoved = z.object({
  /** one per call that moved goods: the transfers' idempotency key */
  transfer_id: z.string().min(1),
  from_order_id: z.number().int(),
  /** the orders' client and operator (a move keeps goods within one client and one operator) */
  client_id: z.number().int(),
  operator_id: z.number().int().nullable(),
  /** the goods' sum (positions' buyout_price_rur) of the order they left, before they left */
  from_goods_rur: MoneyText,
  /** no goods left in the order: its whole paid amount goes, the remainder kopeck to the last share */
  left_empty: z.boolean(),
  from_paid: PaidSeen,
  shares: z
    .array(z.object({ to_order_id: z.number().int(), goods_rur: MoneyText, to_paid: PaidSeen }))
    .min(1),
});
export type GoodsMoved = z.infer<typeof GoodsMoved>;

export const MONEY_FOLLOWS_MESSAGES = {
  /** ours (ADR 0013): a paid delivery is the order's parcel's, it is not shared out by goods */
  deliveryPaid: (title: string) =>
    `доставка заказа «${title}» уже оплачена: её оплата не делится по товарам, позиции из него не переносятся`,
  /** ours: paid goods whose sum is unknown cannot be shared pro rata */
  goodsUnpriced: (title: string) =>
    `товар заказа «${title}» оплачен, но сумма его позиций не рассчитана: оплату нельзя разделить по товарам`,
  /** the order payment's comment of a transfer */
  transferComment: (fromTitle: string) => `перенос оплаты товара из заказа «${fromTitle}»`,
} as const;

const KOPECK = 10n ** 4n; // dec keeps six decimals
const kopecks = (v: string) => dec(v) / KOPECK;

/**
 * Pro rata shares of a paid amount for goods leaving an order (exact, in kopecks): each share is
 * paid × goods_i / goods_total rounded down to the kopeck; when the order is left without goods the
 * last share takes the remainder, so the whole paid amount goes and no kopeck is lost or made.
 */
export function paidShares(
  paid: string,
  totalGoods: string,
  goods: readonly string[],
  leftEmpty: boolean,
): string[] {
  const p = kopecks(paid);
  const total = dec(totalGoods);
  if (p <= 0n || !goods.length) return goods.map(() => '0.00');
  if (total <= 0n) return goods.map((_, i) => (leftEmpty && i === goods.length - 1 ? fmt(p) : '0.00'));
  const shares = goods.map((g) => {
    const share = (p * dec(g)) / total;
    return share > p ? p : share < 0n ? 0n : share;
  });
  if (leftEmpty) shares[shares.length - 1] = p - shares.slice(0, -1).reduce((a, b) => a + b, 0n);
  return shares.map(fmt);
}
const fmt = (k: Decimal) => decFormat(k * KOPECK, 2);

/**
 * What the order card shows as due (ADR 0013): never a negative due — what was paid beyond the price
 * (two bank payments at once, a price lowered after payment) shows apart, as an overpayment.
 */
export function duesShown(order: OrderPaymentPricing): {
  product: string;
  delivery: string;
  overpaid: string;
} {
  const product = dec(productDue(order));
  const delivery = dec(deliveryDue(order));
  const positive = (d: Decimal) => (d > 0n ? d : 0n);
  const over = positive(-product) + positive(-delivery);
  return { product: fmt2(positive(product)), delivery: fmt2(positive(delivery)), overpaid: fmt2(over) };
}
const fmt2 = (d: Decimal) => decFormat(d, 2);
