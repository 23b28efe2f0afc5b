import { CLIENT, expect, test } from './support';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

/** Elements wider than the screen: the page itself must not scroll sideways (tables scroll inside). */
const overflowing = () =>
  [...document.querySelectorAll<HTMLElement>('body *')]
    .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
    .filter((el) => !el.closest('.caravan-table-scroll'))
    .slice(0, 8)
    .map(
      (el) => `${el.tagName.toLowerCase()}.${el.className} → ${Math.round(el.getBoundingClientRect().right)}`,
    );

test('the order list fits a phone of 390 px: each order a card, nothing cut off', async ({ page }) => {
  // on a phone the menu hides in a drawer: signed in once the token is stored
  await page.goto('/');
  await page.getByLabel('email').fill(CLIENT.email);
  await page.getByLabel('пароль').fill(CLIENT.password);
  await page.getByRole('button', { name: 'войти' }).click();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('authToken'))).toBeTruthy();
  await page.goto('/client_order');
  await expect(page.getByRole('heading', { name: 'Заказы' })).toBeVisible();
  await expect(page.getByTestId('document-row').first()).toBeVisible();
  const offenders = await page.evaluate(overflowing);
  expect(offenders, 'elements running off the right edge').toEqual([]);
  const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: test.info().outputPath('orders-390.png'), fullPage: true });
  // each order a card of «column: value»: its stage is on the screen without scrolling sideways
  const first = page.getByTestId('document-row').first();
  const stage = first.locator('td[data-label="этап"]');
  await expect(stage).toBeVisible();
  const box = await stage.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(391);
});
