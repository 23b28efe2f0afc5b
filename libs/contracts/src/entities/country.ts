import { z } from 'zod';
import { defineEntityContract, type BaseRow } from './common';

export const country = defineEntityContract({
  name: 'country',
  title: 'страны',
  fields: z.strictObject({
    title: z.string().trim().min(1).max(200),
    title_en: z.string().trim().max(200).default(''),
    title_ru: z.string().trim().max(200).default(''),
  }),
  labels: { title: 'название', title_en: 'название (англ.)', title_ru: 'название (рус.)' },
  required: ['title'],
  searchFields: ['title', 'title_en', 'title_ru'],
});
export type Country = BaseRow & z.infer<typeof country.fields>;
