import { dec, decCmp, decDiv, decFormat, decMul, type Decimal } from './decimal';
import { CURRENCY } from './entities/currency';
import { client_order_labels, type PriceInfo } from './entities/order';
import { ORDER_MESSAGES, type DeliveryPaymentState, type ProductPaymentState } from './entities/orderStages';
import { formatNumber } from './formatting';
import { fail, ok, type Reply } from './reply';

/**
 * Pricing of orders, positions and payments (spec orders-payments-calls §5, §9): pure functions the
 * services and the UI share, so a price is computed one way everywhere. Inputs are the API's decimal
 * strings (or numbers from a form); arithmetic is exact (decimal.ts), results are decimal strings
 * rounded half up where they are shown: money to 2 decimals, weights to 3, percentages to 2.
 * A division by zero, or a missing value the formula cannot do without, gives null, never NaN.
 */

/** A decimal as the API carries it ('12.50'), a number from a form, or nothing. */
export type DecimalValue = string | number | null | undefined;

/** Weights are kept in kg with 3 decimals (grams), as the route calculator takes them. */
export const WEIGHT_DIGITS = 3;
const MONEY_DIGITS = 2;
const PERCENT_DIGITS = 2;
const HUNDRED = dec(100);
const ONE = dec(1);

/** The value as a decimal; null for nothing and for text that is not a plain decimal. */
function read(value: DecimalValue): Decimal | null {
  if (value === null || value === undefined) return null;
  try {
    return dec(value);
  } catch {
    return null;
  }
}
const readOrZero = (value: DecimalValue): Decimal => read(value) ?? 0n;
/** A value present and above zero (an amount or weight that can be divided by), else null. */
const positive = (value: DecimalValue): Decimal | null => {
  const v = read(value);
  return v !== null && v > 0n ? v : null;
};
const money = (value: Decimal) => decFormat(value, MONEY_DIGITS);
const sum = (values: Decimal[]) => values.reduce((a, b) => a + b, 0n);
/** 1 + percent/100 (a gross-up factor) */
const plusPercent = (percent: Decimal) => ONE + decDiv(percent, HUNDRED);

// ─── positions ────────────────────────────────────────────────────────────────────────────────────

/** The position fields (spec §3) pricing reads; prices of goods and of Chinese delivery are in yuan. */
export type PositionPricing = {
  price_cny?: DecimalValue;
  amount?: DecimalValue;
  /** the weight of one unit, kg */
  weight?: DecimalValue;
  to_consolidation_warehouse_delivery_price_cny?: DecimalValue;
  /** estimate, ¥ */
  to_ru_delivery_price_cny?: DecimalValue;
  /** estimate, ₽ */
  to_door_delivery_price_rur?: DecimalValue;
  deleted?: boolean;
};

/** What a position costs in China, ¥: price × amount + delivery to the consolidation warehouse. */
const positionSumCny = (p: PositionPricing): Decimal =>
  decMul(readOrZero(p.price_cny), readOrZero(p.amount)) +
  readOrZero(p.to_consolidation_warehouse_delivery_price_cny);

/**
 * The buyout commission of the order's route (logistic_route.buyout_commission, %) that its prices
 * carry: the operator's fee for buying the goods out, on the goods' price, as the tariff calculator
 * shows it. Ours: none when the client buys the goods out themselves (buyout_type self).
 */
export const orderBuyoutCommission = (
  order: { buyout_type?: string | null },
  routeCommission: DecimalValue,
): string | null =>
  order.buyout_type === 'self' ? null : read(routeCommission) === null ? null : String(routeCommission);

/** The price of a unit with the buyout commission, ¥: price × (1 + commission/100). */
const priceWithCommission = (p: PositionPricing, commission: DecimalValue): Decimal =>
  decMul(readOrZero(p.price_cny), plusPercent(readOrZero(commission)));

/** What buying a position out costs, ¥: its goods with the commission + delivery to the consolidation warehouse. */
const positionBuyoutCny = (p: PositionPricing, commission: DecimalValue): Decimal =>
  decMul(priceWithCommission(p, commission), readOrZero(p.amount)) +
  readOrZero(p.to_consolidation_warehouse_delivery_price_cny);

/** A position's sum in China, ¥ (price × amount + delivery to the consolidation warehouse), 2 decimals. */
export const positionSumCnyText = (p: PositionPricing): string => money(positionSumCny(p));

/** The sum of money values (absent ones as 0), 2 decimals: a table's bottom line. */
export const sumMoney = (values: readonly DecimalValue[]): string => money(sum(values.map(readOrZero)));

const live = <T extends { deleted?: boolean }>(positions: readonly T[]) =>
  positions.filter((p) => !p.deleted);

