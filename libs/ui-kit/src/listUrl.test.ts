import { listUrlOf, rememberListUrl } from './listUrl';

const memory = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
};

describe('the list URL an item page goes back to', () => {
  test('is the one last shown, with its search, sort and filters', () => {
    const store = memory();
    rememberListUrl('/exchange_rate', '/exchange_rate?q=USD&sort=date+asc', store);
    expect(listUrlOf('/exchange_rate', store)).toBe('/exchange_rate?q=USD&sort=date+asc');
  });

  test("is the bare list when none was shown, or when another list's URL is kept under its name", () => {
    const store = memory();
    expect(listUrlOf('/city', store)).toBe('/city');
    rememberListUrl('/city', '/country?q=x', store);
    expect(listUrlOf('/city', store)).toBe('/city');
    expect(listUrlOf('/city', null)).toBe('/city');
  });
});
