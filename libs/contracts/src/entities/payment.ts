import { z } from 'zod';
import { formatMoney } from '../formatting';
import { PAYMENT_KINDS, type PaymentKind } from '../pricing';
import { defineEntityContract, Id, Money, OptionalId, Text, type BaseRow } from './common';

/** The product's name as the spec's texts use it ('оплата в {product} недоступна:', 'in_{product}'). */
export const PRODUCT_TITLE = 'Caravan';

/** How money comes in through the acquirer (spec §7 modul_sbp_create): QR, SBP link, card bill. */
export const ACQUIRING_METHODS = ['img', 'link', 'card'] as const;
export type AcquiringMethod = (typeof ACQUIRING_METHODS)[number];
/** What an acquirer's payment is for: a wallet's top-up or an order's payment. */
export const PAYMENT_OPERATIONS = ['wallet', 'client_order'] as const;
export type PaymentOperation = (typeof PAYMENT_OPERATIONS)[number];
/**
 * pending until the acquirer's signed callback says it was paid (done) or not (failed); expired when no
 * callback came and the reconciliation asked the bank, which declined it or never started it (ADR 0014).
 */
export const ACQUIRING_STATES = ['pending', 'done', 'failed', 'expired'] as const;
export type AcquiringState = (typeof ACQUIRING_STATES)[number];

export const PAYMENT_METHOD_LABELS: Record<AcquiringMethod | 'wallet', string> = {
  img: 'QR-код СБП',
  link: 'ссылка СБП',
  card: 'карта',
  wallet: 'кошелёк',
};
export const PAYMENT_KIND_LABELS: Record<PaymentKind, string> = { product: 'товар', delivery: 'доставка' };
export const ACQUIRING_STATE_LABELS: Record<AcquiringState, string> = {
  pending: 'ожидает оплаты',
  done: 'оплачен',
  failed: 'не прошёл',
  expired: 'не оплачен в срок',
};

export const PAYMENT_MESSAGES = {
  unavailable: (reason: string) => `оплата в ${PRODUCT_TITLE} недоступна: ${reason}`,
  draft: 'заказ ещё не сформирован',
  cancelled: 'заказ отменён',
  nothingDue: (kind: PaymentKind) =>
    kind === 'product'
      ? 'товар уже оплачен или оплачивать нечего'
      : 'доставка уже оплачена или оплачивать нечего',
  nothingDueAtAll: 'по заказу нечего оплачивать',
  tooMuch: (due: string) => `сумма больше суммы к оплате: ${formatMoney(due)}`,
  noWallet: 'не найдено подходящего кошелька',
  manualAdminOnly: 'отметить оплату может только администратор',
  orderUnknown: 'заказ не найден',
  productPaid: (full: boolean) => `товар оплачен ${full ? 'полностью' : 'частично'}`,
  deliveryPaid: (state: string) =>
    `доставка оплачена ${state === 'paid_to_door' ? 'до двери' : state === 'paid_to_ru' ? 'до рф' : 'частично'}`,
  stateChanged: 'состояние оплаты товара/доставки изменено',
  done: 'готово!',
  toppedUp: (amount: string) => `баланс пополнен на ${formatMoney(amount)}`,
  declined: 'платёж отклонён банком',
  /** reconciliation (ADR 0014): the bank, asked when no callback came, did not take the money */
  expiredByBank: (reason: string) => `платёж не состоялся: ${reason}`,
  expiredNeverStarted: 'банк не начал этот платёж',
  expiredNotPaid: 'время на оплату истекло, деньги не списаны',
  acquirerFailed: (error: string) => `что-то пошло не так: ${error}`,
  walletMissing: 'укажите кошелёк',
  orderMissing: 'укажите заказ и что оплачивается',
  byTransfer: 'пополнение из другого кошелька делается переводом между кошельками',
  currencyRub: 'пополнить через банк можно только рублёвый кошелёк',
  byPaymentsOnly: 'платежи создаются только оплатой и пополнением',
  paidByPayments: 'оплаченные суммы и состояния оплаты меняются только платежами (окно оплаты заказа)',
  inCdekNeedsCarrier: 'оплата в СДЭК доступна только для заказа с накладной СДЭК',
} as const;

/**
 * An acquirer's payment (ours, ADR 0012): what was asked of the payer (amount_with_fee) and what it
 * credits (amount), pending until the acquirer's signed callback. Its changes reach the top-up dialog
 * (`wallet_item`) and the open order (`client_order_item`) live.
 */