/**
 * The calculated weight of one unit of a position (spec §9): the order's weight shared out by the
 * positions' sums in China (price × amount + delivery to the consolidation warehouse), divided by the
 * position's amount. `positions` is the order's whole list, this position included; deleted ones do not
 * count. Null without an order weight, an amount, or any sum to share by.
 */
export function positionCalculatedWeight(
  position: PositionPricing,
  positions: readonly PositionPricing[],
  orderWeight: DecimalValue,
): string | null {
  const weight = read(orderWeight);
  const amount = positive(position.amount);
  const total = sum(live(positions).map(positionSumCny));
  if (weight === null || amount === null || total === 0n) return null;
  // weight × (share / total) / amount, divided once so no precision is lost on the way
  const calculated = decDiv(decMul(weight, positionSumCny(position)), decMul(total, amount));
  return decFormat(calculated, WEIGHT_DIGITS);
}

/** Price per unit before rounding, ₽ (null without an amount or a yuan rate). */
function pricePerUnit(p: PositionPricing, yuanRate: DecimalValue, commission: DecimalValue): Decimal | null {
  const amount = positive(p.amount);
  const rate = positive(yuanRate);
  if (amount === null || rate === null) return null;
  const deliveryRur =
    decMul(
      readOrZero(p.to_consolidation_warehouse_delivery_price_cny) + readOrZero(p.to_ru_delivery_price_cny),
      rate,
    ) + readOrZero(p.to_door_delivery_price_rur);
  return decDiv(deliveryRur, amount) + decMul(priceWithCommission(p, commission), rate);
}

/**
 * The price of one unit in rubles (spec §9): ((delivery to the consolidation warehouse ¥ + delivery to
 * Russia ¥) × yuan rate + delivery within Russia ₽) / amount + price ¥ × yuan rate — the price with
 * the order's buyout commission (orderBuyoutCommission), as the order's buyout price carries it.
 */
export function positionPricePerUnit(
  position: PositionPricing,
  yuanRate: DecimalValue,
  buyoutCommission: DecimalValue = null,
): string | null {
  const price = pricePerUnit(position, yuanRate, buyoutCommission);
  return price === null ? null : money(price);
}

/** The price per kg (spec §9): the price per unit (unrounded) / the unit's weight; null unless weight > 0. */
export function positionPricePerKg(
  position: PositionPricing,
  yuanRate: DecimalValue,
  buyoutCommission: DecimalValue = null,
): string | null {
  const price = pricePerUnit(position, yuanRate, buyoutCommission);
  const weight = positive(position.weight);
  return price === null || weight === null ? null : money(decDiv(price, weight));
}

/** Delivery to Russia per unit in rubles (spec §2 column): the position's estimate ¥ × yuan rate / amount. */
export function positionToRuPerUnitRur(position: PositionPricing, yuanRate: DecimalValue): string | null {
  const estimate = read(position.to_ru_delivery_price_cny);
  const rate = read(yuanRate);
  const amount = positive(position.amount);
  return estimate === null || rate === null || amount === null
    ? null
    : money(decDiv(decMul(estimate, rate), amount));
}

/** The order's delivery prices in rubles and its weight. */
export type OrderDeliveryPricing = {
  weight?: DecimalValue;
  to_ru_delivery_price_rur?: DecimalValue;
  to_door_delivery_price_rur?: DecimalValue;
};

const orderDeliveryRur = (order: OrderDeliveryPricing) =>
  readOrZero(order.to_ru_delivery_price_rur) + readOrZero(order.to_door_delivery_price_rur);

/**
 * 'Delivery per kg' of a position, ₽/kg: its delivery to Russia and within Russia (its estimates: the
 * order's deliveries shared out, positionDeliveryEstimates; to Russia in ¥ at the yuan rate) over its
 * weight (unit weight × amount). Ours: the spec's formula (§9, delivery × weight × amount / order
 * weight) is the position's share of the delivery in rubles, not a price per kg — that share divided
 * by the position's weight is this (docs/adr/0018-order-fields-and-versions.md). Null without the
 * weight, the amount, a delivery estimate or (for the part to Russia) the rate.
 */
export function positionDeliveryPerKg(position: PositionPricing, yuanRate: DecimalValue): string | null {
  const weight = positionTotalWeight(position);
  const toRu = read(position.to_ru_delivery_price_cny);
  const toDoor = read(position.to_door_delivery_price_rur);
  const rate = positive(yuanRate);
  if (weight === null || weight <= 0n || (toRu === null && toDoor === null)) return null;
  if (toRu !== null && rate === null) return null;
  const deliveryRur = (toRu === null ? 0n : decMul(toRu, rate!)) + (toDoor ?? 0n);
  return money(decDiv(deliveryRur, weight));
}

/** The order's price per kg (spec §9): (to_ru + to_door delivery price, ₽) / weight; null unless weight > 0. */
export function orderPricePerKg(order: OrderDeliveryPricing): string | null {
  const weight = positive(order.weight);
  return weight === null ? null : money(decDiv(orderDeliveryRur(order), weight));
}

