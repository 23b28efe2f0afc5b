import {
  dec,
  decDiv,
  decFormat,
  decMul,
  documentDate,
  formatNumber,
  INVOICE_TEXTS,
  sumInWords,
  type InvoiceFormat,
} from '@caravan/contracts';

/**
 * The invoice ('Счёт на оплату') of client orders as a model both documents draw (html.ts, xlsx.ts):
 * pure, from the rows gather.ts read. What it lists (docs/adr/0012):
 *  - the goods of each order, one line per live position (its Russian title when it has one), unless
 *    the client bought them out themselves (buyout_type self: the total leaves the buyout out, so does
 *    the invoice). When every live position of the order has a sale price with VAT
 *    (sell_price_nds_rur) the lines are at it: price × amount. Otherwise they are at the buyout price:
 *    the order's buyout_price_rur shared out to the positions in proportion to their own buyout prices
 *    (kopecks by largest remainder), which is their own price unless an admin adjusted the order's
 *    prices; an order with a buyout price and no positions to share it gets one line 'Товары по заказу'.
 *  - the order's delivery to Russia, delivery within Russia and package as service lines (1 усл.).
 *  - nothing at zero; amounts are VAT-inclusive (the order's prices are grossed up with VAT): 'В том
 *    числе НДС' at the order's price_info.nds_rate, else the operator's nds_rate; 'Без НДС' at 0.
 *  - the sum of the lines as the total, 'Всего к оплате' (no deduction of what was already paid: the
 *    invoice is the document of the sale; what is still due is the payment dialog's).
 */

export type DecimalText = string | null | undefined;

/** The client_order replica row (svc-orders' full row) as far as the invoice reads it. */
export type InvoiceOrder = {
  id: number;
  client_id: number;
  operator_id: number;
  title?: string | null;
  buyout_type?: string | null;
  buyout_price_rur?: DecimalText;
  to_ru_delivery_price_rur?: DecimalText;
  to_door_delivery_price_rur?: DecimalText;
  package_price_rur?: DecimalText;
  options?: { price_info?: { nds_rate?: DecimalText } | null } | null;
};

/** The client_order_position replica row as far as the invoice reads it (live rows only). */
export type InvoicePosition = {
  id: number;
  client_order_id: number;
  title: string;
  title_ru?: string | null;
  amount?: DecimalText;
  buyout_price_rur?: DecimalText;
  sell_price_nds_rur?: DecimalText;
};

/** A legal_entity row of svc-payments. */
export type LegalEntityRow = {
  id: number;
  title: string;
  title_full: string;
  inn: string;
  kpp: string;
  address: string;
  director_name: string;
  accountant_name: string;
};

/** A bank_account row of svc-payments. */
export type BankAccountRow = {
  id: number;
  account_number: string;
  bank_account_number: string;
  bank_bik: string;
  bank_title_full: string;
  bank_title_short: string;
};

export type InvoiceSources = {
  orders: readonly InvoiceOrder[];
  positions: readonly InvoicePosition[];
  /** the operator's nds_rate, for orders without their own */
  operatorNdsRate: DecimalText;
  seller: LegalEntityRow;
  buyer: LegalEntityRow;
  bank: BankAccountRow;
  /** the invoice date, YYYY-MM-DD (Moscow) */
  date: string;
};

export type InvoiceLine = {
  n: number;
  title: string;
  /** decimal strings: quantity up to 2 decimals, money with 2 */
  quantity: string;
  unit: string;
  price: string;
  sum: string;
  vatRate: string;
};

export type InvoiceParty = {
  /** the name on the document: the full one when there is one */
  name: string;
  inn: string;
  kpp: string;
  address: string;
  /** 'ООО «Ромашка», ИНН 7701234567, КПП 770101001, г. Москва, ул. Ленина, 1' */
  line: string;
};

export type Invoice = {
  number: string;
  date: string;
  heading: string;
  bank: { title: string; bik: string; corrAccount: string; account: string };
  seller: InvoiceParty;
  buyer: InvoiceParty;
  basis: string;
  lines: InvoiceLine[];
  total: string;
  /** 'В том числе НДС (20%):' and its amount, or 'Без НДС' and null */
  vat: { label: string; amount: string | null };
  summary: string;
  words: string;
  director: string;
  accountant: string;
  orderIds: number[];
};

// ---------------------------------------------------------------- money in kopecks

const kopecks = (value: DecimalText): bigint => {
  if (value === null || value === undefined || String(value).trim() === '') return 0n;
  return BigInt(decFormat(dec(String(value)), 2).replace('.', ''));
};
const rubles = (k: bigint): string => {
  const sign = k < 0n ? '-' : '';
  const abs = k < 0n ? -k : k;
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
};
const ratePercent = (value: DecimalText): string => {
  try {
    return value === null || value === undefined || String(value).trim() === ''
      ? '0'
      : decFormat(dec(String(value)), 2);
  } catch {
    return '0';
  }
};
const isZeroRate = (rate: string) => dec(rate) === 0n;

