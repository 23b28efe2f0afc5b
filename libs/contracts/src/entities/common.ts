import { z } from 'zod';

/** Money: numeric in the database, a decimal string on the wire (never a float). */
export const Money = z
  .union([z.string(), z.number()])
  .transform((v) => (typeof v === 'number' ? v.toFixed(2) : v.trim()))
  .refine(
    (v) => /^-?\d{1,12}(\.\d{1,2})?$/.test(v),
    'ожидается сумма с не более чем 2 знаками после запятой',
  );

/** Columns every entity row carries (ARCHITECTURE §7). */
export type BaseRow = { id: number; deleted: boolean; created_at: string; updated_at: string };

/** What a generic entity needs to be listed, edited and shown: its fields, labels and required ones. */
export type EntityContract<Shape extends z.ZodRawShape> = {
  name: string;
  title: string;
  fields: z.ZodObject<Shape>;
  labels: Record<keyof Shape & string, string>;
  required: readonly (keyof Shape & string)[];
  searchFields: readonly (keyof Shape & string)[];
  /** Link columns that decide who owns a row (ARCHITECTURE §5); absent for reference data. */
  ownership?: { client?: string; operator?: string };
};

export const defineEntityContract = <Shape extends z.ZodRawShape>(c: EntityContract<Shape>) => c;