// ─── exchange rates ───────────────────────────────────────────────────────────────────────────────

/** The exchange_rate columns pricing reads (spec §3: the client sell rates). */
export type ExchangeRateRow = {
  id: number;
  date: string;
  operator_id: number | null;
  client_sell_rate_cny: DecimalValue;
  client_sell_rate_usd: DecimalValue;
};

const latest = <T extends ExchangeRateRow>(rows: readonly T[]): T | null =>
  rows.reduce<T | null>(
    (best, r) => (!best || r.date > best.date || (r.date === best.date && r.id > best.id) ? r : best),
    null,
  );

/**
 * The rate an order is priced at (spec §9): the order's rate_id, else the operator's latest rate (by
 * date, then id). Ours where the spec is silent: an operator with no rates of their own gets the
 * latest general rate (no operator, set by an admin); an order whose rate_id is not among `rates`
 * gets null — its fixed rate is never silently replaced by a newer one.
 */
export function orderExchangeRate<T extends ExchangeRateRow>(
  order: { rate_id?: number | null; operator_id?: number | null },
  rates: readonly T[],
): T | null {
  if (order.rate_id != null) return rates.find((r) => r.id === order.rate_id) ?? null;
  const own = order.operator_id != null ? rates.filter((r) => r.operator_id === order.operator_id) : [];
  return latest(own) ?? latest(rates.filter((r) => r.operator_id === null));
}

/** The rate of a currency in rubles (1 = CNY, 3 = USD, 2 = RUB itself); null without one. */
export function currencyRate(rate: ExchangeRateRow | null, currencyId: number): string | null {
  if (currencyId === CURRENCY.RUB) return '1';
  if (!rate) return null;
  const value =
    currencyId === CURRENCY.CNY
      ? rate.client_sell_rate_cny
      : currencyId === CURRENCY.USD
        ? rate.client_sell_rate_usd
        : null;
  const v = positive(value);
  return v === null ? null : decFormat(v, 6).replace(/\.?0+$/, '');
}

/** amount × rate in rubles, 2 decimals; null when either is missing. */
export function toRubles(amount: DecimalValue, rate: DecimalValue): string | null {
  const a = read(amount);
  const r = positive(rate);
  return a === null || r === null ? null : money(decMul(a, r));
}

/**
 * An amount in a currency converted to rubles at an order's rate: e.g. to_ru_delivery_price_rur =
 * to_ru_delivery_price × the rate of the currency chosen in the sent-to-RU dialog (spec §9).
 */
export const convertToRubles = (amount: DecimalValue, rate: ExchangeRateRow | null, currencyId: number) =>
  toRubles(amount, currencyRate(rate, currencyId));

// ─── payments ─────────────────────────────────────────────────────────────────────────────────────

/** The fee of each way to pay, % (spec §9): QR (img) and SBP (link) 0.7, card 2.5, wallet 0. */
export const PAYMENT_FEE_PERCENT = { img: '0.7', link: '0.7', card: '2.5', wallet: '0' } as const;
export type PaymentFeeMethod = keyof typeof PAYMENT_FEE_PERCENT;

/** What the payer pays so that `amount` arrives after the fee (spec §9): amount / (1 − fee%), 2 decimals. */
export function amountWithFee(amount: DecimalValue, method: PaymentFeeMethod): string | null {
  const a = read(amount);
  if (a === null) return null;
  return money(decDiv(a, ONE - decDiv(dec(PAYMENT_FEE_PERCENT[method]), HUNDRED)));
}

/** The order fields of what is paid and due. */
export type OrderPaymentPricing = {
  buyout_type?: string | null;
  buyout_price_rur?: DecimalValue;
  total_price_rur?: DecimalValue;
  product_paid_rur?: DecimalValue;
  delivery_paid_rur?: DecimalValue;
  product_payment_state?: string | null;
  delivery_payment_state?: string | null;
  to_ru_delivery_price_rur?: DecimalValue;
  package_price_rur?: DecimalValue;
};

/**
 * Still to pay for the goods (spec §9): buyout_price_rur − product_paid_rur; negative when overpaid.
 * Ours: nothing for goods the client buys out themselves (buyout_type or product state 'self'), as the
 * total leaves their buyout out.
 */
export const productDue = (order: OrderPaymentPricing): string =>
  order.buyout_type === 'self' || order.product_payment_state === 'self'
    ? money(0n)
    : money(readOrZero(order.buyout_price_rur) - readOrZero(order.product_paid_rur));

/**
 * Still to pay for the delivery (spec §9): total_price_rur − delivery_paid_rur − buyout_price_rur (or
 * − product_paid_rur when the product payment state is 'self'); negative when overpaid.
 */
