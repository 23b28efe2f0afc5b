import type { Page } from '@playwright/test';
import { PORT_OFFSET } from './playwright.config';
import { ADMIN, callAsPage, expect, list, listSearch, login, pick, test } from './support';

const MAIL = `http://127.0.0.1:${1080 + PORT_OFFSET}/messages`;

async function mailedLink(page: Page, email: string, pagePath: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const messages = (await (await page.request.get(`${MAIL}?to=${encodeURIComponent(email)}`)).json()) as {
        links: string[];
      }[];
      link = messages.flatMap((m) => m.links).find((l) => l.includes(pagePath));
      return Boolean(link);
    })
    .toBe(true);
  return new URL(link!).pathname + new URL(link!).search;
}

test('a new user registers, confirms by mail, waits, is approved and linked, then sees the client menu', async ({
  page,
  browser,
}) => {
  const email = `anna.${Date.now()}@example.ru`;
  await page.goto('/');
  await page.getByRole('button', { name: 'Регистрация' }).click();
  const form = page.getByRole('form', { name: 'Регистрация' });
  await form.getByLabel('email').fill(email);
  await form.getByLabel('пароль', { exact: true }).fill('secret-77');
  await form.getByLabel('повторите пароль').fill('other-77');
  await form.getByLabel('фамилия').fill('Петрова');
  await form.getByLabel('имя', { exact: true }).fill('Анна');
  await form.getByRole('button', { name: 'зарегистрироваться' }).click();
  await expect(page.getByText('пароли не совпадают')).toBeVisible(); // the spec's key 'wrong repeat', in Russian
  await form.getByLabel('повторите пароль').fill('secret-77');
  await form.getByRole('button', { name: 'зарегистрироваться' }).click();
  await expect(page.getByRole('status')).toContainText('Письмо со ссылкой для подтверждения отправлено');

  await page.goto(await mailedLink(page, email, '/check_user_email'));
  await expect(page.getByRole('status')).toContainText('Email подтверждён');

  await page.goto('/');
  await page.getByLabel('email').fill(email);
  await page.getByLabel('пароль').fill('secret-77');
  await page.getByRole('button', { name: 'войти' }).click();
  await expect(page.getByText('Ожидаем подтверждения Вашей авторизации')).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('authToken'))).toBeNull();

  // The admin approves the user and links them to a client, in the users pages.
  const adminPage = await (await browser.newContext()).newPage();

  await login(adminPage, ADMIN);
  await adminPage.getByRole('navigation', { name: 'меню' }).getByText('пользователи').click();
  await listSearch(adminPage).fill(email);
  await list(adminPage).getByRole('cell', { name: email }).click();
  await adminPage.getByLabel('состояние').selectOption('working');
  await adminPage.getByRole('button', { name: 'сохранить' }).click();
  await expect(adminPage.getByText('изменения сохранены')).toBeVisible();
  const clients = adminPage.getByTestId('links-client_user_link');
  await pick(adminPage, clients.getByRole('button', { name: 'добавить…' }), 'Ромашка', 'ООО «Ромашка»');
  await expect(clients.getByRole('cell', { name: 'ООО «Ромашка»' })).toBeVisible();

  await login(page, { email, password: 'secret-77' });
  const menu = page.getByRole('navigation', { name: 'меню' });
  await expect(menu.getByText('клиенты')).toBeVisible();
  await expect(menu.getByText('пользователи')).toHaveCount(0);
  await expect(menu.getByText('страны')).toHaveCount(0);
  expect(await callAsPage(page, 'user_list', {})).toMatchObject({
    ok: false,
    message: 'действие доступно только администратору',
  });
  await page.screenshot({ path: test.info().outputPath('new-client-menu.png') });

  // Fired: the next start shows the blocked page.
  const users = await callAsPage(adminPage, 'user_list', { search: email });
  expect(
    (await callAsPage(adminPage, 'user_update', { id: users.result.items[0].id, state: 'fired' })).ok,
  ).toBe(true);
  await page.reload();
  await expect(page.getByText('Ваш аккаунт заблокирован. Обратитесь к администратору.')).toBeVisible();
});

test('dark mode and English can be switched from the user menu', async ({ page }) => {
  await login(page, ADMIN);
  await page.getByRole('button', { name: 'Администратор' }).click();
  await page.getByText('тёмная тема').click();
  await expect(page.locator('body')).toHaveClass(/bp6-dark/);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Администратор' }).click();
  await page.getByText('English').click();
  await expect(page.getByRole('heading', { name: 'Hello, Администратор!' })).toBeVisible();
  await page.goto('/country');
  await expect(page.getByRole('heading', { name: 'Countries' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'menu' }).getByText('countries')).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'title (English)' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'add' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('dark-english.png') });
  await page.reload();
  await expect(page.locator('body')).toHaveClass(/bp6-dark/);
});

test('a visitor reads about the service and browses the 25-item catalogue with the seller details', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'О сервисе' }).click();
  const about = page.getByRole('dialog', { name: 'О сервисе' });
  for (const tab of [
    'Как заказать',
    'Оплата',
    'Доставка',
    'Возврат',
    'Контакты',
    'Политика конфиденциальности',
    'Публичная оферта',
  ])
    await expect(about.getByRole('tab', { name: tab })).toBeVisible();
  await about.getByRole('tab', { name: 'Оплата' }).click();
  await expect(about.getByText(/2,5% для карты/)).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Каталог' }).click();
  await expect(page.getByTestId('catalogue-item')).toHaveCount(25);
  await expect(page.getByRole('dialog', { name: 'Каталог' })).toContainText('ИНН 7701234567');
});
