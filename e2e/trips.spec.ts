import type { Page } from '@playwright/test';
import { ADMIN, callAsPage, CLIENT, expect, field, fillCalculator, login, OPERATOR, test } from './support';

/** What the user trips over (issue 8 §4): each refusal names the field and changes nothing. */

const save = (page: Page) => page.getByRole('button', { name: 'сохранить' }).click();
const toastSaying = (page: Page, text: string) => page.locator('.bp6-toast').filter({ hasText: text });
/** 'YYYY-MM-DD' as the date input shows it. */
const shownDate = (iso: string) => iso.split('-').reverse().join('-');
const DATE_PROBLEM = 'ожидается дата ДД-ММ-ГГГГ между 1900 и 2050 годом';

test('a date that is not a date is refused naming the field, and the stored date stays', async ({ page }) => {
  await login(page, ADMIN);
  const rate = (await callAsPage(page, 'exchange_rate_get_by_id', { id: 2 })).result;
  await page.goto(`/exchange_rate/${rate.id}`);
  await expect(field(page, 'дата')).toHaveValue(shownDate(rate.date));

  for (const typed of ['31-02-2026', '01-01-2100']) {
    await field(page, 'дата').fill(typed);
    await expect(field(page, 'дата')).toHaveValue(typed);
    await save(page);
    await expect(toastSaying(page, `неверное значение поля 'дата': ${DATE_PROBLEM}`).last()).toBeVisible();
    await expect(page.getByText('изменения сохранены')).toHaveCount(0);
    await page.reload();
    await expect(field(page, 'дата')).toHaveValue(shownDate(rate.date));
  }
  expect((await callAsPage(page, 'exchange_rate_get_by_id', { id: rate.id })).result.date).toBe(rate.date);

  // a new record with an impossible date is not created (it used to be saved as today)
  await page.goto('/exchange_rate/-1');
  await field(page, 'дата').fill('31-02-2026');
  await field(page, 'продажа клиенту, ¥').fill('12,5');
  await field(page, 'продажа клиенту, $').fill('95');
  await save(page);
  await expect(toastSaying(page, `неверное значение поля 'дата'`)).toBeVisible();
  await expect(page).toHaveURL(/\/exchange_rate\/-1$/);
  const created = await callAsPage(page, 'exchange_rate_list', {
    where_param: [{ field: 'client_sell_rate_usd', op: '=', value: '95' }],
  });
  expect(created.result.items).toEqual([]);
});

test('a number field refuses words and exponents, says why, and keeps the stored number', async ({
  page,
}) => {
  await login(page, ADMIN);
  const rate = (await callAsPage(page, 'exchange_rate_get_by_id', { id: 3 })).result;
  await page.goto(`/exchange_rate/${rate.id}`);
  const cbr = field(page, 'курс ЦБ, ¥');
  for (const typed of ['abc', 'сто пятьдесят', '1e3']) {
    await cbr.fill(typed);
    await expect(cbr).toHaveValue(typed); // kept as typed: never quietly another number
    await expect(page.getByText('ожидается число', { exact: true })).toBeVisible();
    await save(page);
    await expect(
      toastSaying(page, "неверное значение поля 'курс ЦБ, ¥': ожидается число").last(),
    ).toBeVisible();
  }
  await page.screenshot({ path: test.info().outputPath('number-refused.png') });
  await page.reload();
  await expect(cbr).toHaveValue(rate.cbr_rate_cny.replace('.', ','));
  expect((await callAsPage(page, 'exchange_rate_get_by_id', { id: rate.id })).result.cbr_rate_cny).toBe(
    rate.cbr_rate_cny,
  );

  // a decimal comma is a number (another number than the stored one, so that a repeated run saves too)
  const typed = rate.cbr_rate_cny === '12.3456' ? '12.3457' : '12.3456';
  await cbr.fill(typed.replace('.', ','));
  await save(page);
  await expect(page.getByText('изменения сохранены')).toBeVisible();
  expect((await callAsPage(page, 'exchange_rate_get_by_id', { id: rate.id })).result.cbr_rate_cny).toBe(
    typed,
  );

  // the list shows rates one way: a decimal comma, no trailing zeros
  await page.goto('/exchange_rate');
  await expect(page.getByRole('cell', { name: typed.replace('.', ','), exact: true })).toBeVisible();
  await expect(page.getByRole('cell', { name: /^\d+\.\d+$/ })).toHaveCount(0);
});

test('messages name fields by their labels in plain words, one per field', async ({ page, browser }) => {
  await login(page, CLIENT);
  await page.goto('/logistic_route/widget');
  await page.getByRole('button', { name: 'рассчитать' }).click();
  const missing = toastSaying(page, "не заполнено поле 'откуда (город в Китае)'");
  await expect(missing).toBeVisible();
  await expect(missing).toContainText("не заполнено поле 'вес, кг'");
  await expect(missing).not.toContainText('from_city_id');

  // the server names a field inside a list by the list, the row and the column
  const before = (await callAsPage(page, 'client_get_by_id', { id: 1 })).result;
  const row = {
    title: 'офис',
    type: 'address',
    address: 'Москва, Тверская, 7',
    contact_name: 'Ирина',
    contact_phone: '+79161112233',
  };
  const refused = await callAsPage(page, 'client_update', {
    id: 1,
    delivery_data_list: [row, { ...row, city: 'М'.repeat(201) }],
  });
  expect(refused).toMatchObject({
    ok: false,
    message: "неверное значение поля 'данные доставки №2: город': не более 200 символов",
  });
  expect((await callAsPage(page, 'client_get_by_id', { id: 1 })).result.delivery_data_list).toEqual(
    before.delivery_data_list,
  );

  // 'abc' in a rate: one message, not three contradicting ones
  const admin = await (await browser.newContext()).newPage();
  await login(admin, ADMIN);
  expect(await callAsPage(admin, 'exchange_rate_update', { id: 4, cbr_rate_cny: 'abc' })).toMatchObject({
    ok: false,
    message: "неверное значение поля 'курс ЦБ, ¥': ожидается число с не более чем 4 знаками после запятой",
  });
});

