import { z } from 'zod';

/** Suggestions (DaData-style, spec §3): addresses, companies by INN or name, banks by BIK. */
export const SuggestParams = z.strictObject({
  query: z.string().trim().min(1, 'введите текст для поиска').max(300),
  count: z.number().int().min(1).max(20).default(10),
});
export type SuggestParams = z.infer<typeof SuggestParams>;

/** Spec §9: 10 suggestions, 1 when adding; the company and address dialogs wait 500 ms after typing. */
export const SUGGESTION_COUNT = 10;
export const SUGGESTION_DEBOUNCE_MS = 500;

export type AddressSuggestion = {
  full: string;
  geo_lat: string | null;
  geo_lon: string | null;
  source: {
    city: string | null;
    region: string | null;
    area: string | null;
    street: string | null;
    postal_code: string | null;
    house: string | null;
    place: string | null;
  };
};

export type CompanySuggestion = {
  value: string;
  data: {
    inn: string;
    kpp: string | null;
    hid: string;
    opf: { full: string | null };
    state: { status: string };
    address: { value: string };
    management?: { name: string | null } | null;
    name?: { full_with_opf: string | null; short_with_opf: string | null };
  };
};

export type BankSuggestion = {
  value: string;
  data: {
    bic: string;
    correspondent_account: string | null;
    name: { payment: string; short: string | null };
    address: { value: string } | null;
  };
};

/** Spec §4: company statuses with their labels; anything else is shown as it came. */
export const COMPANY_STATUS_LABELS: Record<string, string> = {
  ACTIVE: 'действующая',
  LIQUIDATING: 'ликвидируется',
  LIQUIDATED: 'ликвидирована',
  REORGANIZING: 'в процессе присоединения к другому юрлицу',
};
export const companyStatusLabel = (status: string) => COMPANY_STATUS_LABELS[status] ?? status;

/** A link that opens the point on a map in a new tab. */
export const mapLink = (a: Pick<AddressSuggestion, 'full' | 'geo_lat' | 'geo_lon'>) =>
  a.geo_lat && a.geo_lon
    ? `https://yandex.ru/maps/?pt=${a.geo_lon},${a.geo_lat}&z=16&l=map`
    : `https://yandex.ru/maps/?text=${encodeURIComponent(a.full)}`;