/** Money as the document shows it: '1 234,56' (no-break space groups). */
export const money = (value: string) => formatNumber(value, { minDigits: 2, maxDigits: 2 });
/** A quantity as the document shows it: '10', '2,5'. */
export const quantity = (value: string) => formatNumber(value, { maxDigits: 2 });

/**
 * `total` shared out in proportion to `weights` (kopecks), the kopecks left by rounding down going to
 * the largest remainders (earlier first on a tie): the parts add up to `total` exactly.
 */
export function shareOut(total: bigint, weights: readonly bigint[]): bigint[] {
  const whole = weights.reduce((a, b) => a + b, 0n);
  if (whole <= 0n) return weights.map(() => 0n);
  const parts = weights.map((w) => (total * w) / whole);
  let left = total - parts.reduce((a, b) => a + b, 0n);
  const byRemainder = weights
    .map((w, i) => ({ i, r: (total * w) % whole }))
    .sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of byRemainder) {
    if (left <= 0n) break;
    parts[i]! += 1n;
    left -= 1n;
  }
  return parts;
}

/** A positive amount, else 1 (a line bills at least one of something). */
const quantityOf = (amount: DecimalText): string => {
  try {
    if (amount !== null && amount !== undefined && dec(String(amount)) > 0n)
      return decFormat(dec(String(amount)), 2);
  } catch {
    // not a number: one
  }
  return '1';
};
const unitPrice = (sum: bigint, qty: string): string => decFormat(decDiv(dec(rubles(sum)), dec(qty)), 2);

type Draft = Omit<InvoiceLine, 'n'>;

function goodsLines(order: InvoiceOrder, positions: readonly InvoicePosition[], vatRate: string): Draft[] {
  if (order.buyout_type === 'self') return [];
  const titleOf = (p: InvoicePosition) => (p.title_ru?.trim() ? p.title_ru.trim() : p.title);
  const priced = (p: InvoicePosition) => p.sell_price_nds_rur !== null && p.sell_price_nds_rur !== undefined;
  if (positions.length && positions.every(priced))
    return positions.map((p) => {
      const qty = quantityOf(p.amount);
      const price = decFormat(dec(String(p.sell_price_nds_rur)), 2);
      const sum = decFormat(decMul(dec(price), dec(qty)), 2);
      return { title: titleOf(p), quantity: qty, unit: INVOICE_TEXTS.pieces, price, sum, vatRate };
    });
  const own = positions.map((p) => kopecks(p.buyout_price_rur));
  const ownSum = own.reduce((a, b) => a + b, 0n);
  const target =
    order.buyout_price_rur === null || order.buyout_price_rur === undefined
      ? ownSum
      : kopecks(order.buyout_price_rur);
  if (target <= 0n) return [];
  if (ownSum <= 0n)
    return [
      {
        title: INVOICE_TEXTS.goodsOfOrder(order.id),
        quantity: '1',
        unit: INVOICE_TEXTS.service,
        price: rubles(target),
        sum: rubles(target),
        vatRate,
      },
    ];
  const shares = shareOut(target, own);
  return positions.flatMap((p, i) => {
    const sum = shares[i]!;
    if (sum <= 0n) return [];
    return sharedLines(titleOf(p), quantityOf(p.amount), sum, vatRate);
  });
}

/**
 * A position's share of the buyout as lines whose price × quantity is their sum, to the kopeck (an
 * accountant checks every line): a whole quantity that does not divide its sum evenly becomes two lines
 * of the goods — all but one unit at the price rounded down, the last unit at it plus the remainder.
 */
function sharedLines(title: string, qty: string, sum: bigint, vatRate: string): Draft[] {
  const line = (quantity: string, price: bigint, total: bigint): Draft => ({
    title,
    quantity,
    unit: INVOICE_TEXTS.pieces,
    price: rubles(price),
    sum: rubles(total),
    vatRate,
  });
  const whole = /^(\d+)(\.0+)?$/.exec(qty);
  const units = whole ? BigInt(whole[1]!) : 0n;
  if (units <= 1n) return [{ ...line(qty, 0n, sum), price: unitPrice(sum, qty) }];
  const price = sum / units;
  const rest = sum - price * units;
  if (rest === 0n) return [line(qty, price, sum)];
  const count = (n: bigint) => decFormat(dec(String(n)), 2);
  return [line(count(units - 1n), price, price * (units - 1n)), line(count(1n), price + rest, price + rest)];
}

function serviceLines(order: InvoiceOrder, several: boolean, vatRate: string): Draft[] {
  const services: [string, DecimalText][] = [
    [INVOICE_TEXTS.toRuDelivery, order.to_ru_delivery_price_rur],
    [INVOICE_TEXTS.toDoorDelivery, order.to_door_delivery_price_rur],
    [INVOICE_TEXTS.package, order.package_price_rur],
  ];
  return services.flatMap(([title, price]) => {
    const sum = kopecks(price);
    if (sum <= 0n) return [];
    return [
      {
        title: several ? INVOICE_TEXTS.ofOrder(title, order.id) : title,
        quantity: '1',
        unit: INVOICE_TEXTS.service,
        price: rubles(sum),
        sum: rubles(sum),
        vatRate,
      },
    ];
  });
}

