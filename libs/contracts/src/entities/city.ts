import { z } from 'zod';
import { defineEntityContract, Id, type BaseRow } from './common';

/** Ids fixed by the spec: country 1 = China (provider and consolidation cities), 2 = Russia (arrival). */
export const COUNTRY = { CHINA: 1, RUSSIA: 2 } as const;

export const city = defineEntityContract({
  name: 'city',
  title: 'города',
  fields: z.strictObject({
    title: z.string().trim().min(1).max(200),
    title_en: z.string().trim().max(200).default(''),
    title_ru: z.string().trim().max(200).default(''),
    country_id: Id,
  }),
  labels: {
    title: 'название',
    title_en: 'название (англ.)',
    title_ru: 'название (рус.)',
    country_id: 'страна',
    country_title: 'страна',
  },
  required: ['title', 'country_id'],
  searchFields: ['title', 'title_en', 'title_ru'],
  refs: { country_id: 'country' },
});
export type City = BaseRow & z.infer<typeof city.fields> & { country_title: string | null };

/** The add-city dialog (spec §5): Russian and English titles and the country; the title is the Russian one. */
export const CITY_DIALOG_REQUIRED = ['title_ru', 'title_en', 'country_id'] as const;
