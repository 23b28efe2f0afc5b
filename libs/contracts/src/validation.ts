import { z } from 'zod';
import { ru } from 'zod/locales';
import { MESSAGES } from './messages';

// Validation messages reach users inside `message`: zod speaks Russian wherever contracts are loaded.
// Only this locale: `z.locales.ru()` would pull every locale into the browser bundles.
z.config(ru());

const VERBATIM = new Set<string>();

/**
 * Marks a message of the spec that must reach the user exactly as written ('скидка не может быть
 * больше 100%'), without the field name in front of it.
 */
export function specMessage<T extends string>(text: T): T {
  VERBATIM.add(text);
  return text;
}

const valueAt = (input: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>(
    (v, key) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined),
    input,
  );

/** Turns zod issues into one clear Russian message naming the fields at fault. */
export function describeIssues(issues: readonly z.core.$ZodIssue[], input?: unknown): string {
  const parts = issues.map((issue) => {
    const field = issue.path.map(String).join('.') || 'params';
    if (issue.code === 'unrecognized_keys') return issue.keys.map((k) => MESSAGES.unknownField(k)).join(', ');
    if (VERBATIM.has(issue.message)) return issue.message;
    if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined)
      return MESSAGES.fieldRequired(field);
    return MESSAGES.invalidField(field, issue.message);
  });
  return [...new Set(parts)].join('; ') || MESSAGES.invalidParams;
}
