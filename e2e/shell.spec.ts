import { PORT_OFFSET } from './playwright.config';
import { ADMIN, callAsPage, CLIENT, expect, field, listSearch, login, test } from './support';

test('the admin logs in and opens a page of each remote', async ({ page }) => {
  await login(page, ADMIN);
  await expect(page.getByRole('button', { name: 'Администратор' })).toBeVisible();
  const menu = page.getByRole('navigation', { name: 'меню' });

  await menu.getByText('клиенты').click();
  await expect(page.getByRole('heading', { name: 'Клиенты' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'ООО «Ромашка»' })).toBeVisible();

  await menu.getByText('кошельки').click();
  await expect(page.getByRole('heading', { name: 'Кошельки' })).toBeVisible();
  // the demo wallets with their balances (earlier specs may have paid from 'Основной', so no exact sum)
  await expect(page.getByRole('cell', { name: 'Юани' }).first()).toBeVisible(); // other specs make wallets of that title too
  await expect(page.getByRole('cell', { name: /^[\d\s]+,\d\d ₽$/ }).first()).toBeVisible();

  await menu.getByText('страны').click();
  await expect(page.getByRole('heading', { name: 'Страны' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Китай' }).first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('admin-countries.png') });
});

test('a record created in a remote is there after reload', async ({ page }) => {
  const title = `Узбекистан ${Date.now()}`;
  await login(page, ADMIN);
  await page.goto('/country');
  await page.getByRole('button', { name: 'добавить' }).click();
  await page.getByRole('button', { name: 'сохранить' }).click();
  await expect(page.getByText("не заполнено поле 'название'")).toBeVisible();

  await field(page, 'название').fill(title);
  await field(page, 'название (англ.)').fill('Uzbekistan');
  await page.getByRole('button', { name: 'сохранить' }).click();
  await expect(page.getByText('изменения сохранены')).toBeVisible();
  await expect(page).toHaveURL(/\/country\/\d+$/);

  await page.reload();
  await expect(field(page, 'название')).toHaveValue(title);
  await page.getByRole('button', { name: 'отмена' }).click();
  await expect(page.getByRole('cell', { name: title })).toBeVisible();
  await listSearch(page).fill(title);
  await expect(page.getByTestId('document-row')).toHaveCount(1);
  await listSearch(page).fill('нет такой страны');
  await expect(page.getByText('ничего не найдено')).toBeVisible();
});

test('a wallet change arrives in the open page over SSE', async ({ page }) => {
  await login(page, ADMIN);
  await page.goto('/wallet');
  await expect(page.getByRole('heading', { name: 'Кошельки' })).toBeVisible();
  const wallets = await callAsPage(page, 'wallet_list', { per_page: 1 });
  const wallet = wallets.result.items[0];
  await page.waitForTimeout(500); // let the EventSource connect before the change

  const title = `Пополнение ${Date.now()}`;
  // the demo wallet gets its title back whatever happens: other specs find wallets by their titles
  try {
    expect(await callAsPage(page, 'wallet_update', { id: wallet.id, title })).toMatchObject({ ok: true });
    await expect(page.getByTestId('wallet-live-update')).toContainText(title);
    await expect(page.getByRole('cell', { name: title })).toBeVisible();
  } finally {
    expect(await callAsPage(page, 'wallet_update', { id: wallet.id, title: wallet.title })).toMatchObject({
      ok: true,
    });
  }
});

test('a client sees the client menu only and cannot call an admin method', async ({ page }) => {
  await login(page, CLIENT);
  const menu = page.getByRole('navigation', { name: 'меню' });
  await expect(menu.getByText('клиенты')).toBeVisible();
  await expect(menu.getByText('страны')).toHaveCount(0);
  await expect(menu.getByText('кошельки')).toHaveCount(0);
  await page.goto('/client');
  await expect(page.getByTestId('document-row')).toHaveCount(1);
  const reply = await callAsPage(page, 'country_update', { id: -1, title: 'Атлантида' });
  expect(reply).toMatchObject({ ok: false, message: 'действие доступно только администратору' });
});

test('with one remote unreachable the shell still works and shows a placeholder', async ({ page }) => {
  await page.route(`http://127.0.0.1:${8083 + PORT_OFFSET}/**`, (route) => route.abort('connectionrefused'));
  await login(page, ADMIN);
  const menu = page.getByRole('navigation', { name: 'меню' });
  await expect(menu.getByText('справочники: недоступно')).toBeVisible();

  await page.goto('/country');
  await expect(page.getByText('Раздел «справочники» временно недоступен')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('remote-unreachable.png') });

  await menu.getByText('клиенты').click();
  await expect(page.getByRole('heading', { name: 'Клиенты' })).toBeVisible();
});

test('an unknown route shows the not-found page', async ({ page }) => {
  await login(page, ADMIN);
  await page.goto('/no/such/page');
  await expect(page.getByText('Страница не найдена')).toBeVisible();
});
