import { fail, MESSAGES, type Reply } from '@caravan/contracts';
import type { z } from 'zod';

/** POST to one of the gateway's public auth paths; a network failure becomes a reply like any other. */
export async function postPublic<T = string>(path: string, body: unknown): Promise<Reply<T>> {
  try {
    const res = await fetch(`/api/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await res.json()) as Reply<T>;
  } catch {
    return fail(MESSAGES.serviceUnavailable);
  }
}

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