export function deliveryDue(order: OrderPaymentPricing): string {
  const goods = order.product_payment_state === 'self' ? order.product_paid_rur : order.buyout_price_rur;
  return money(readOrZero(order.total_price_rur) - readOrZero(order.delivery_paid_rur) - readOrZero(goods));
}

/**
 * The product payment state a payment leads to (spec §4: partial or full by the paid amount versus
 * buyout_price_rur), named as PRODUCT_PAYMENT_STATES names them. Nothing paid is not_paid, even when
 * nothing is due yet.
 */
export type ProductPaidState = Extract<ProductPaymentState, 'not_paid' | 'partial' | 'paid'>;
export function productPaymentStateByPaid(order: OrderPaymentPricing): ProductPaidState {
  const paid = readOrZero(order.product_paid_rur);
  if (paid <= 0n) return 'not_paid';
  return decCmp(paid, readOrZero(order.buyout_price_rur)) >= 0 ? 'paid' : 'partial';
}

/** What a payment pays for (ours: the payment dialog and the write-off pay the goods and the delivery apart). */
export const PAYMENT_KINDS = ['product', 'delivery'] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];

/** States the user chooses (how they will pay); a recorded payment replaces them by what was paid. */
const CHOSEN_STATES = ['not_paid', 'in_cdek', 'in_caravan', 'self'];
const chosenOr = <S extends string>(state: string | null | undefined, fallback: S): S =>
  (state && CHOSEN_STATES.includes(state) ? state : fallback) as S;

/** The delivery to Russia with its package: what an 'in_cdek' delivery leaves to be paid here. */
const toRuPart = (order: OrderPaymentPricing) =>
  readOrZero(order.to_ru_delivery_price_rur) + readOrZero(order.package_price_rur);

/**
 * What may still be paid here for goods or delivery (spec §9 dues, never below 0). Ours: with the
 * delivery 'in_cdek' the door part is collected by CDEK, so only the delivery to Russia (and its package)
 * is payable here — the reason an 'in_cdek' delivery never becomes paid_to_door (spec §4).
 */
export function payableNow(order: OrderPaymentPricing, kind: PaymentKind): string {
  let due = kind === 'product' ? readOrZero(productDue(order)) : readOrZero(deliveryDue(order));
  if (kind === 'delivery' && order.delivery_payment_state === 'in_cdek')
    due = toRuPart(order) - readOrZero(order.delivery_paid_rur);
  return money(due > 0n ? due : 0n);
}

/**
 * The delivery payment state a paid amount leads to (spec §4): nothing paid keeps the user's choice;
 * the whole delivery paid is paid_to_door (paid_to_ru for an 'in_cdek' delivery, whose door part CDEK
 * collects), the delivery to Russia with its package paid is paid_to_ru, less is partial.
 */
export function deliveryPaymentStateByPaid(order: OrderPaymentPricing): DeliveryPaymentState {
  const paid = readOrZero(order.delivery_paid_rur);
  if (paid <= 0n) return chosenOr(order.delivery_payment_state, 'not_paid');
  const whole = readOrZero(deliveryDue({ ...order, delivery_paid_rur: '0' }));
  const inCdek = order.delivery_payment_state === 'in_cdek';
  if (!inCdek && paid >= whole) return 'paid_to_door';
  const ru = toRuPart(order);
  if (paid >= ru && ru > 0n) return 'paid_to_ru';
  return inCdek && paid >= whole ? 'paid_to_ru' : 'partial';
}

/** Both payment states for the paid amounts (the service applies them; the reply and the card show them). */
export function paymentStatesByPaid(order: OrderPaymentPricing): {
  product_payment_state: ProductPaymentState;
  delivery_payment_state: DeliveryPaymentState;
} {
  const product: ProductPaymentState =
    readOrZero(order.product_paid_rur) > 0n
      ? productPaymentStateByPaid(order)
      : chosenOr(order.product_payment_state, 'not_paid');
  return { product_payment_state: product, delivery_payment_state: deliveryPaymentStateByPaid(order) };
}

// ─── order totals ─────────────────────────────────────────────────────────────────────────────────

/** The order's prices in rubles that make up its total. */
export type OrderPricing = {
  buyout_type?: 'self' | 'operator' | string | null;
  buyout_price_rur?: DecimalValue;
  to_ru_delivery_price_rur?: DecimalValue;
  to_door_delivery_price_rur?: DecimalValue;
  package_price_rur?: DecimalValue;
};

/**
 * total_price_rur = buyout_price_rur + to_ru_delivery_price_rur + to_door_delivery_price_rur +
 * package_price_rur, without the buyout when the client buys the goods themselves (buyout_type self).
 * The spec states only the self exclusion (§9, price adjustment); the parts are the order's ruble
 * prices of §3. Ours: extra_service entries are not added (the package is already package_price_rur and
 * the transfer is the to-door delivery); absent parts count as 0.
 */