export const acquiringPayment = defineEntityContract({
  name: 'acquiring_payment',
  title: 'платежи через банк',
  fields: z.strictObject({
    operation_type: z.enum(PAYMENT_OPERATIONS),
    type: z.enum(ACQUIRING_METHODS),
    wallet_id: OptionalId,
    client_order_id: OptionalId,
    kind: z.enum(PAYMENT_KINDS).nullable().default(null),
    client_id: Id,
    operator_id: OptionalId,
    user_id: Id,
    amount: Money,
    amount_with_fee: Money,
    state: z.enum(ACQUIRING_STATES).default('pending'),
    message: Text(500),
    transaction_id: Text(200),
    payer_url: Text(1000),
    comment: Text(500),
    test: z.boolean().default(false),
  }),
  labels: {
    operation_type: 'назначение',
    type: 'способ',
    wallet_id: 'кошелёк',
    client_order_id: 'заказ',
    kind: 'что оплачивается',
    client_id: 'клиент',
    operator_id: 'оператор',
    user_id: 'пользователь',
    amount: 'сумма, ₽',
    amount_with_fee: 'к оплате с комиссией, ₽',
    state: 'состояние',
    message: 'сообщение',
    transaction_id: 'платёж в банке',
    payer_url: 'страница оплаты',
    comment: 'комментарий',
    test: 'тест',
  },
  required: ['operation_type', 'type', 'client_id', 'user_id', 'amount', 'amount_with_fee'],
  searchFields: ['comment', 'transaction_id'],
  refs: {
    wallet_id: 'wallet',
    client_order_id: 'client_order',
    client_id: 'client',
    operator_id: 'operator',
  },
  ownership: { client: 'client_id', operator: 'operator_id' },
});
export type AcquiringPayment = BaseRow & z.infer<typeof acquiringPayment.fields>;

/** How an order's money came: the acquirer's methods, a wallet, an admin's mark. */
export const ORDER_PAYMENT_TYPES = ['img', 'link', 'card', 'wallet', 'manual', 'transfer'] as const;

/**
 * One payment of an order (ours, ADR 0012), with the order's paid amounts after it — as a
 * fin_operation carries its wallet's balance. svc-orders sets product_paid_rur / delivery_paid_rur
 * from the newest one, so a redelivered event changes nothing.
 */
export const orderPayment = defineEntityContract({
  name: 'order_payment',
  title: 'оплаты заказов',
  fields: z.strictObject({
    client_order_id: Id,
    client_id: Id,
    operator_id: OptionalId,
    kind: z.enum(PAYMENT_KINDS),
    type: z.enum(ORDER_PAYMENT_TYPES),
    amount: Money,
    product_paid_rur: Money,
    delivery_paid_rur: Money,
    acquiring_payment_id: OptionalId,
    fin_operation_id: OptionalId,
    comment: Text(500),
    idempotency_key: Text(200),
    test: z.boolean().default(false),
  }),
  labels: {
    client_order_id: 'заказ',
    client_id: 'клиент',
    operator_id: 'оператор',
    kind: 'что оплачено',
    type: 'способ',
    amount: 'сумма, ₽',
    product_paid_rur: 'оплачено за товар, ₽',
    delivery_paid_rur: 'оплачено за доставку, ₽',
    acquiring_payment_id: 'платёж через банк',
    fin_operation_id: 'финансовая операция',
    comment: 'комментарий',
    idempotency_key: 'ключ операции',
    test: 'тест',
  },
  required: ['client_order_id', 'client_id', 'kind', 'type', 'amount'],
  searchFields: ['comment'],
  refs: { client_order_id: 'client_order', client_id: 'client', operator_id: 'operator' },
  ownership: { client: 'client_id', operator: 'operator_id' },
});
export type OrderPayment = BaseRow & z.infer<typeof orderPayment.fields>;

const PositiveMoney = Money.refine((v) => Number(v) > 0, 'сумма должна быть больше 0');

/**
 * POST /api/modul_sbp_create (spec §7): type img | link | card, operation_type wallet (top-up) or
 * client_order (order payment), wallet_id or order_id (+ kind), amount (what is credited; the payer
 * pays it grossed up by the method's fee), comment and test (admin only). `user_id` is the caller, from
 * the signed identity (a given one is ignored). A top-up from another wallet is `wallet_transfer`.
 */
export const SbpCreateParams = z
  .strictObject({
    type: z.enum([...ACQUIRING_METHODS, 'wallet']),
    operation_type: z.enum(PAYMENT_OPERATIONS).default('wallet'),
    wallet_id: Id.optional(),
    order_id: Id.optional(),
    kind: z.enum(PAYMENT_KINDS).optional(),
    amount: PositiveMoney,
    comment: Text(500),
    test: z.boolean().default(false),
    user_id: z.unknown().optional(),
  })
  .superRefine((p, ctx) => {
    if (p.operation_type === 'wallet' && !p.wallet_id)
      ctx.addIssue({ code: 'custom', path: ['wallet_id'], message: PAYMENT_MESSAGES.walletMissing });
    if (p.operation_type === 'client_order' && (!p.order_id || !p.kind))
      ctx.addIssue({ code: 'custom', path: ['order_id'], message: PAYMENT_MESSAGES.orderMissing });
  });
