import { z } from 'zod';
import { Attachments, defineEntityContract, type BaseRow } from './common';

export const logisticProductType = defineEntityContract({
  name: 'logistic_product_type',
  title: 'типы товаров',
  fields: z.strictObject({ title: z.string().trim().min(1).max(200) }),
  labels: { title: 'название' },
  required: ['title'],
  searchFields: ['title'],
});
export type LogisticProductType = BaseRow & z.infer<typeof logisticProductType.fields>;

export const packageDescription = defineEntityContract({
  name: 'package_description',
  title: 'упаковка',
  fields: z.strictObject({
    title: z.string().trim().min(1).max(200),
    title_cn: z.string().trim().max(200).default(''),
    images: Attachments,
  }),
  labels: { title: 'название', title_cn: 'название (кит.)', images: 'фото' },
  required: ['title'],
  searchFields: ['title', 'title_cn'],
});
export type PackageDescription = BaseRow & z.infer<typeof packageDescription.fields>;