export function orderTotalPriceRur(order: OrderPricing): string {
  const buyout = order.buyout_type === 'self' ? 0n : readOrZero(order.buyout_price_rur);
  return money(
    buyout +
      readOrZero(order.to_ru_delivery_price_rur) +
      readOrZero(order.to_door_delivery_price_rur) +
      readOrZero(order.package_price_rur),
  );
}

/**
 * A position's buyout price in rubles: its sum in China (price × amount + delivery to the consolidation
 * warehouse, ¥ — the sum §9 shares the weight by), the price with the route's buyout commission
 * (orderBuyoutCommission), × yuan rate, 2 decimals. Ours: the spec does not say how buyout_price_rur
 * is computed. Null without a rate.
 */
export function positionBuyoutPriceRur(
  position: PositionPricing,
  yuanRate: DecimalValue,
  buyoutCommission: DecimalValue = null,
): string | null {
  return toRubles(decFormat(positionBuyoutCny(position, buyoutCommission), 6), yuanRate);
}

/** The order's buyout price: the sum of its live positions' buyout prices (each rounded first). */
export function orderBuyoutPriceRur(
  positions: readonly PositionPricing[],
  yuanRate: DecimalValue,
  buyoutCommission: DecimalValue = null,
): string | null {
  const prices = live(positions).map((p) => positionBuyoutPriceRur(p, yuanRate, buyoutCommission));
  if (prices.some((p) => p === null)) return null;
  return money(sum(prices.map((p) => dec(p!))));
}

// ─── what the service derives ─────────────────────────────────────────────────────────────────────

/** A position's delivery estimates (spec §3: read-only, the service computes them). */
export type PositionEstimates = {
  to_ru_delivery_price_cny: string | null;
  to_door_delivery_price_rur: string | null;
};

/** The position's weight in the order: unit weight × amount; null when either is missing. */
function positionTotalWeight(p: PositionPricing): Decimal | null {
  const w = read(p.weight);
  const a = read(p.amount);
  return w === null || a === null ? null : decMul(w, a);
}

/**
 * The order's deliveries shared out to its live positions (ours: the spec names the estimates, not
 * their formula): by each position's weight (unit weight × amount) when every live position has one,
 * else by its sum in China, as the calculated weight shares the order weight (§9). Delivery to Russia
 * is the order's ruble price converted back to yuan at the yuan rate; delivery within Russia stays in
 * rubles. Deleted positions get nulls; a share that cannot be computed is null.
 */
export function positionDeliveryEstimates(
  positions: readonly PositionPricing[],
  order: OrderDeliveryPricing,
  yuanRate: DecimalValue,
): PositionEstimates[] {
  const alive = live(positions);
  const weights = alive.map(positionTotalWeight);
  const byWeight = weights.every((w) => w !== null) && sum(weights as Decimal[]) > 0n;
  const shareOf = (p: PositionPricing): Decimal => (byWeight ? positionTotalWeight(p)! : positionSumCny(p));
  const total = sum(alive.map(shareOf));
  const toRu = read(order.to_ru_delivery_price_rur);
  const toDoor = read(order.to_door_delivery_price_rur);
  const rate = positive(yuanRate);
  const part = (whole: Decimal, p: PositionPricing) => decDiv(decMul(whole, shareOf(p)), total);
  return positions.map((p) => {
    if (p.deleted || total === 0n)
      return { to_ru_delivery_price_cny: null, to_door_delivery_price_rur: null };
    return {
      to_ru_delivery_price_cny: toRu === null || rate === null ? null : money(decDiv(part(toRu, p), rate)),
      to_door_delivery_price_rur: toDoor === null ? null : money(part(toDoor, p)),
    };
  });
}

/** An extra service's client price (an order's package): what svc-carriers keeps of it. */
export type ServicePricing = {
  client_price_from?: DecimalValue;
  client_price_currency_id?: number | null;
  client_price_fix?: boolean | null;
  unit?: 'kg' | 'm3' | 'place' | 'order' | 'piece' | string | null;
};

/**
 * The package's price in rubles (ours: the spec gives the service's price and unit, not the sum): a
 * fixed price, or the price per unit × the order's weight (kg), volume (m³), places (place) or
 * positions' amount (piece); per order counts once. Converted at the order's rate; null when the
 * measure or the rate is missing.
 */
export function packagePriceRur(
  service: ServicePricing,
  order: { weight?: DecimalValue; volume?: DecimalValue; amount?: DecimalValue },
  pieces: DecimalValue,
  rate: ExchangeRateRow | null,
): string | null {
  const price = read(service.client_price_from);
  if (price === null) return null;
  const measure =
    service.client_price_fix || service.unit === 'order'
      ? ONE
      : read(
          service.unit === 'kg'
            ? order.weight
            : service.unit === 'm3'
              ? order.volume
              : service.unit === 'place'
                ? order.amount
                : pieces,
        );
  if (measure === null) return null;
  const rubleRate = currencyRate(rate, service.client_price_currency_id ?? CURRENCY.RUB);
  return toRubles(decFormat(decMul(price, measure), 6), rubleRate);
}