function party(entity: LegalEntityRow): InvoiceParty {
  const name = entity.title_full.trim() || entity.title.trim();
  const parts = [name, `${INVOICE_TEXTS.inn} ${entity.inn}`];
  if (entity.kpp) parts.push(`${INVOICE_TEXTS.kpp} ${entity.kpp}`);
  if (entity.address.trim()) parts.push(entity.address.trim());
  return { name, inn: entity.inn, kpp: entity.kpp, address: entity.address.trim(), line: parts.join(', ') };
}

/** The invoice of `src.orders` (one client's, one operator's), at `src.date`. */
export function buildInvoice(src: InvoiceSources): Invoice {
  const orders = [...src.orders].sort((a, b) => a.id - b.id);
  const several = orders.length > 1;
  const drafts: Draft[] = [];
  for (const order of orders) {
    const vatRate = ratePercent(order.options?.price_info?.nds_rate ?? src.operatorNdsRate);
    const positions = src.positions.filter((p) => p.client_order_id === order.id).sort((a, b) => a.id - b.id);
    drafts.push(...goodsLines(order, positions, vatRate), ...serviceLines(order, several, vatRate));
  }
  const lines = drafts.map((d, i) => ({ n: i + 1, ...d }));
  const totalK = lines.reduce((a, l) => a + kopecks(l.sum), 0n);
  const total = rubles(totalK);

  // VAT is inside the amounts: sum × rate / (100 + rate), per rate
  const byRate = new Map<string, bigint>();
  for (const l of lines) byRate.set(l.vatRate, (byRate.get(l.vatRate) ?? 0n) + kopecks(l.sum));
  const taxed = [...byRate].filter(([rate]) => !isZeroRate(rate));
  const vatK = taxed.reduce(
    (a, [rate, sum]) =>
      a + kopecks(decFormat(decDiv(decMul(dec(rubles(sum)), dec(rate)), dec(rate) + dec('100')), 2)),
    0n,
  );
  const vat = taxed.length
    ? {
        label: INVOICE_TEXTS.vatIncluded(
          taxed.length === 1 && byRate.size === 1 ? formatNumber(taxed[0]![0]) : null,
        ),
        amount: rubles(vatK),
      }
    : { label: INVOICE_TEXTS.noVat, amount: null };

  const orderIds = orders.map((o) => o.id);
  const number = orderIds.join(', ');
  const seller = party(src.seller);
  const director = src.seller.director_name.trim();
  return {
    number,
    date: src.date,
    heading: INVOICE_TEXTS.heading(number, documentDate(src.date)),
    bank: {
      title: src.bank.bank_title_full.trim() || src.bank.bank_title_short.trim(),
      bik: src.bank.bank_bik,
      corrAccount: src.bank.bank_account_number,
      account: src.bank.account_number,
    },
    seller,
    buyer: party(src.buyer),
    basis: several
      ? INVOICE_TEXTS.orders(orderIds)
      : INVOICE_TEXTS.order(orders[0]!.id, (orders[0]!.title ?? '').trim()),
    lines,
    total,
    vat,
    summary: INVOICE_TEXTS.summary(lines.length, money(total)),
    words: sumInWords(total),
    director,
    // without a chief accountant the director keeps the books and signs for both (402-ФЗ, ст. 7)
    accountant: src.seller.accountant_name.trim() || director,
    orderIds,
  };
}

/** Today in Moscow (UTC+3 all year), YYYY-MM-DD: the invoice's date. */
export const moscowToday = (now = new Date()) =>
  new Date(now.getTime() + 3 * 60 * 60 * 1000).toISOString().slice(0, 10);

const MAX_IDS_IN_NAME = 3;

/**
 * The file's name: 'Счёт № 12 от 05.05.2026.pdf' ('Счёт № 12, 15, 18 и ещё 4 от …' for many orders),
 * and an ASCII one for clients that do not read filename*: 'invoice-12-2026-05-05.pdf'.
 */
export function invoiceFileName(invoice: Invoice, format: InvoiceFormat): { utf8: string; ascii: string } {
  const ids = invoice.orderIds;
  const shown = ids.slice(0, MAX_IDS_IN_NAME).join(', ');
  const more = ids.length > MAX_IDS_IN_NAME ? ` и ещё ${ids.length - MAX_IDS_IN_NAME}` : '';
  const [y, m, d] = invoice.date.split('-');
  return {
    utf8: `Счёт № ${shown}${more} от ${d}.${m}.${y}.${format}`,
    ascii: `invoice-${ids.slice(0, MAX_IDS_IN_NAME).join('-')}${more ? '-etc' : ''}-${invoice.date}.${format}`,
  };
}

/** content-disposition for the file: the ASCII name, and the real one per RFC 6266 / 5987. */
export function contentDisposition(name: { utf8: string; ascii: string }): string {
  const encoded = encodeURIComponent(name.utf8).replace(
    /['()*!]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${name.ascii}"; filename*=UTF-8''${encoded}`;
}
