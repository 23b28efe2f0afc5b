import type { Page } from '@playwright/test';
import {
  ADMIN,
  callAsPage,
  choose,
  CLIENT,
  expect,
  field,
  list,
  listSearch,
  login,
  OPERATOR,
  pick,
  test,
} from './support';

const saved = async (page: Page) => {
  await page.getByRole('button', { name: 'сохранить' }).click();
  await expect(page.getByText('изменения сохранены').last()).toBeVisible();
};

test('an admin creates a city, a warehouse and a route with links, edits it, sees the history, and the calculator finds it', async ({
  page,
}) => {
  const stamp = Date.now().toString().slice(-6);
  const city = `Ханчжоу ${stamp}`;
  const warehouse = `Ханчжоу, склад ${stamp}`;
  const route = `Ханчжоу — Москва ${stamp}`;
  await login(page, ADMIN);

  // a city, from the list's add button: the empty form names every missing field
  await page.goto('/city');
  await page.getByRole('button', { name: 'добавить' }).click();
  await expect(page).toHaveURL(/\/city\/-1$/);
  await page.getByRole('button', { name: 'сохранить' }).click();
  await expect(page.getByText("не заполнено поле 'название'")).toBeVisible();
  await expect(page.getByText("не заполнено поле 'страна'")).toBeVisible();
  await field(page, 'название').fill(city);
  await field(page, 'название (англ.)').fill(`Hangzhou ${stamp}`);
  await choose(page, 'страна', 'Кит', 'Китай');
  await saved(page);
  await expect(page).toHaveURL(/\/city\/\d+$/);

  // a warehouse in that city; an arrival warehouse would have to be in Russia
  await page.goto('/warehouse_point/-1');
  await field(page, 'название').fill(warehouse);
  await field(page, 'тип').selectOption({ label: 'склад консолидации' });
  await choose(page, 'город', stamp, city);
  await field(page, 'индекс').fill('310000');
  await saved(page);
  await expect(page).toHaveURL(/\/warehouse_point\/\d+$/);

  // a route from the city: the density table, then its product types and warehouses
  await page.goto('/logistic_route/-1');
  await field(page, 'название').fill(route);
  await field(page, 'тип').selectOption({ label: 'авиа' });
  await choose(page, 'оператор', 'Восточный', 'Восточный экспресс');
  await choose(page, 'город отправления', stamp, city);
  await field(page, 'срок от, дней').fill('5');
  await field(page, 'срок до, дней').fill('8');
  await page.getByRole('button', { name: 'добавить строку' }).click();
  await page.locator('#density_table-0-density_from').fill('0');
  await page.locator('#density_table-0-price').fill('9.50');
  await saved(page);
  await expect(page).toHaveURL(/\/logistic_route\/\d+$/);

  const types = page.getByTestId('links-logistic_route_logistic_product_type_link');
  await pick(page, types.getByRole('button', { name: 'добавить…' }), null, 'Электроника');
  await expect(types.getByRole('cell', { name: 'Электроника' })).toBeVisible();
  const warehouses = page.getByTestId('links-logistic_route_warehouse_point_link');
  for (const name of [warehouse, 'Москва, Южные ворота']) {
    await pick(page, warehouses.getByRole('button', { name: 'добавить…' }), name, name);
    await expect(warehouses.getByRole('cell', { name, exact: true })).toBeVisible();
  }

  // edit: activate it and lengthen the days; the history tells who changed what
  await field(page, 'состояние').selectOption({ label: 'активен' });
  await field(page, 'срок до, дней').fill('10');
  await saved(page);
  await page.getByRole('button', { name: 'история' }).click();
  const history = page.getByTestId('history');
  await expect(history.getByRole('row', { name: /состояние.*черновик → активен/ })).toBeVisible();
  await expect(history.getByRole('row', { name: /срок до, дней.*8 → 10/ })).toContainText('Администратор');
  await page.screenshot({ path: test.info().outputPath('route-history.png') });
  await page.keyboard.press('Escape');

  // the calculator: 10 kg in 0.05 m³ is 200 kg/m³ → 9.50 $/kg × 10 kg
  await page.goto('/logistic_route/widget');
  await choose(page, 'откуда (город в Китае)', stamp, city);
  await choose(page, 'склад прибытия', 'Южные', 'Москва, Южные ворота');
  await choose(page, 'тип товара', 'Электр', 'Электроника');
  await field(page, 'вес, кг').fill('10');
  await field(page, 'объём, м³').fill('0,05');
  await page.getByRole('button', { name: 'рассчитать' }).click();
  const quote = page.getByTestId('quote').filter({ hasText: route });
  await expect(quote).toContainText(/95,00\s\$/);
  await expect(quote).toContainText('5–10 дн.');
  await expect(quote).toContainText('Восточный экспресс');
  await page.screenshot({ path: test.info().outputPath('calculator.png') });
});