/** The order's columns the service derives (spec §3, §9), and each live position's. */
export type DerivedPrices = {
  order: {
    buyout_price_rur: string | null;
    to_ru_delivery_price_rur: string | null;
    package_price_rur: string | null;
    logistic_route_price_usd: string | null;
    total_price_rur: string | null;
  };
  positions: (PositionEstimates & { buyout_price_rur: string | null })[];
};

export type OrderPriceSources = {
  order: OrderPricing &
    OrderDeliveryPricing & {
      volume?: DecimalValue;
      amount?: DecimalValue;
      to_ru_delivery_price?: DecimalValue;
      to_ru_delivery_currency_id?: number | null;
      logistic_route_price_usd?: DecimalValue;
      total_price_rur?: DecimalValue;
      manually_adjusted?: boolean;
    };
  positions: readonly PositionPricing[];
  rate: ExchangeRateRow | null;
  /** The route's tariff price for the order's weight and volume, $ (quoteDensityTable), or null. */
  routePriceUsd: string | null;
  /** The route's buyout commission, % (logistic_route.buyout_commission); orderBuyoutCommission applies it. */
  routeBuyoutCommission?: DecimalValue;
  package: ServicePricing | null;
};

/**
 * Every price the service keeps up to date when an order or its positions change: the positions'
 * buyout prices and delivery estimates; the order's buyout (sum of positions at the yuan rate),
 * delivery to Russia in rubles (price × the rate of its currency, USD by default), package, tariff
 * and total. An admin's manual adjustment (price_info.manually_adjusted) keeps the order's adjusted
 * prices and total as set, until it is reset.
 */
export function derivedPrices(src: OrderPriceSources): DerivedPrices {
  const yuan = currencyRate(src.rate, CURRENCY.CNY);
  const o = src.order;
  const commission = orderBuyoutCommission(o, src.routeBuyoutCommission);
  const computed = {
    buyout_price_rur: orderBuyoutPriceRur(src.positions, yuan, commission),
    to_ru_delivery_price_rur:
      read(o.to_ru_delivery_price) === null
        ? null
        : convertToRubles(o.to_ru_delivery_price, src.rate, o.to_ru_delivery_currency_id ?? CURRENCY.USD),
    package_price_rur: src.package
      ? packagePriceRur(
          src.package,
          o,
          decFormat(sum(live(src.positions).map((p) => readOrZero(p.amount))), 2),
          src.rate,
        )
      : null,
  };
  const kept = o.manually_adjusted
    ? {
        buyout_price_rur: (o.buyout_price_rur ?? null) as string | null,
        to_ru_delivery_price_rur: (o.to_ru_delivery_price_rur ?? null) as string | null,
        package_price_rur: (o.package_price_rur ?? null) as string | null,
      }
    : computed;
  const total = o.manually_adjusted
    ? ((o.total_price_rur ?? null) as string | null)
    : orderTotalPriceRur({ ...o, ...kept });
  const estimates = positionDeliveryEstimates(
    src.positions,
    { ...o, to_ru_delivery_price_rur: kept.to_ru_delivery_price_rur },
    yuan,
  );
  return {
    order: {
      ...kept,
      logistic_route_price_usd: src.routePriceUsd ?? ((o.logistic_route_price_usd ?? null) as string | null),
      total_price_rur: total === null ? null : String(total),
    },
    positions: src.positions.map((p, i) => ({
      ...estimates[i]!,
      buyout_price_rur: p.deleted ? null : positionBuyoutPriceRur(p, yuan, commission),
    })),
  };
}

// ─── the admin's price adjustment ─────────────────────────────────────────────────────────────────

/** The prices the adjustment dialog offers to tick (entered without taxes). */
export const ADJUSTABLE_PRICE_FIELDS = [
  'buyout_price_rur',
  'to_ru_delivery_price_rur',
  'to_door_delivery_price_rur',
  'package_price_rur',
] as const;
export type AdjustablePriceField = (typeof ADJUSTABLE_PRICE_FIELDS)[number];
/** The order's labels of those prices, for messages naming them. */
export const ADJUSTABLE_PRICE_LABELS: Record<AdjustablePriceField, string> = {
  buyout_price_rur: client_order_labels.buyout_price_rur,
  to_ru_delivery_price_rur: client_order_labels.to_ru_delivery_price_rur,
  to_door_delivery_price_rur: client_order_labels.to_door_delivery_price_rur,
  package_price_rur: client_order_labels.package_price_rur,
};

