import { z } from 'zod';
import { formatMoney } from '../formatting';
import { defineEntityContract, Id, Money, Text, type BaseRow } from './common';

/**
 * The wallet ledger (spec product-core §3 fin_operation; ARCHITECTURE §7): every ruble that moves in or
 * out of a wallet is one fin_operation, written in the same transaction as the balance, under the
 * wallet's row lock, with the balance before and after. The sum of a wallet's movements is its balance.
 */
export const FIN_OPERATION_DIRECTIONS = ['in', 'out'] as const;
export type FinOperationDirection = (typeof FIN_OPERATION_DIRECTIONS)[number];
/** Why money moved: a top-up, a transfer between wallets, an order's product or delivery, a write-off. */
export const FIN_OPERATION_CAUSES = [
  'top_up',
  'transfer',
  'order_product',
  'order_delivery',
  'write_off',
] as const;
export type FinOperationCause = (typeof FIN_OPERATION_CAUSES)[number];
/** How: the spec's payment methods (img = QR, link = SBP link, card, wallet) and an admin's manual entry. */
export const FIN_OPERATION_TYPES = ['img', 'link', 'card', 'wallet', 'manual'] as const;
export type FinOperationType = (typeof FIN_OPERATION_TYPES)[number];
/** The ledger records only what happened: an acquirer's pending payment is not a movement yet. */
export const FIN_OPERATION_STATES = ['done'] as const;

export const FIN_OPERATION_LABELS = {
  wallet_id: 'кошелёк',
  wallet_title: 'кошелёк',
  client_id: 'клиент',
  client_title: 'клиент',
  operator_id: 'оператор',
  amount: 'сумма, ₽',
  cause: 'основание',
  comment: 'комментарий',
  datetime: 'время',
  direction: 'направление',
  sender_id: 'кошелёк отправителя',
  receiver_id: 'кошелёк получателя',
  state: 'состояние',
  type: 'способ',
  wallet_amount_before: 'баланс до, ₽',
  wallet_amount_after: 'баланс после, ₽',
  idempotency_key: 'ключ операции',
  test: 'тест',
} as const;
export const FIN_OPERATION_DIRECTION_LABELS: Record<FinOperationDirection, string> = {
  in: 'поступление',
  out: 'списание',
};
export const FIN_OPERATION_CAUSE_LABELS: Record<FinOperationCause, string> = {
  top_up: 'пополнение',
  transfer: 'перевод между кошельками',
  order_product: 'оплата товара',
  order_delivery: 'оплата доставки',
  write_off: 'списание',
};
export const FIN_OPERATION_TYPE_LABELS: Record<FinOperationType, string> = {
  img: 'QR-код СБП',
  link: 'ссылка СБП',
  card: 'карта',
  wallet: 'кошелёк',
  manual: 'вручную',
};

/** A ledger row as stored and listed; nobody writes one through `_update` (only money operations do). */
export const finOperation = defineEntityContract({
  name: 'fin_operation',
  title: 'финансовые операции',
  fields: z.strictObject({
    wallet_id: Id,
    client_id: Id,
    operator_id: Id.nullable().default(null),
    amount: Money,
    cause: z.enum(FIN_OPERATION_CAUSES),
    comment: Text(),
    datetime: z.string().max(40),
    direction: z.enum(FIN_OPERATION_DIRECTIONS),
    sender_id: Id.nullable().default(null),
    receiver_id: Id.nullable().default(null),
    state: z.enum(FIN_OPERATION_STATES).default('done'),
    type: z.enum(FIN_OPERATION_TYPES),
    wallet_amount_before: Money,
    wallet_amount_after: Money,
    idempotency_key: Text(200),
    test: z.boolean().default(false),
  }),
  labels: FIN_OPERATION_LABELS,
  required: ['wallet_id', 'client_id', 'amount', 'cause', 'direction', 'type'],
  searchFields: ['comment'],
  refs: {
    wallet_id: 'wallet',
    sender_id: 'wallet',
    receiver_id: 'wallet',
    client_id: 'client',
    operator_id: 'operator',
  },
  ownership: { client: 'client_id', operator: 'operator_id' },
});
export type FinOperation = BaseRow & z.infer<typeof finOperation.fields>;

export const LEDGER_MESSAGES = {
  notEnough: (available: string) => `на кошельке недостаточно средств: доступно ${formatMoney(available)}`,
  positive: 'сумма должна быть больше 0',
  walletGone: 'кошелёк не найден или удалён',
  sameWallet: 'кошелёк отправителя и кошелёк получателя совпадают',
  otherCurrency: 'кошельки в разных валютах: перевод между ними невозможен',
  otherClient: 'перевод возможен только между кошельками одного клиента',
  byOperationsOnly: 'финансовые операции создаются только пополнениями, переводами и оплатами',
  transferred: (amount: string) => `переведено ${formatMoney(amount)}`,
} as const;

/** wallet_transfer (spec §7): sender_wallet_id, receiver_wallet_id, amount, test. */
export const WalletTransferParams = z.strictObject({
  sender_wallet_id: Id,
  receiver_wallet_id: Id,
  amount: Money.refine((v) => Number(v) > 0, LEDGER_MESSAGES.positive),
  test: z.boolean().default(false),
  comment: Text(500),
});
export const WALLET_TRANSFER_LABELS = {
  labels: {
    sender_wallet_id: 'кошелёк отправителя',
    receiver_wallet_id: 'кошелёк получателя',
    amount: 'сумма, ₽',
    test: 'тест',
    comment: 'комментарий',
  },
} as const;
