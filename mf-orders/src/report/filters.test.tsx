import { monthsBetween } from './Charts';
import { checkedFilters, filtersFromUrl, filtersToUrl, monthStart, presetOf } from './filters';

test('months back cross the year', () => {
  expect(monthStart('2026-02-15', 11)).toBe('2025-03-01');
  expect(monthStart('2026-01-31', 0)).toBe('2026-01-01');
  expect(monthStart('2026-03-01', 2)).toBe('2026-01-01');
  expect(monthsBetween('2025-11', '2026-02')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
});

test('the URL without a period means the last 12 months; all=1 means no period', () => {
  const today = '2026-02-15';
  const fallback = filtersFromUrl(new URLSearchParams(''), today);
  expect(fallback).toEqual({
    created_from: '2025-03-01',
    created_to: '2026-02-15',
    client_id: null,
    operator_id: null,
  });
  expect(presetOf(fallback, today)).toBe('year');
  const all = filtersFromUrl(new URLSearchParams('all=1&client=7&operator=x'), today);
  expect(all).toEqual({ created_from: null, created_to: null, client_id: 7, operator_id: null });
  expect(filtersToUrl(all).toString()).toBe('all=1&client=7');
  expect(filtersToUrl({ ...all, created_from: '2026-01-01' }).toString()).toBe('from=2026-01-01&client=7');
});

test('the filters are checked by the contract the server checks them by', () => {
  expect(
    checkedFilters({ created_from: '2026-01-01', created_to: null, client_id: 7, operator_id: null }),
  ).toEqual({
    filters: { created_from: '2026-01-01', client_id: 7 },
  });
  expect(
    checkedFilters({ created_from: '2026-13-01', created_to: null, client_id: null, operator_id: null }),
  ).toEqual({
    message: "неверное значение поля 'создан с': ожидается дата ДД-ММ-ГГГГ между 1900 и 2050 годом",
  });
});
