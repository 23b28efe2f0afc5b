import { z } from 'zod';
import { MESSAGES } from './messages';

export type Language = 'ru' | 'en';

const VERBATIM = new Set<string>();

/**
 * Marks a message of the spec that must reach the user exactly as written ('скидка не может быть
 * больше 100%'), without the field name in front of it.
 */
export function specMessage<T extends string>(text: T): T {
  VERBATIM.add(text);
  return text;
}

/** Is this one of the spec's verbatim messages? */
export const isSpecMessage = (text: string) => VERBATIM.has(text);

/** Russian forms after a number ('1 символа', '5 символов' after «не более»). */
const genitive = (n: number, one: string, many: string) => (n % 10 === 1 && n % 100 !== 11 ? one : many);

/** Plain words for what is wrong with a value, in both languages of the UI (no zod wording). */
export const VALIDATION_WORDS = {
  ru: {
    required: MESSAGES.fieldRequired,
    invalid: MESSAGES.invalidField,
    unknownField: MESSAGES.unknownField,
    invalidParams: MESSAGES.invalidParams,
    /** the n-th row of a list field: 'данные доставки №2' */
    item: (label: string, n: number) => `${label} №${n}`,
    number: 'ожидается число',
    integer: 'ожидается целое число',
    text: 'ожидается текст',
    yesNo: 'ожидается «да» или «нет»',
    list: 'ожидается список',
    record: 'ожидается набор полей',
    date: 'ожидается дата ДД-ММ-ГГГГ между 1900 и 2050 годом',
    dateTime: 'ожидается дата и время ДД-ММ-ГГГГ ЧЧ:ММ между 1900 и 2050 годом',
    choice: 'выберите значение из списка',
    format: 'неверный формат',
    value: 'недопустимое значение',
    longText: (n: number) => `не более ${n} ${genitive(n, 'символа', 'символов')}`,
    shortText: (n: number) => `не менее ${n} ${genitive(n, 'символа', 'символов')}`,
    longList: (n: number) => `не более ${n} ${genitive(n, 'строки', 'строк')}`,
    shortList: (n: number) => `не менее ${n} ${genitive(n, 'строки', 'строк')}`,
    atMost: (n: string) => `не больше ${n}`,
    below: (n: string) => `меньше ${n}`,
    atLeast: (n: string) => `не меньше ${n}`,
    above: (n: string) => `больше ${n}`,
  },
  en: {
    required: (label: string) => `the field '${label}' is empty`,
    invalid: (label: string, detail: string) => `wrong value of the field '${label}': ${detail}`,
    unknownField: (field: string) => `unknown field '${field}'`,
    invalidParams: 'wrong request parameters',
    item: (label: string, n: number) => `${label} #${n}`,
    number: 'a number is expected',
    integer: 'a whole number is expected',
    text: 'a text is expected',
    yesNo: 'yes or no is expected',
    list: 'a list is expected',
    record: 'a set of fields is expected',
    date: 'a date DD-MM-YYYY between 1900 and 2050 is expected',
    dateTime: 'a date and time DD-MM-YYYY HH:mm between 1900 and 2050 is expected',
    choice: 'choose a value from the list',
    format: 'wrong format',
    value: 'value not allowed',
    longText: (n: number) => `at most ${n} characters`,
    shortText: (n: number) => `at least ${n} characters`,
    longList: (n: number) => `at most ${n} rows`,
    shortList: (n: number) => `at least ${n} rows`,
    atMost: (n: string) => `at most ${n}`,
    below: (n: string) => `less than ${n}`,
    atLeast: (n: string) => `at least ${n}`,
    above: (n: string) => `more than ${n}`,
  },
} as const;

export const wordsOf = (language: string | undefined) =>
  VALIDATION_WORDS[language === 'en' ? 'en' : 'ru'] as (typeof VALIDATION_WORDS)['ru'];

type IssueLike = {
  code: string;
  expected?: string;
  origin?: string;
  format?: string;
  maximum?: unknown;
  minimum?: unknown;
  inclusive?: boolean;
  errors?: readonly (readonly { code: string; expected?: string }[])[];
};

const NUMERIC = new Set(['number', 'int', 'bigint', 'nan']);
const TYPE_WORDS: Record<string, 'text' | 'yesNo' | 'list' | 'record' | 'date'> = {
  string: 'text',
  boolean: 'yesNo',
  array: 'list',
  tuple: 'list',
  object: 'record',
  record: 'record',
  date: 'date',
};

