import { USER_MESSAGES } from '@caravan/contracts';
import type { TFunction } from 'i18next';
import type { z } from 'zod';

/** Field → first message, from the same zod schema the gateway checks with. */
export function fieldErrors(schema: z.ZodType, values: unknown): Record<string, string> {
  const parsed = schema.safeParse(values);
  if (parsed.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issue.message;
  }
  return errors;
}

/** A form message as the user reads it: the spec's untranslated key 'wrong repeat' in the page's language. */
export const shownMessage = (t: TFunction, message: string | undefined) =>
  message === USER_MESSAGES.wrongRepeat ? t('auth.wrongRepeat') : message;
