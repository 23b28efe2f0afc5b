import { z } from 'zod';
import { defineEntityContract, type BaseRow } from './common';

export const CLIENT_TYPES = ['self', 'company'] as const;

/** Client in its minimal form (legal entities and delivery data come with the directories work). */
export const client = defineEntityContract({
  name: 'client',
  title: 'клиенты',
  fields: z.strictObject({
    title: z.string().trim().min(1).max(200),
    type: z.enum(CLIENT_TYPES).default('self'),
    incognito: z.boolean().default(false),
  }),
  labels: { title: 'название', type: 'тип', incognito: 'инкогнито' },
  required: ['title'],
  searchFields: ['title'],
  ownership: { client: 'id' },
});
export type Client = BaseRow & z.infer<typeof client.fields>;
