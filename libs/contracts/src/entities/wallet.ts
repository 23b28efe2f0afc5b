import { z } from 'zod';
import { defineEntityContract, type BaseRow } from './common';
import { CURRENCY } from './currency';

/**
 * Who a wallet belongs to does not move with its money (ARCHITECTURE §5): money leaves a wallet only
 * through a money operation (a transfer), never by relabelling the wallet.
 */
export const WALLET_MESSAGES = {
  clientFixed: 'клиента кошелька меняет только администратор, и только у пустого кошелька',
  fundedOwner: 'у кошелька с деньгами клиент и оператор не меняются: переведите деньги в другой кошелёк',
  fundedCurrency: 'у кошелька с деньгами валюта не меняется: переведите деньги в кошелёк нужной валюты',
  operatorNotServing: 'этот оператор не обслуживает клиента кошелька',
  fundedDelete: 'удалить можно только пустой кошелёк: сначала переведите деньги в другой кошелёк',
  defaultByClient: 'основной кошелёк (автосписание) выбирает клиент',
  defaultRoubleOnly: 'основным может быть только рублёвый кошелёк: с него идут оплаты и автосписание',
  pendingDelete: 'у кошелька есть платёж, который ещё ждёт банка: удалить кошелёк можно после него',
} as const;

/**
 * Wallet in its minimal form. `amount` is not editable here: balances change only through
 * fin_operations (ARCHITECTURE §7), which arrive with the payments work.
 */
export const wallet = defineEntityContract({
  name: 'wallet',
  title: 'кошельки',
  fields: z.strictObject({
    title: z.string().trim().min(1).max(200),
    label: z.string().trim().max(200).default(''),
    client_id: z.number().int().positive(),
    operator_id: z.number().int().positive().nullable().default(null),
    currency_id: z.number().int().positive().default(CURRENCY.RUB),
    /** is_default: the wallet payments and the write-off take from, and auto-debit uses (ADR 0012) */
    options: z.strictObject({ is_default: z.boolean().default(false) }).default({ is_default: false }),
  }),
  labels: {
    title: 'название',
    label: 'метка',
    client_id: 'клиент',
    operator_id: 'оператор',
    currency_id: 'валюта',
    options: 'настройки',
  },
  itemLabels: { options: { is_default: 'по умолчанию (автосписание)' } },
  required: ['title', 'client_id'],
  searchFields: ['title', 'label'],
  refs: { client_id: 'client', operator_id: 'operator', currency_id: 'currency' },
  ownership: { client: 'client_id', operator: 'operator_id' },
});
export type Wallet = BaseRow & z.infer<typeof wallet.fields> & { amount: string };
