import { z } from 'zod';
import { defineEntityContract, type BaseRow } from './common';

/** Ids fixed by the spec: 1 = CNY, 3 = USD (2 is the currency of delivery listings, RUB). */
export const CURRENCY = { CNY: 1, RUB: 2, USD: 3 } as const;

export const currency = defineEntityContract({
  name: 'currency',
  title: 'валюты',
  fields: z.strictObject({
    title: z.string().trim().min(1).max(50),
    symbol: z.string().trim().max(5).default(''),
  }),
  labels: { title: 'название', symbol: 'символ' },
  required: ['title'],
  searchFields: ['title'],
});
export type Currency = BaseRow & z.infer<typeof currency.fields>;

export const CURRENCY_SYMBOLS: Record<number, string> = {
  [CURRENCY.CNY]: '¥',
  [CURRENCY.RUB]: '₽',
  [CURRENCY.USD]: '$',
};