/** A country of this test's own with cities in it (admin calls), so that a filter by it lists exactly them. */
async function countryWithCities(page: Page, stamp: string, cities: string[]) {
  const country = await callAsPage(page, 'country_update', { id: -1, title: `Страна ${stamp}` });
  expect(country.message ?? null).toBeNull();
  for (const title of cities) {
    const city = await callAsPage(page, 'city_update', { id: -1, title, country_id: country.result.id });
    expect(city.message ?? null).toBeNull();
  }
  return country.result as { id: number; title: string };
}

test('the list sorts, filters, refuses a bad raw condition in words, and restores a deleted row', async ({
  page,
}) => {
  const stamp = Date.now().toString().slice(-6);
  await login(page, ADMIN);
  const cities = [`Вятка ${stamp}`, `Аргунь ${stamp}`, `Бийск ${stamp}`];
  const country = await countryWithCities(page, stamp, cities);
  await page.goto('/city');
  await page.getByRole('button', { name: 'фильтр', exact: true }).click();
  await page.getByRole('menuitem', { name: 'страна', exact: true }).click();
  await choose(page, 'страна', stamp, country.title, page.getByTestId('filter-panel'));
  await expect(page.getByTestId('document-row')).toHaveCount(3);
  await expect(page.getByRole('cell', { name: 'Гуанчжоу' })).toHaveCount(0);
  await page.getByRole('button', { name: 'сортировка' }).click();
  await page.getByRole('menuitem', { name: 'название ↑' }).click();
  await expect(page.getByTestId('document-row').first()).toContainText(`Аргунь ${stamp}`);
  await expect(page.getByTestId('document-row').last()).toContainText(`Вятка ${stamp}`);

  await page.getByRole('button', { name: 'фильтр', exact: true }).click();
  await page.getByRole('menuitem', { name: 'условие вручную' }).click();
  await field(page, 'условие вручную').fill("title = 'Москва' or 1=1");
  await page.getByRole('button', { name: 'применить' }).click();
  await expect(page.getByTestId('list-error')).toHaveText(
    'ошибка в условии фильтра: OR не поддерживается: условия соединяются только через AND',
  );
  await field(page, 'условие вручную').fill(`title like 'Вятка ${stamp}'`);
  await page.getByRole('button', { name: 'применить' }).click();
  await expect(page.getByTestId('document-row')).toHaveCount(1);

  // delete this test's city from its page, find it under the deleted toggle, restore it from the list
  await page.getByTestId('document-row').click();
  await expect(field(page, 'название')).toHaveValue(`Вятка ${stamp}`);
  await page.getByRole('button', { name: 'удалить' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'удалить' }).click();
  await expect(page.getByText('запись удалена')).toBeVisible();
  await page.goto('/city');
  await listSearch(page).fill(`Вятка ${stamp}`);
  await expect(list(page).getByText('ничего не найдено')).toBeVisible();
  await list(page).getByText('удалённые', { exact: true }).click();
  await list(page).getByRole('button', { name: 'восстановить' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'восстановить' }).click();
  await expect(page.getByText('запись восстановлена')).toBeVisible();
  await expect(list(page).getByText('ничего не найдено')).toBeVisible();
  await list(page).getByText('удалённые', { exact: true }).click();
  await expect(list(page).getByRole('cell', { name: `Вятка ${stamp}` })).toBeVisible();
});

test('back from an item restores the list: its search, sort and filter live in the URL; the sort button says which', async ({
  page,
}) => {
  await login(page, ADMIN);
  await page.goto('/city');
  await expect(page.getByTestId('list-sort')).toHaveText('сортировка: сначала новые');
  await listSearch(page).fill('а');
  await page.getByTestId('list-sort').click();
  await page.getByRole('menuitem', { name: 'название ↓' }).click();
  await expect(page.getByTestId('list-sort')).toHaveText('сортировка: название ↓');
  await page.getByRole('button', { name: 'фильтр', exact: true }).click();
  await page.getByRole('menuitem', { name: 'страна', exact: true }).click();
  // the rows are read once the filtered list has answered (not the list of a moment before)
  const filtered = page.waitForResponse(
    (r) => r.url().endsWith('/api/call_pg_func') && (r.request().postData() ?? '').includes('"country_id"'),
  );
  await choose(page, 'страна', 'Росс', 'Россия', page.getByTestId('filter-panel'));
  await filtered;
  await expect(page).toHaveURL(/q=/);
  await expect(page.getByTestId('list-count')).toContainText('запис');
  await expect(page.getByTestId('document-row').first()).toBeVisible();
  const rows = await page.getByTestId('document-row').allTextContents();
  expect(rows.length).toBeGreaterThan(0);

  const first = rows[0];
  await page.getByTestId('document-row').first().click();
  await expect(page).toHaveURL(/\/city\/\d+/);
  // Back once the item page is on screen (not while the list is still leaving)
  await expect(field(page, 'название')).toHaveValue(/\S/);
  await expect(list(page)).toHaveCount(0);
  expect(first).toContain(await field(page, 'название').inputValue());
  await page.goBack();
  await expect(listSearch(page)).toHaveValue('а');
  await expect(page.getByTestId('list-sort')).toHaveText('сортировка: название ↓');
  await expect(page.getByTestId('filter-panel')).toContainText('страна');
  await expect(page.getByTestId('document-row')).toHaveText(rows);
});

