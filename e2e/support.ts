import { expect, test as base, type Locator, type Page } from '@playwright/test';

/** Every test fails on an uncaught error in any of its pages: a crashed screen is never a silent pass. */
export const test = base.extend<{ failOnPageErrors: void }>({
  failOnPageErrors: [
    async ({ context }, use) => {
      const errors: string[] = [];
      const watch = (page: Page) => page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
      context.pages().forEach(watch);
      context.on('page', watch);
      await use();
      expect(errors, 'uncaught errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

export const ADMIN = { email: 'admin@caravan.local', password: 'caravan-admin' };
export const CLIENT = { email: 'client@caravan.local', password: 'caravan123' };
export const OPERATOR = { email: 'operator@caravan.local', password: 'caravan123' };

export async function login(page: Page, user: { email: string; password: string }) {
  await page.goto('/');
  await page.getByLabel('email').fill(user.email);
  await page.getByLabel('пароль').fill(user.password);
  await page.getByRole('button', { name: 'войти' }).click();
  await expect(page.getByRole('navigation', { name: 'меню' })).toBeVisible();
}

/** A procedure call as the logged-in browser user (same token, same gateway). */
export async function callAsPage(page: Page, method: string, params: unknown) {
  const token = await page.evaluate(() => window.localStorage.getItem('authToken'));
  const res = await page.request.post('/api/call_pg_func', {
    headers: { 'Auth-token': token ?? '' },
    data: { method, params },
  });
  return (await res.json()) as { ok: boolean; result: any; message?: string }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A form control by its label, whether or not the label marks it required ('название *'). */
export const field = (scope: Page | Locator, label: string) =>
  scope.getByLabel(new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?\\s*$`));

/** The list page's own container (its search box is not a reference select's 'поиск'). */
export const list = (page: Page) => page.locator('.caravan-document-list');
/** The list page's search box, scoped to the list. */
export const listSearch = (page: Page) => list(page).getByRole('textbox', { name: 'поиск', exact: true });

/**
 * Picks a row from the reference select that `trigger` opens: the one open popover, its search, the
 * row; then waits until the popover is gone, so that no closing popover's 'поиск' box is still on screen
 * when the next step looks for one.
 */
export async function pick(page: Page, trigger: Locator, search: string | null, option: string) {
  const popover = page.locator('.caravan-ref-menu');
  await expect(popover).toHaveCount(0);
  await trigger.click();
  await expect(popover).toHaveCount(1);
  if (search !== null) await popover.getByRole('textbox', { name: 'поиск', exact: true }).fill(search);
  await popover.getByRole('menuitem', { name: option, exact: true }).click();
  await expect(popover).toHaveCount(0);
}

/** Opens a reference select by its label, searches and picks a row. */
export async function choose(
  page: Page,
  label: string,
  search: string,
  option = search,
  scope: Page | Locator = page,
) {
  await pick(page, field(scope, label), search, option);
}

/** The seeded route Иу → Москва, Складочная for toys: 300 kg in 2 m³ costs 750 $. */
export async function fillCalculator(page: Page, weight: string) {
  await page.goto('/logistic_route/widget');
  await choose(page, 'откуда (город в Китае)', 'Иу');
  await choose(page, 'склад прибытия', 'Складочная', 'Москва, Складочная');
  await choose(page, 'тип товара', 'Игрушки');
  await field(page, 'вес, кг').fill(weight);
  await field(page, 'объём, м³').fill('2');
}