export type SbpCreateParams = z.infer<typeof SbpCreateParams>;
export const SBP_CREATE_LABELS = {
  labels: {
    type: 'способ оплаты',
    operation_type: 'назначение',
    wallet_id: 'кошелёк',
    order_id: 'заказ',
    kind: 'что оплачивается',
    amount: 'сумма, ₽',
    comment: 'комментарий',
    test: 'тест',
  },
} as const;

/**
 * client_order_payment_receive (spec §7): {id, prepare} asks whether the order can be paid here;
 * {id, kind, type, amount, test} records a payment: type wallet (from the client's wallet: wallet_id, or
 * their default rouble wallet), manual (an admin marks it paid; amount defaults to what is due).
 */
export const PaymentReceiveParams = z.strictObject({
  id: Id,
  prepare: z.boolean().optional(),
  kind: z.enum(PAYMENT_KINDS).optional(),
  type: z.enum(['wallet', 'manual']).optional(),
  amount: PositiveMoney.optional(),
  wallet_id: Id.optional(),
  comment: Text(500),
  test: z.boolean().default(false),
});
export type PaymentReceiveParams = z.infer<typeof PaymentReceiveParams>;
export const PAYMENT_RECEIVE_LABELS = {
  labels: {
    id: 'заказ',
    prepare: 'проверка',
    kind: 'что оплачивается',
    type: 'способ оплаты',
    amount: 'сумма, ₽',
    wallet_id: 'кошелёк',
    comment: 'комментарий',
    test: 'тест',
  },
} as const;

/**
 * acquiring_payment_reconcile (ours, ADR 0014, admin): asks the bank now about the payments pending
 * longer than `older_than_seconds` (the service's PAYMENTS_RECONCILE_AFTER_SECONDS when absent) — what
 * the periodic reconciliation does. Answers how many were asked, credited and expired.
 */
export const ReconcileParams = z.strictObject({
  older_than_seconds: z.number().int().min(0).max(31_536_000).optional(),
});
export type ReconcileParams = z.infer<typeof ReconcileParams>;
export const RECONCILE_LABELS = { labels: { older_than_seconds: 'ожидающие дольше, с' } } as const;
export type ReconcileOutcome = { asked: number; credited: number; expired: number; unchanged: number };

/**
 * client_order_dues (ours): the caller's (or the named client's) orders with something to pay, with
 * what is due for goods and delivery, newest first, a page of 20 or 50, and the totals — the wallet
 * widget's 'к оплате' and the write-off dialog's table.
 */
export const OrderDuesParams = z.strictObject({
  client_id: Id.optional(),
  page: z.number().int().min(1).max(100_000).default(1),
  per_page: z.union([z.literal(20), z.literal(50)]).default(20),
});
export type OrderDuesParams = z.infer<typeof OrderDuesParams>;
export const ORDER_DUES_LABELS = {
  labels: { client_id: 'клиент', page: 'страница', per_page: 'строк на странице' },
} as const;
export type OrderDue = {
  id: number;
  title: string;
  stage: string;
  client_id: number;
  product_due: string;
  delivery_due: string;
  due: string;
  product_payment_state: string;
  delivery_payment_state: string;
};
export type OrderDues = {
  rows: OrderDue[];
  count: number;
  total_due: string;
  product_due: string;
  delivery_due: string;
};

/**
 * When an order's payment opens (orders-payments-calls §4; decided in issue 17, docs/adr/0017): once the
 * operator has checked and priced its positions and asked for payment — the order's stage
 * buyout_waiting ('ожидает оплаты/выкупа') and every later one. A formed order ('сформирован') waits
 * for the operator: its prices are not yet the operator's. The service refuses and the card shows why.
 */
export const PAYMENT_OPENING_MESSAGES = {
  notPriced:
    'оператор ещё не проверил и не оценил позиции заказа: оплата откроется, когда заказ будет ожидать оплаты',
};
export function paymentClosedReason(order: { stage?: unknown; state?: unknown }): string | null {
  if (order.stage === 'draft') return PAYMENT_MESSAGES.draft;
  if (order.state === 'cancelled') return PAYMENT_MESSAGES.cancelled;
  if (order.stage === 'created') return PAYMENT_OPENING_MESSAGES.notPriced;
  return null;
}
