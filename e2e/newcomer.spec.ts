import type { Page } from '@playwright/test';
import {
  ADMIN,
  CLIENT,
  expect,
  field,
  fillCalculator,
  list,
  listSearch,
  login,
  OPERATOR,
  test,
} from './support';

/** What a newcomer trips over on first walk through every screen, desktop and phone. */

const PHONE = { width: 390, height: 844 };

/** The page does not scroll sideways: nothing in it is wider than the screen. */
async function fitsTheScreen(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(PHONE.width);
  const form = await page.locator('.caravan-item-page').boundingBox();
  expect(form!.x + form!.width).toBeLessThanOrEqual(PHONE.width);
}

/** Logs in on the desktop layout (the phone's menu is a drawer), then turns the window into a phone. */
async function loginOnPhone(page: Page, user: { email: string; password: string }) {
  await login(page, user);
  await page.setViewportSize(PHONE);
}

test.describe('on a phone', () => {
  test('item pages fit the screen: one column of fields, wide tables scroll inside their own box', async ({
    page,
  }) => {
    await loginOnPhone(page, ADMIN);
    for (const path of ['/operator/1', '/logistic_route/1']) {
      await page.goto(path);
      await expect(page.getByTestId('item-page')).toBeVisible();
      await expect(field(page, 'название')).toBeVisible();
      await fitsTheScreen(page);
      const input = await field(page, 'название').boundingBox();
      expect(input!.x + input!.width).toBeLessThanOrEqual(PHONE.width);
    }
    // the operator's carriers table is wider than the phone: it scrolls in its box, the page does not
    await page.goto('/operator/1');
    const table = page.getByTestId('table-transport_company_data');
    await expect(table).toBeVisible();
    const box = await table.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(box.scroll).toBeGreaterThan(box.client);
    await fitsTheScreen(page);
  });

  test("the client's own page fits the screen", async ({ page }) => {
    await loginOnPhone(page, CLIENT);
    await page.goto('/client/1');
    await expect(page.getByTestId('item-page')).toBeVisible();
    await fitsTheScreen(page);
  });

  test('the calculator shows the price of each quote within the screen', async ({ page }) => {
    await loginOnPhone(page, CLIENT);
    await fillCalculator(page, '300');
    await page.getByRole('button', { name: 'рассчитать' }).click();
    const price = page.getByTestId('quote').locator('td[data-label="стоимость"]');
    await expect(price).toHaveText(/750,00\s\$/);
    await expect(price).toBeInViewport({ ratio: 1 });
    const box = await price.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
  });
});

const crumbs = (page: Page) => page.getByRole('navigation', { name: 'путь к странице' });

test('breadcrumbs name every page in Russian, pages outside the menu and the calculator included', async ({
  page,
}) => {
  await login(page, OPERATOR);
  for (const [path, title] of [
    ['/exchange_rate', 'курсы валют'],
    ['/legal_entity', 'юрлица'],
    ['/bank_account', 'банковские счета'],
    ['/logistic_route/widget', 'калькулятор'],
  ] as const) {
    await page.goto(path);
    await expect(crumbs(page)).toHaveText(`Caravan${title}`);
  }
  await page.goto('/no/such/page');
  await expect(crumbs(page)).toHaveText('Caravan');
});

test('the breadcrumb and «отмена» go back to the list as the user left it', async ({ page }) => {
  await login(page, ADMIN);
  await page.goto('/city');
  await listSearch(page).fill('Моск');
  await expect(page).toHaveURL(/q=/);
  await page.getByTestId('document-row').filter({ hasText: 'Москва' }).click();
  await expect(page).toHaveURL(/\/city\/\d+$/);
  await page.getByRole('button', { name: 'отмена' }).click();
  await expect(page).toHaveURL(/\/city\?q=%D0%9C/);
  await expect(page.getByTestId('document-row')).toHaveCount(1);
  await page.getByTestId('document-row').click();
  await crumbs(page).getByText('города').click();
  await expect(page).toHaveURL(/\/city\?q=%D0%9C/);
  await expect(listSearch(page)).toHaveValue('Моск');
});