test('an operator sees only the operators folder, edits their operator, and a discount of 101 is refused', async ({
  page,
}) => {
  await login(page, OPERATOR);
  const menu = page.getByRole('navigation', { name: 'меню' });
  await expect(menu.locator('.bp6-menu-header')).toHaveText(['операторы']);
  await expect(menu.getByRole('menuitem')).toHaveText([
    'заказы',
    'позиции в заказах',
    'задачи',
    'отчёт по заказам',
    'операторы',
    'склады',
    'тарифы',
    'доп. услуги',
  ]);

  await menu.getByRole('menuitem', { name: 'операторы' }).click();
  await expect(page.getByTestId('document-row')).toHaveCount(1);
  await page.getByTestId('document-row').click();
  const before = await callAsPage(page, 'operator_get_by_id', { id: 1 });
  const discount = page.locator('#client_list-0-discount_buyout');
  await discount.fill('101');
  await expect(page.getByTestId('table-client_list')).toContainText('скидка не может быть больше 100%');
  await page.getByRole('button', { name: 'сохранить' }).click();
  await expect(page.getByText('скидка не может быть больше 100%').last()).toBeVisible();
  await field(page, 'телефон').fill('+8916123456');
  await page.getByRole('button', { name: 'сохранить' }).click();
  await expect(page.getByText('введите корректный номер').last()).toBeVisible();
  expect((await callAsPage(page, 'operator_get_by_id', { id: 1 })).result).toEqual(before.result);

  await discount.fill('7');
  await field(page, 'телефон').fill('+79160000007');
  await saved(page);
  expect((await callAsPage(page, 'operator_get_by_id', { id: 1 })).result).toMatchObject({
    phone: '+79160000007',
    client_list: [expect.objectContaining({ id: 1, discount_buyout: 7 }), expect.objectContaining({ id: 2 })],
  });
  expect(await callAsPage(page, 'operator_update', { id: 2, title: 'чужой' })).toMatchObject({ ok: false });
});

test('a client sees the client folder, uses the calculator, and cannot write directories', async ({
  page,
}) => {
  await login(page, CLIENT);
  const menu = page.getByRole('navigation', { name: 'меню' });
  await expect(menu.locator('.bp6-menu-header')).toHaveText(['клиент']);
  await expect(menu.getByRole('menuitem')).toHaveText([
    'заказы',
    'позиции в заказах',
    'задачи',
    'отчёт по заказам',
    'клиенты',
    'поставщики',
    'калькулятор',
  ]);
  await page.goto('/city');
  await expect(page.getByText('Страница не найдена')).toBeVisible();
  // their own client: delivery data editable, the rest and deletion are the back office's
  await page.goto('/client/1');
  await expect(field(page, 'название')).toBeDisabled();
  await expect(page.locator('#delivery_data_list-0-contact_name')).toBeEditable();
  await expect(page.getByRole('button', { name: 'удалить', exact: true })).toHaveCount(0);

  for (const [method, params, message] of [
    ['city_update', { id: 2, title: 'Кантон' }, 'действие доступно только администратору'],
    ['country_update', { id: -1, title: 'Атлантида' }, 'действие доступно только администратору'],
    [
      'logistic_route_update',
      { id: 1, state: 'archive' },
      'действие доступно только администратору или оператору',
    ],
    [
      'operator_update',
      { id: 1, title: 'Мой оператор' },
      'действие доступно только администратору или оператору',
    ],
    [
      'warehouse_point_update',
      { id: -1, title: 'Мой склад', type: 'arrival', city_id: 5 },
      'недостаточно прав для этого действия',
    ],
  ] as const)
    expect(await callAsPage(page, method, params)).toMatchObject({ ok: false, message });
  expect((await callAsPage(page, 'city_get_by_id', { id: 2 })).result.title).toBe('Гуанчжоу');

  await page.goto('/logistic_route/widget');
  await choose(page, 'откуда (город в Китае)', 'Иу');
  await choose(page, 'склад прибытия', 'Складочная', 'Москва, Складочная');
  await choose(page, 'тип товара', 'Игрушки');
  await field(page, 'вес, кг').fill('300');
  await field(page, 'объём, м³').fill('2');
  await page.getByRole('button', { name: 'рассчитать' }).click();
  // 150 kg/m³ on the train tariff: 2.50 $/kg × 300 kg
  await expect(page.getByTestId('quote')).toHaveCount(1);
  await expect(page.getByTestId('quote')).toContainText(/750,00\s\$/);
});