export const PRICING_MESSAGES = {
  nothingTicked: 'отметьте хотя бы одну цену',
  notAPrice: (label: string) => `цена '${label}': ожидается число не меньше 0`,
  fullCommission: 'комиссия за наложенный платёж 100%: цену с ней не рассчитать',
} as const;

/** The operator's rates the adjustment grosses up by (operator.tax_rate, nds_rate, the carrier's COD fee). */
export type PriceAdjustmentRates = {
  tax_rate?: DecimalValue;
  nds_rate?: DecimalValue;
  recipient_cost_commission?: DecimalValue;
};

export type OrderAdjustmentInput = OrderPricing & {
  product_payment_state?: string | null;
  delivery_payment_state?: string | null;
};

export type AdjustedPrices = Partial<Record<AdjustablePriceField, string>> & { total_price_rur: string };
/**
 * options.price_info's price_breakdown holds, per adjusted field, '<field>.entered' (the price typed,
 * without taxes), '<field>.before' (the price it replaced, absent when there was none) and
 * '<field>.price' (the price set): what the reset needs.
 */
export type PriceAdjustment = { prices: AdjustedPrices; price_info: PriceInfo };

const rateText = (value: DecimalValue) => decFormat(readOrZero(value), PERCENT_DIGITS);

/**
 * One entered price grossed up (spec §9): × (1 + tax_rate/100) × (1 + nds_rate/100), and when the
 * part is paid in CDEK also / (1 − recipient_cost_commission/100); absent rates are 0. Null when the
 * commission is 100%.
 */
export function adjustedPrice(
  entered: DecimalValue,
  rates: PriceAdjustmentRates,
  inCdek: boolean,
): string | null {
  const price = readOrZero(entered);
  const taxed = decMul(
    decMul(price, plusPercent(readOrZero(rates.tax_rate))),
    plusPercent(readOrZero(rates.nds_rate)),
  );
  if (!inCdek) return money(taxed);
  const kept = ONE - decDiv(readOrZero(rates.recipient_cost_commission), HUNDRED);
  return kept <= 0n ? null : money(decDiv(taxed, kept));
}

/**
 * Is this part of the order paid in CDEK? Ours, where the spec says only 'when payment state is
 * in_cdek': the goods follow product_payment_state, the deliveries and the package
 * delivery_payment_state — CDEK takes its commission on what it collects.
 */
const paidInCdek = (order: OrderAdjustmentInput, field: AdjustablePriceField) =>
  (field === 'buyout_price_rur' ? order.product_payment_state : order.delivery_payment_state) === 'in_cdek';

/**
 * The admin's price adjustment: the ticked prices (`entered`, without taxes) grossed up, the total
 * recomputed, and options.price_info marked manually_adjusted by `who` (a user id and a time). Refused
 * with a message when nothing is ticked, a price is not a number ≥ 0, or an in_cdek price meets a
 * 100% commission.
 */
export function applyPriceAdjustment(
  order: OrderAdjustmentInput,
  entered: Partial<Record<AdjustablePriceField, DecimalValue>>,
  rates: PriceAdjustmentRates,
  who: { adjusted_by: number; adjusted_at: string },
): Reply<PriceAdjustment> {
  const fields = ADJUSTABLE_PRICE_FIELDS.filter((f) => entered[f] != null && entered[f] !== '');
  if (!fields.length) return fail(PRICING_MESSAGES.nothingTicked);
  const prices: Partial<Record<AdjustablePriceField, string>> = {};
  const breakdown: Record<string, string> = {};
  for (const field of fields) {
    const value = read(entered[field]);
    if (value === null || value < 0n) return fail(PRICING_MESSAGES.notAPrice(ADJUSTABLE_PRICE_LABELS[field]));
    const price = adjustedPrice(entered[field], rates, paidInCdek(order, field));
    if (price === null) return fail(PRICING_MESSAGES.fullCommission);
    const before = read(order[field]);
    prices[field] = price;
    breakdown[`${field}.entered`] = money(value);
    if (before !== null) breakdown[`${field}.before`] = money(before);
    breakdown[`${field}.price`] = price;
  }
  const cdekUsed = fields.some((f) => paidInCdek(order, f));
  return ok({
    prices: { ...prices, total_price_rur: orderTotalPriceRur({ ...order, ...prices }) },
    price_info: {
      tax_rate: rateText(rates.tax_rate),
      nds_rate: rateText(rates.nds_rate),
      cdek_commission: cdekUsed ? rateText(rates.recipient_cost_commission) : null,
      manually_adjusted: true,
      adjusted_by: who.adjusted_by,
      adjusted_at: who.adjusted_at,
      price_breakdown: breakdown,
    },
  });
}

/**
 * The reset of an adjustment: each adjusted price goes back to what it was before (0 when there was
 * none), unless it has been changed since (then the newer price stays); the total is recomputed and
 * price_info cleared.
 */
