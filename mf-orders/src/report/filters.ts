import { describeIssues, REPORT_FILTER_LABELS, ReportFilters } from '@caravan/contracts';

/**
 * The report's filters as the page keeps them in its URL (?from=&to=&client=&operator=, or ?all=1 for
 * no period), so a report can be bookmarked and sent. Without any period in the URL the page shows the
 * last 12 calendar months: what the chart by month draws, and a bounded sum for an admin.
 */
export type FilterState = {
  /** ISO days, or the text typed when it is not one (the page says what is wrong) */
  created_from: string | null;
  created_to: string | null;
  client_id: number | null;
  operator_id: number | null;
};

export const PERIOD_PRESETS = ['month', 'quarter', 'year', 'all'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];
const MONTHS_BACK: Record<Exclude<PeriodPreset, 'all'>, number> = { month: 0, quarter: 2, year: 11 };

/** The first day of the month `back` months before the month of `today` ('YYYY-MM-DD'). */
export function monthStart(today: string, back: number): string {
  const [y, m] = today.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) - back;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-01`;
}

/** The period of a preset, ending today. */
export function presetPeriod(preset: PeriodPreset, today: string) {
  if (preset === 'all') return { created_from: null, created_to: null };
  return { created_from: monthStart(today, MONTHS_BACK[preset]), created_to: today };
}

/** The preset the period is, if it is one. */
export const presetOf = (f: Pick<FilterState, 'created_from' | 'created_to'>, today: string) =>
  PERIOD_PRESETS.find((p) => {
    const period = presetPeriod(p, today);
    return period.created_from === f.created_from && period.created_to === f.created_to;
  });

const positiveId = (text: string | null) => {
  const n = Number(text);
  return text && Number.isInteger(n) && n > 0 ? n : null;
};

export function filtersFromUrl(search: URLSearchParams, today: string): FilterState {
  const anyPeriod = search.has('from') || search.has('to') || search.has('all');
  const period = anyPeriod
    ? { created_from: search.get('from') || null, created_to: search.get('to') || null }
    : presetPeriod('year', today);
  return {
    ...period,
    client_id: positiveId(search.get('client')),
    operator_id: positiveId(search.get('operator')),
  };
}

export function filtersToUrl(f: FilterState): URLSearchParams {
  const search = new URLSearchParams();
  if (f.created_from) search.set('from', f.created_from);
  if (f.created_to) search.set('to', f.created_to);
  if (!f.created_from && !f.created_to) search.set('all', '1');
  if (f.client_id) search.set('client', String(f.client_id));
  if (f.operator_id) search.set('operator', String(f.operator_id));
  return search;
}

/** The filters as the calls take them (empty ones left out), or what is wrong with them, in the server's words. */
export function checkedFilters(f: FilterState): { filters: ReportFilters } | { message: string } {
  const given = Object.fromEntries(Object.entries(f).filter(([, v]) => v !== null && v !== ''));
  const parsed = ReportFilters.safeParse(given);
  return parsed.success
    ? { filters: parsed.data }
    : { message: describeIssues(parsed.error.issues, given, REPORT_FILTER_LABELS) };
}
