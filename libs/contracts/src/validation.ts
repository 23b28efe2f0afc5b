import { z } from 'zod';
import { ru } from 'zod/locales';
import { MESSAGES } from './messages';

// Validation messages reach users inside `message`: zod speaks Russian wherever contracts are loaded.
// Only this locale: `z.locales.ru()` would pull every locale into the browser bundles.
z.config(ru());

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
    if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined)
      return MESSAGES.fieldRequired(field);
    return MESSAGES.invalidField(field, issue.message);
  });
  return parts.join('; ') || MESSAGES.invalidParams;
}
