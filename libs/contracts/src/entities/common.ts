import { z } from 'zod';
import { isIsoDate } from '../dates';
import { ListParams } from '../list';

/** Digits before the decimal point every decimal column holds (numeric(14 + scale, scale) at most). */
export const DECIMAL_INTEGER_DIGITS = 12;

/**
 * The refusal of a decimal text: too many digits before the point says so (a number the user typed
 * right, only too large); anything else gets `message` (not a number, too many decimals).
 */
const decimalCheck =
  (scale: number, message: string, integerDigits = DECIMAL_INTEGER_DIGITS) =>
  (v: string, ctx: z.RefinementCtx): void => {
    if (new RegExp(`^-?\\d{1,${integerDigits}}(\\.\\d{1,${scale}})?$`).test(v)) return;
    const digits = /^-?(\d+)(\.\d+)?$/.exec(v)?.[1]?.length ?? 0;
    ctx.addIssue({
      code: 'custom',
      message:
        digits > integerDigits ? `слишком большое число: не более ${integerDigits} цифр до запятой` : message,
    });
  };

/** A decimal on the wire (string, or a number that becomes one) with at most `scale` decimals: never a float. */
export const DecimalText = (
  scale: number,
  message = `ожидается число с не более чем ${scale} знаками после запятой`,
  integerDigits = DECIMAL_INTEGER_DIGITS,
) =>
  z
    .union([z.string(), z.number()])
    .transform((v) => (typeof v === 'number' ? String(v) : v.trim().replace(',', '.')))
    .superRefine(decimalCheck(scale, message, integerDigits));

/** A number as money: 10 → '10.00', 12.5 → '12.50'; one with more decimals stays as written, to be refused. */
const moneyOfNumber = (v: number) => (/^-?\d+(\.\d{1,2})?$/.test(String(v)) ? v.toFixed(2) : String(v));

/**
 * The largest amount any money field takes, roubles or yuan (issue 17): every money column is
 * numeric(14, 2), and an amount must leave room for the bank's fee on top (amount_with_fee) and for a
 * balance it is added to — 999 999 999 999,99 overflowed them with a 500.
 */
export const MONEY_MAX = '1000000000.00';
export const MONEY_MAX_MESSAGE = 'сумма не может быть больше 1 000 000 000,00';

/**
 * Money: numeric in the database, a decimal string on the wire (never a float). A number is taken as
 * written (1.005 has three decimals and is refused, never rounded to 1.00). At most MONEY_MAX either way.
 */
export const Money = z
  .union([z.string(), z.number()])
  .transform((v) => (typeof v === 'number' ? moneyOfNumber(v) : v.trim()))
  .superRefine(decimalCheck(2, 'ожидается сумма с не более чем 2 знаками после запятой'))
  .superRefine((v, ctx) => {
    // a number too long for any column is told so by decimalCheck already: one message a field
    const fits = new RegExp(`^-?\\d{1,${DECIMAL_INTEGER_DIGITS}}(\\.\\d+)?$`).test(v);
    if (fits && Math.abs(Number(v)) > Number(MONEY_MAX))
      ctx.addIssue({ code: 'custom', message: MONEY_MAX_MESSAGE });
  });

/** A non-negative decimal with up to `scale` decimals, optionally bounded above. */
export const NonNegative = (scale: number, max?: number) =>
  DecimalText(scale)
    .refine((v) => Number(v) >= 0, 'значение не может быть отрицательным')
    .refine((v) => max === undefined || Number(v) <= max, `значение не может быть больше ${max}`);

/** A price or an amount typed in a form or read from a file: non-negative money, at most MONEY_MAX. */
export const NonNegativeMoney = () =>
  DecimalText(2)
    .refine((v) => Number(v) >= 0, 'значение не может быть отрицательным')
    .refine((v) => !(Number(v) > Number(MONEY_MAX)), MONEY_MAX_MESSAGE);

/** A percentage 0..100 with two decimals (tax, VAT, commission rates). */
export const Percent = NonNegative(2, 100);

export const Id = z.number().int().positive();
export const OptionalId = Id.nullable().default(null);
export const IdList = z.array(Id).max(500).default([]);
export const Text = (max = 2000) => z.string().trim().max(max).default('');
export const Title = z.string().trim().min(1).max(200);

/** A day as 'YYYY-MM-DD' between 1900 and 2050 (shown as DD-MM-YYYY). */
export const IsoDate = z.string().refine(isIsoDate, 'ожидается дата ДД-ММ-ГГГГ между 1900 и 2050 годом');

/** An image or file attached to a record: deleted entries stay (flagged, at the end) for the history. */
export const Attachment = z.strictObject({
  file: z.string().trim().min(1).max(2000),
  name: z.string().max(300).optional(),
  deleted: z.boolean().default(false),
});
export type Attachment = z.infer<typeof Attachment>;
export const Attachments = z.array(Attachment).max(100).default([]);

/** Columns every entity row carries (ARCHITECTURE §7). */
export type BaseRow = { id: number; deleted: boolean; created_at: string; updated_at: string };

/** What a generic entity needs to be listed, edited and shown: its fields, labels and required ones. */
export type EntityContract<Shape extends z.ZodRawShape> = {
  name: string;
  title: string;
  fields: z.ZodObject<Shape>;
  /** Labels of the fields and of the read-only columns the service adds (titles of references). */
  labels: Record<keyof Shape & string, string> & Record<string, string>;
  /** Labels inside list and object fields (a delivery data row's columns), for messages naming them. */
  itemLabels?: Partial<Record<keyof Shape & string, Record<string, string>>>;
  required: readonly (keyof Shape & string)[];
  searchFields: readonly (keyof Shape & string)[];
  /** Reference fields (one id or a list of ids) and the entity each points to. */
  refs?: Partial<Record<keyof Shape & string, string>>;
  /** Link columns that decide who owns a row (ARCHITECTURE §5); absent for reference data. */
  ownership?: { client?: string; operator?: string };
  /**
   * Confidential columns (an operator's cost prices, incoming rates): only admins and the row's owners
   * (by `ownership`) see them; for others they are null and not filterable or sortable.
   */
  confidential?: readonly (keyof Shape & string)[];
};

export const defineEntityContract = <Shape extends z.ZodRawShape>(c: EntityContract<Shape>) => c;

/**
 * `<entity>_list` params: the common ones (spec §7), each reference field as an equality filter
 * (`exchange_rate_list {operator_id}`) and the entity's own (`legal_entity_list {type}`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const entityListParams = (contract: EntityContract<any>, extras: z.ZodRawShape = {}) =>
  ListParams.extend({
    ...Object.fromEntries(
      Object.keys(contract.refs ?? {}).map((f) => [f, z.number().int().nullable().optional()]),
    ),
    ...extras,
  });