test('a calculator refusal clears the previous result', async ({ page }) => {
  await login(page, CLIENT);
  await fillCalculator(page, '300');
  await page.getByRole('button', { name: 'рассчитать' }).click();
  await expect(page.getByTestId('quote')).toHaveCount(1);
  await expect(page.getByTestId('quote')).toContainText(/750,00\s\$/);

  await field(page, 'вес, кг').fill('abc');
  await page.getByRole('button', { name: 'рассчитать' }).click();
  await expect(toastSaying(page, "неверное значение поля 'вес, кг': ожидается число")).toBeVisible();
  await expect(page.getByTestId('quote')).toHaveCount(0);
});

test('a missing user says so instead of spinning', async ({ page }) => {
  await login(page, ADMIN);
  await page.goto('/users/9999');
  await expect(page.getByText('запись не найдена')).toBeVisible();
  await page.goto('/users/abc');
  await expect(page.getByText('запись не найдена')).toBeVisible();
});

test('save and delete follow what the server allows', async ({ page }) => {
  await login(page, OPERATOR);
  // the general rates (no operator) are the admins': an operator reads them but may not change them
  const general = (await callAsPage(page, 'exchange_rate_get_by_id', { id: 1 })).result;
  expect(general.operator_id).toBeNull();
  expect(general._rights).toEqual({ write: false, delete: false });
  await page.goto('/exchange_rate/1');
  await expect(field(page, 'курс ЦБ, ¥')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'сохранить' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'удалить', exact: true })).toHaveCount(0);
});

test('a wallet opens on its own page, names its client and tells changes in its own currency', async ({
  page,
}) => {
  await login(page, ADMIN);
  await page.goto('/wallet');
  const yuan = page.getByTestId('document-row').filter({ hasText: 'Юани' });
  await expect(yuan).toContainText('ООО «Ромашка»'); // the client's name, not its id
  await expect(yuan).toContainText(/820,50\s¥/);
  await yuan.click();
  await expect(page).toHaveURL(/\/wallet\/\d+$/);
  await expect(page.getByTestId('item-page')).toBeVisible();
  await expect(page.getByTestId('wallet-balance')).toHaveText(/820,50\s¥/);
  await expect(page.getByTestId('document-row')).toHaveCount(0);

  const id = Number(page.url().split('/').pop());
  await page.waitForTimeout(500); // let the EventSource connect before the change
  expect((await callAsPage(page, 'wallet_update', { id, label: `юани ${Date.now()}` })).ok).toBe(true);
  const told = toastSaying(page, 'кошелёк «Юани» обновлён');
  await expect(told).toContainText(/820,50\s¥/);
  await expect(told).not.toContainText('₽');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the menu folds into a drawer and the content has the screen', async ({ page }) => {
    await page.goto('/');
    await page.getByLabel('email').fill(ADMIN.email);
    await page.getByLabel('пароль').fill(ADMIN.password);
    await page.getByRole('button', { name: 'войти' }).click();
    const menuButton = page.getByRole('button', { name: 'меню' });
    await expect(menuButton).toBeVisible();
    const menu = page.getByRole('navigation', { name: 'меню' });
    await expect(menu).toHaveCount(0);
    const main = await page.locator('main').boundingBox();
    expect(main!.width).toBeGreaterThan(370);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: test.info().outputPath('phone-home.png') });

    await menuButton.click();
    await expect(menu.getByText('страны')).toBeInViewport();
    await page.waitForTimeout(300); // the drawer's slide-in, for the screenshot
    await page.screenshot({ path: test.info().outputPath('phone-menu.png') });
    await menu.getByText('страны').click();
    await expect(menu).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Страны' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: test.info().outputPath('phone-countries.png') });
  });
});

test('a visitor reads link and form messages in Russian; the tab has an icon', async ({ page }) => {
  for (const token of ['abc', 'f'.repeat(40)]) {
    await page.goto(`/check_user_email?token=${token}`);
    await expect(page.getByRole('status')).toHaveText(/^Ссылка больше не активна/);
  }

  await page.goto('/');
  const icon = page.locator('link[rel="icon"]');
  await expect(icon).toHaveCount(1);
  const href = await icon.getAttribute('href');
  const loads = await page.evaluate(
    (src) =>
      new Promise<boolean>((resolve) => {
        const img = new Image();
        img.onload = () => resolve(img.naturalWidth > 0);
        img.onerror = () => resolve(false);
        img.src = src;
      }),
    href!,
  );
  expect(loads).toBe(true);

  await page.getByRole('button', { name: 'Регистрация' }).click();
  const form = page.getByRole('form', { name: 'Регистрация' });
  await form.getByLabel('пароль', { exact: true }).fill('secret-77');
  await form.getByLabel('повторите пароль').fill('other-77');
  await form.getByRole('button', { name: 'зарегистрироваться' }).click();
  await expect(form.getByText('пароли не совпадают')).toBeVisible();
  await expect(form.getByText('wrong repeat')).toHaveCount(0);
});