/** What is wrong, in plain words: the detail after the field's label. Depends only on the issue's kind and bounds. */
export function plainIssueText(issue: IssueLike, language?: string): string {
  const w = wordsOf(language);
  const bound = (v: unknown) => Number(v);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.expected === 'int') return w.integer;
      if (NUMERIC.has(issue.expected ?? '')) return w.number;
      return TYPE_WORDS[issue.expected ?? ''] ? w[TYPE_WORDS[issue.expected!]!] : w.value;
    case 'invalid_union': {
      const expected = (issue.errors ?? []).map((branch) => branch[0]?.expected);
      return expected.some((e) => NUMERIC.has(e ?? '')) ? w.number : w.value;
    }
    case 'too_big':
      if (issue.origin === 'string') return w.longText(bound(issue.maximum));
      if (issue.origin === 'array' || issue.origin === 'set') return w.longList(bound(issue.maximum));
      return issue.inclusive === false ? w.below(String(issue.maximum)) : w.atMost(String(issue.maximum));
    case 'too_small':
      if (issue.origin === 'string') return w.shortText(bound(issue.minimum));
      if (issue.origin === 'array' || issue.origin === 'set') return w.shortList(bound(issue.minimum));
      return issue.inclusive === false ? w.above(String(issue.minimum)) : w.atLeast(String(issue.minimum));
    case 'invalid_format':
      return issue.format === 'date' || issue.format === 'datetime' ? w.date : w.format;
    case 'invalid_value':
      return w.choice;
    default:
      return w.value;
  }
}

// zod's own texts would reach users ('ожидалось, что string будет иметь <=200 символов'): ours instead.
z.config({ localeError: (issue) => plainIssueText(issue as IssueLike, 'ru') });

/** Where a message finds a field's label: a contract's labels, and the labels inside its list and object fields. */
export type FieldLabels = {
  labels: Readonly<Record<string, string>>;
  /** labels inside a list or object field, by that field: `{ delivery_data_list: { title: 'название' } }` */
  itemLabels?: Readonly<Record<string, Readonly<Record<string, string>> | undefined>>;
};

/**
 * The label of a field at a path: 'delivery_data_list.1.title' → 'данные доставки №2: название'.
 * Internal names show only where no label is known at all.
 */
export function fieldLabel(path: readonly PropertyKey[], source?: FieldLabels, language?: string): string {
  const w = wordsOf(language);
  const [head, ...rest] = path;
  if (head === undefined) return '';
  const headLabel = source?.labels[String(head)];
  const inner = source?.itemLabels?.[String(head)];
  let label = headLabel ?? String(head);
  let key = '';
  for (const segment of rest) {
    if (typeof segment === 'number') {
      label = w.item(label, segment + 1);
      continue;
    }
    key = key ? `${key}.${String(segment)}` : String(segment);
    const name = inner?.[key] ?? inner?.[String(segment)] ?? (headLabel ? null : String(segment));
    if (name) label = `${label}: ${name}`;
  }
  return label;
}

const valueAt = (input: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>(
    (v, key) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined),
    input,
  );

/** Nothing was given: absent, null, blank text or an empty list where something is required. */
function isMissing(issue: z.core.$ZodIssue, input: unknown): boolean {
  const value = valueAt(input, issue.path);
  if (issue.code === 'invalid_type' || issue.code === 'invalid_union')
    return value === undefined || value === null;
  if (issue.code === 'too_small' && (issue.origin === 'string' || issue.origin === 'array'))
    return Number(issue.minimum) === 1;
  return false;
}

/** The schema gave this issue its own message (a refine's text), not our plain wording. */
const ownMessage = (issue: z.core.$ZodIssue) => issue.message !== plainIssueText(issue as IssueLike, 'ru');

function describeIssue(
  issue: z.core.$ZodIssue,
  input: unknown,
  labels: FieldLabels | undefined,
  language: string | undefined,
): string {
  const w = wordsOf(language);
  if (issue.code === 'unrecognized_keys') {
    const prefix = issue.path.length ? `${fieldLabel(issue.path, labels, language)}: ` : '';
    return issue.keys.map((k) => `${prefix}${w.unknownField(k)}`).join(', ');
  }
  if (VERBATIM.has(issue.message)) return issue.message;
  if (!issue.path.length) return issue.code === 'custom' ? issue.message : w.invalidParams;
  const label = fieldLabel(issue.path, labels, language);
  const own = ownMessage(issue);
  if (isMissing(issue, input)) return own ? issue.message : w.required(label);
  return w.invalid(label, own ? issue.message : plainIssueText(issue as IssueLike, language));
}

/**
 * Turns zod issues into one clear message naming the fields at fault by their labels: one message
 * per field (the first thing wrong with it), in plain words, Russian unless asked for English.
 */
export function describeIssues(
  issues: readonly z.core.$ZodIssue[],
  input?: unknown,
  labels?: FieldLabels,
  language?: string,
): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const issue of issues) {
    const key = issue.code === 'unrecognized_keys' ? `?${issue.keys.join()}` : issue.path.join('.');
    if (seen.has(key)) continue;
    seen.add(key);
    parts.push(describeIssue(issue, input, labels, language));
  }
  return [...new Set(parts)].join('; ') || wordsOf(language).invalidParams;
}