test('a non-admin is not offered confidential columns to filter or sort by, nor a search that searches nothing', async ({
  page,
}) => {
  await login(page, OPERATOR);
  await page.goto('/exchange_rate');
  await expect(page.getByTestId('list-count')).toHaveText(/\d/);
  await expect(list(page).getByTestId('list-count')).toHaveText(/\d/);
  await expect(listSearch(page)).toHaveCount(0);
  await page.getByRole('button', { name: 'фильтр' }).click();
  await expect(page.getByRole('menuitem', { name: 'курс ЦБ, ¥' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: /входящая/ })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.goto('/extra_service');
  await page.getByRole('button', { name: 'фильтр' }).click();
  await expect(page.getByRole('menuitem', { name: 'название' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: /себестоимость/ })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.getByTestId('list-sort').click();
  await expect(page.getByRole('menuitem', { name: /себестоимость/ })).toHaveCount(0);
});

test('an admin is offered the confidential columns to filter by', async ({ page }) => {
  await login(page, ADMIN);
  await page.goto('/exchange_rate');
  await page.getByRole('button', { name: 'фильтр' }).click();
  await expect(page.getByRole('menuitem', { name: 'входящая покупка, ¥' })).toBeVisible();
});

test('a calculation that works takes away the error toasts of the one before', async ({ page }) => {
  await login(page, CLIENT);
  await fillCalculator(page, 'abc');
  await page.getByRole('button', { name: 'рассчитать' }).click();
  const wrongWeight = page.locator('.bp6-toast').filter({ hasText: "неверное значение поля 'вес, кг'" });
  await expect(wrongWeight).toBeVisible();
  await field(page, 'вес, кг').fill('300');
  await page.getByRole('button', { name: 'рассчитать' }).click();
  await expect(page.getByTestId('quote')).toHaveCount(1);
  await expect(wrongWeight).toHaveCount(0);
});

test('a saved form takes away the warnings it answered', async ({ page }) => {
  await login(page, ADMIN);
  await page.goto('/country/-1');
  await page.getByRole('button', { name: 'сохранить' }).click();
  const missing = page.locator('.bp6-toast').filter({ hasText: "не заполнено поле 'название'" });
  await expect(missing).toBeVisible();
  await field(page, 'название').fill(`Монголия ${Date.now().toString().slice(-6)}`);
  await page.getByRole('button', { name: 'сохранить' }).click();
  await expect(page.getByText('изменения сохранены')).toBeVisible();
  await expect(missing).toHaveCount(0);
});

test('pages name roles, fields and formats in Russian, not by their internal names', async ({ page }) => {
  await login(page, ADMIN);
  await page.goto('/users');
  const admin = page.getByTestId('document-row').filter({ hasText: ADMIN.email });
  await expect(admin).toContainText('администратор');
  await expect(admin).not.toContainText('admin,');
  await admin.click();
  await expect(page.getByRole('checkbox', { name: 'администратор' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'клиент' })).toBeVisible();
  // the Telegram link is the user's own to make (ADR 0022): the admin reads it in words
  await expect(page.getByTestId('telegram-state')).toHaveText(/^(Telegram не привязан|привязан: )/);

  await page.goto('/operator/1');
  const carriers = page.getByTestId('table-transport_company_data');
  await expect(carriers.getByRole('columnheader', { name: 'ID клиента в API' })).toBeVisible();
  await expect(carriers.getByRole('columnheader', { name: 'токен доступа' })).toBeVisible();

  await page.goto('/exchange_rate');
  await page.getByRole('button', { name: 'фильтр' }).click();
  await page.getByRole('menuitem', { name: 'дата' }).click();
  await expect(page.getByPlaceholder('ДД-ММ-ГГГГ').first()).toBeVisible();
});

test('a page with unsaved changes asks before leaving; «остаться» keeps the edits, «отмена» and a save pass', async ({
  page,
}) => {
  await login(page, ADMIN);
  const menu = page.getByRole('navigation', { name: 'меню' });
  const ask = page
    .getByRole('alertdialog')
    .filter({ hasText: 'есть несохранённые изменения. уйти со страницы?' });
  await page.goto('/country/1');
  const title = await field(page, 'название').inputValue();
  await field(page, 'название').fill(`${title} (правка)`);
  await menu.getByText('города').click();
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'остаться' }).click();
  await expect(ask).toHaveCount(0);
  await expect(page).toHaveURL(/\/country\/1$/);
  await expect(field(page, 'название')).toHaveValue(`${title} (правка)`);

  await crumbs(page).getByText('страны').click();
  await ask.getByRole('button', { name: 'уйти' }).click();
  await expect(page).toHaveURL(/\/country$/);

  // «отмена» means dropping the edits: it leaves without asking; so does a new record's first save
  await page.goto('/country/1');
  await field(page, 'название').fill(`${title} (правка)`);
  await page.getByRole('button', { name: 'отмена' }).click();
  await expect(page).toHaveURL(/\/country$/);
  await page.goto('/country/-1');
  await field(page, 'название').fill(`Бутан ${Date.now().toString().slice(-6)}`);
  await page.getByRole('button', { name: 'сохранить' }).click();
  await expect(page).toHaveURL(/\/country\/\d+$/);
  await menu.getByText('города').click();
  await expect(page).toHaveURL(/\/city$/);
  await expect(ask).toHaveCount(0);
});

test("the hand-written condition's example names the list's own fields, and it works as written", async ({
  page,
}) => {
  await login(page, ADMIN);
  await page.goto('/exchange_rate');
  await page.getByRole('button', { name: 'фильтр', exact: true }).click();
  await page.getByRole('menuitem', { name: 'условие вручную' }).click();
  const example = await field(page, 'условие вручную').getAttribute('placeholder');
  expect(example).toBe('cbr_rate_cny > 10');
  await field(page, 'условие вручную').fill(example!);
  await page.getByRole('button', { name: 'применить' }).click();
  await expect(page.getByTestId('document-row').first()).toBeVisible();
  await expect(page.getByTestId('list-error')).toHaveCount(0);

  await page.goto('/city');
  await page.getByRole('button', { name: 'фильтр', exact: true }).click();
  await page.getByRole('menuitem', { name: 'условие вручную' }).click();
  await expect(field(page, 'условие вручную')).toHaveAttribute('placeholder', "title like 'склад'");
});

test('a refused condition keeps the count line and offers «сбросить условие», which brings the rows back', async ({
  page,
}) => {
  await login(page, ADMIN);
  await page.goto('/city');
  const count = page.getByTestId('list-count');
  await expect(count).toHaveText(/\d/);
  const before = await count.textContent();
  await page.getByRole('button', { name: 'фильтр', exact: true }).click();
  await page.getByRole('menuitem', { name: 'условие вручную' }).click();
  await field(page, 'условие вручную').fill("title = 'Москва' or 1=1");
  await page.getByRole('button', { name: 'применить' }).click();
  await expect(page.getByTestId('list-error')).toContainText('OR не поддерживается');
  await expect(page.getByTestId('document-row')).toHaveCount(0);
  await expect(count).toHaveText(before!);
  await page.getByRole('button', { name: 'сбросить условие' }).click();
  await expect(page.getByTestId('list-error')).toHaveCount(0);
  await expect(page.getByTestId('document-row').first()).toBeVisible();
  await expect(field(page, 'условие вручную')).toHaveValue('');
  await expect(page).not.toHaveURL(/where=/);
});