export function resetPriceAdjustment(
  order: OrderAdjustmentInput,
  priceInfo: { price_breakdown?: Record<string, string> | null } | null | undefined,
): PriceAdjustment {
  const breakdown = priceInfo?.price_breakdown ?? {};
  const prices: Partial<Record<AdjustablePriceField, string>> = {};
  for (const field of ADJUSTABLE_PRICE_FIELDS) {
    const set = read(breakdown[`${field}.price`]);
    const current = read(order[field]);
    if (set === null || current === null || decCmp(current, set) !== 0) continue;
    prices[field] = breakdown[`${field}.before`] ?? '0.00';
  }
  return {
    prices: { ...prices, total_price_rur: orderTotalPriceRur({ ...order, ...prices }) },
    price_info: {
      tax_rate: null,
      nds_rate: null,
      cdek_commission: null,
      manually_adjusted: false,
      adjusted_by: null,
      adjusted_at: null,
      price_breakdown: {},
    },
  };
}

// ─── VAT (Excel import rows, the position screen) ─────────────────────────────────────────────────

/** Price with VAT = without × (1 + VAT/100), 2 decimals (spec §5). */
export function priceWithVat(priceNoVat: DecimalValue, vatPercent: DecimalValue): string | null {
  const price = read(priceNoVat);
  const vat = read(vatPercent);
  return price === null || vat === null ? null : money(decMul(price, plusPercent(vat)));
}

/** Price without VAT = with / (1 + VAT/100), 2 decimals; null when VAT is −100% or either is missing. */
export function priceWithoutVat(priceVat: DecimalValue, vatPercent: DecimalValue): string | null {
  const price = read(priceVat);
  const vat = read(vatPercent);
  if (price === null || vat === null) return null;
  const factor = plusPercent(vat);
  return factor === 0n ? null : money(decDiv(price, factor));
}

/** VAT % from the two prices: (with − without) × 100 / without, 2 decimals; null when without is 0. */
export function vatPercentOf(priceNoVat: DecimalValue, priceVat: DecimalValue): string | null {
  const without = read(priceNoVat);
  const withVat = read(priceVat);
  if (without === null || withVat === null || without === 0n) return null;
  return decFormat(decDiv(decMul(withVat - without, HUNDRED), without), PERCENT_DIGITS);
}

/**
 * An invoice row's prices (spec §3, imported invoice row); the position screen maps its
 * sell_price_no_nds_rur / VAT % / sell_price_nds_rur onto the same three.
 */
export type VatPrices = { price_no_nds: DecimalValue; nds: DecimalValue; price_nds: DecimalValue };
export type VatField = keyof VatPrices;

/**
 * After `changed` was edited, the others recalculated (spec §5): a known VAT % is kept and the other
 * price follows it; the VAT % is derived only when it is not known and both prices are. Values that
 * cannot be computed are left as they were.
 */
export function recalculateVat(values: VatPrices, changed: VatField): VatPrices {
  const next = { ...values };
  const has = (field: VatField) => read(values[field]) !== null;
  if (!has(changed)) return next;
  const keep = (field: VatField, value: string | null) => {
    if (value !== null) next[field] = value;
  };
  if (changed === 'nds') {
    if (has('price_no_nds')) keep('price_nds', priceWithVat(values.price_no_nds, values.nds));
    else if (has('price_nds')) keep('price_no_nds', priceWithoutVat(values.price_nds, values.nds));
  } else if (has('nds')) {
    if (changed === 'price_no_nds') keep('price_nds', priceWithVat(values.price_no_nds, values.nds));
    else keep('price_no_nds', priceWithoutVat(values.price_nds, values.nds));
  } else if (has('price_no_nds') && has('price_nds')) {
    keep('nds', vatPercentOf(values.price_no_nds, values.price_nds));
  }
  return next;
}

// ─── the weight mismatch hint ─────────────────────────────────────────────────────────────────────

/**
 * The order weight's hint (spec §5): when every live position has an amount and a weight (above 0) and
 * Σ weight × amount differs from the order weight, the spec's text with that sum (ru-RU, up to 3
 * decimals); else null. Ours: no hint without positions or without an order weight (nothing to compare).
 */
export function orderWeightMismatchHint(
  orderWeight: DecimalValue,
  positions: readonly PositionPricing[],
): string | null {
  const weight = read(orderWeight);
  const rows = live(positions);
  if (weight === null || !rows.length) return null;
  const parts = rows.map((p) => [positive(p.weight), positive(p.amount)] as const);
  if (parts.some(([w, a]) => w === null || a === null)) return null;
  const total = sum(parts.map(([w, a]) => decMul(w!, a!)));
  if (decCmp(total, weight) === 0) return null;
  return ORDER_MESSAGES.weightMismatch(
    formatNumber(decFormat(total, WEIGHT_DIGITS), { maxDigits: WEIGHT_DIGITS }),
  );
}
