import { z } from 'zod';
import { specMessage } from '../validation';
import { DecimalText, defineEntityContract, Id, IsoDate, OptionalId, Text, type BaseRow } from './common';

const weighted = (digits: string, weights: number[]) =>
  (weights.reduce((sum, w, i) => sum + w * Number(digits[i]), 0) % 11) % 10;

/** A Russian INN: 10 digits (organisation) or 12 (individual), with its check digits. */
export function isValidInn(inn: string): boolean {
  if (/^\d{10}$/.test(inn)) return weighted(inn, [2, 4, 10, 3, 5, 9, 4, 6, 8]) === Number(inn[9]);
  if (/^\d{12}$/.test(inn))
    return (
      weighted(inn, [7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === Number(inn[10]) &&
      weighted(inn, [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === Number(inn[11])
    );
  return false;
}

export const FINANCE_MESSAGES = {
  inn: specMessage('некорректный ИНН: 10 или 12 цифр с верными контрольными цифрами'),
  kpp: specMessage('КПП: 9 цифр'),
  bik: specMessage('БИК: 9 цифр'),
  account: specMessage('номер счёта: 20 цифр'),
  corrAccount: specMessage('корр. счёт: 20 цифр'),
  ownerBoth: 'юрлицо принадлежит либо оператору, либо клиенту',
} as const;

/** Legal form: an individual entrepreneur (self) or an organisation (company). */
export const LEGAL_ENTITY_TYPES = ['self', 'company'] as const;
export const LEGAL_ENTITY_TYPE_LABELS: Record<(typeof LEGAL_ENTITY_TYPES)[number], string> = {
  self: 'ИП',
  company: 'организация',
};
/** The `type` filter of legal_entity_list (spec §7): entities of operators or of clients. */
export const LEGAL_ENTITY_OWNER_TYPES = ['operator', 'client'] as const;
/** legal_entity_list's own parameter (spec §7): `{type: operator | client}` lists the entities of operators or of clients. */
export const LEGAL_ENTITY_LIST_PARAMS = { type: z.enum(LEGAL_ENTITY_OWNER_TYPES).optional() };

export const legalEntity = defineEntityContract({
  name: 'legal_entity',
  title: 'юрлица',
  fields: z.strictObject({
    title: z.string().trim().min(1).max(300),
    title_full: Text(500),
    type: z.enum(LEGAL_ENTITY_TYPES).default('company'),
    inn: z.string().trim().refine(isValidInn, FINANCE_MESSAGES.inn),
    kpp: z
      .string()
      .trim()
      .regex(/^(\d{9})?$/, FINANCE_MESSAGES.kpp)
      .default(''),
    director_name: Text(200),
    accountant_name: Text(200),
    address: Text(500),
    description: Text(),
    operator_id: OptionalId,
    client_id: OptionalId,
  }),
  labels: {
    title: 'название',
    title_full: 'полное название',
    type: 'тип',
    inn: 'ИНН',
    kpp: 'КПП',
    director_name: 'руководитель',
    accountant_name: 'главный бухгалтер',
    address: 'адрес',
    description: 'описание',
    operator_id: 'оператор',
    client_id: 'клиент',
    bank_account_id: 'банковские счета',
  },
  required: ['title', 'inn'],
  searchFields: ['title', 'title_full', 'inn'],
  refs: { operator_id: 'operator', client_id: 'client' },
  ownership: { operator: 'operator_id', client: 'client_id' },
});
export type LegalEntity = BaseRow & z.infer<typeof legalEntity.fields> & { bank_account_id: number[] };

export const bankAccount = defineEntityContract({
  name: 'bank_account',
  title: 'банковские счета',
  fields: z.strictObject({
    title: z.string().trim().min(1).max(200),
    legal_entity_id: Id,
    account_number: z
      .string()
      .trim()
      .regex(/^\d{20}$/, FINANCE_MESSAGES.account),
    bank_bik: z
      .string()
      .trim()
      .regex(/^\d{9}$/, FINANCE_MESSAGES.bik),
    bank_account_number: z
      .string()
      .trim()
      .regex(/^(\d{20})?$/, FINANCE_MESSAGES.corrAccount)
      .default(''),
    bank_title_full: Text(300),
    bank_title_short: Text(200),
    comment: Text(),
  }),
  labels: {
    title: 'название',
    legal_entity_id: 'юрлицо',
    legal_entity_title: 'юрлицо',
    account_number: 'расчётный счёт',
    bank_bik: 'БИК',
    bank_account_number: 'корр. счёт',
    bank_title_full: 'банк (полное название)',
    bank_title_short: 'банк',
    comment: 'комментарий',
  },
  required: ['title', 'legal_entity_id', 'account_number', 'bank_bik'],
  searchFields: ['title', 'account_number', 'bank_title_short'],
  refs: { legal_entity_id: 'legal_entity' },
});
export type BankAccount = BaseRow & z.infer<typeof bankAccount.fields>;

// numeric(14, 4): ten digits before the point
const Rate = DecimalText(4, undefined, 10).refine((v) => Number(v) > 0, 'курс должен быть больше 0');
const OptionalRate = Rate.nullable().default(null);

export const exchangeRate = defineEntityContract({
  name: 'exchange_rate',
  title: 'курсы валют',
  fields: z.strictObject({
    date: IsoDate,
    operator_id: OptionalId,
    cbr_rate_cny: OptionalRate,
    cbr_rate_usd: OptionalRate,
    client_buy_rate_cny: OptionalRate,
    client_buy_rate_usd: OptionalRate,
    client_sell_rate_cny: Rate,
    client_sell_rate_usd: Rate,
    incoming_buy_rate_cny: OptionalRate,
    incoming_buy_rate_usd: OptionalRate,
    incoming_sell_rate_cny: OptionalRate,
    incoming_sell_rate_usd: OptionalRate,
  }),
  labels: {
    date: 'дата',
    operator_id: 'оператор',
    cbr_rate_cny: 'курс ЦБ, ¥',
    cbr_rate_usd: 'курс ЦБ, $',
    client_buy_rate_cny: 'покупка для клиента, ¥',
    client_buy_rate_usd: 'покупка для клиента, $',
    client_sell_rate_cny: 'продажа клиенту, ¥',
    client_sell_rate_usd: 'продажа клиенту, $',
    incoming_buy_rate_cny: 'входящая покупка, ¥',
    incoming_buy_rate_usd: 'входящая покупка, $',
    incoming_sell_rate_cny: 'входящая продажа, ¥',
    incoming_sell_rate_usd: 'входящая продажа, $',
  },
  required: ['date', 'client_sell_rate_cny', 'client_sell_rate_usd'],
  searchFields: [],
  refs: { operator_id: 'operator' },
  ownership: { operator: 'operator_id' },
  // what the operator pays for currency: theirs alone (general rates: admins')
  confidential: [
    'incoming_buy_rate_cny',
    'incoming_buy_rate_usd',
    'incoming_sell_rate_cny',
    'incoming_sell_rate_usd',
  ],
});
export type ExchangeRate = BaseRow & z.infer<typeof exchangeRate.fields>;