test('lookups fill a legal entity from its INN and a bank account from its BIK; an address has a map link', async ({
  page,
}) => {
  const stamp = Date.now().toString().slice(-6);
  await login(page, ADMIN);
  await page.goto('/legal_entity/-1');
  await field(page, 'ИНН').fill('5032123452');
  await page.getByRole('button', { name: 'найти компанию по ИНН или названию' }).click();
  await page.getByRole('menuitem', { name: /ООО «КАРГО ЛАЙН»/ }).click();
  const details = page.getByRole('dialog', { name: 'ООО «КАРГО ЛАЙН»' });
  await expect(details).toContainText('ликвидируется');
  await expect(details).toContainText('Орлов Сергей Петрович');
  await details.getByRole('button', { name: 'заполнить' }).click();
  await expect(field(page, 'название')).toHaveValue('ООО «КАРГО ЛАЙН»');
  await expect(field(page, 'КПП')).toHaveValue('503201001');
  await expect(field(page, 'руководитель')).toHaveValue('Орлов Сергей Петрович');
  await expect(page.getByLabel('показать на карте')).toHaveAttribute('href', /yandex\.ru\/maps/);
  // this run's own title, so that the account below picks this entity and no other run's
  const entity = `ООО «КАРГО ЛАЙН» ${stamp}`;
  await field(page, 'название').fill(entity);
  await saved(page);

  await page.goto('/bank_account/-1');
  await field(page, 'название').fill('Расчётный');
  await choose(page, 'юрлицо', stamp, entity);
  await field(page, 'расчётный счёт').fill('40702810400000000001');
  await field(page, 'БИК').fill('044525974');
  await page.getByRole('button', { name: 'найти банк по БИК' }).click();
  await page.getByRole('menuitem', { name: /ТБанк/ }).click();
  await expect(field(page, 'корр. счёт')).toHaveValue('30101810145250000974');
  await expect(field(page, 'банк')).toHaveValue('ТБАНК');
  await saved(page);
});

test('a package gets photos by upload and by link; a link that is no image is removed with its message', async ({
  page,
}) => {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  await login(page, ADMIN);
  // a package of this test's own: the photos below are the only ones it has
  const created = await callAsPage(page, 'package_description_update', {
    id: -1,
    title: `Уголок ${Date.now()}`,
  });
  expect(created.message ?? null).toBeNull();
  const id = created.result.id as number;
  await page.goto(`/package_description/${id}`);
  await page.getByLabel('загрузить фото…').setInputFiles([
    { name: 'уголок.png', mimeType: 'image/png', buffer: png },
    { name: 'уголок-2.png', mimeType: 'image/png', buffer: png },
  ]);
  await expect(page.getByTestId('image-item')).toHaveCount(2);
  await page
    .getByLabel('загрузить фото…')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
  await expect(
    page.getByText('допустимы только файлы с раширением: jpg, jpeg, png, gif, webp'),
  ).toBeVisible();
  const bad = `${new URL(page.url()).origin}/api/catalogue`;
  await field(page, 'ссылка на фото').fill(bad);
  await page.getByRole('button', { name: 'добавить по ссылке' }).click();
  await expect(page.getByText(`ошибка: url "${bad}" не является ссылкой на фото`)).toBeVisible();
  await expect(page.getByTestId('image-item')).toHaveCount(2);
  await page.getByTestId('image-item').nth(1).getByRole('button', { name: 'переместить влево' }).click();
  await saved(page);

  const stored = (await callAsPage(page, 'package_description_get_by_id', { id })).result.images;
  expect(stored.map((i: { name: string }) => i.name)).toEqual(['уголок-2.png', 'уголок.png']);
  const image = await page.request.get(stored[0].file);
  expect(image.headers()['content-type']).toBe('image/png');
});
