import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { listOf, locationNow, renderInWorld, USERS, type Answers } from '../testing';
import type { EntityView } from '../view';
import { EntityListPage } from './EntityListPage';

/** The spec's document list (§2, §9) over a directory of cities, the gateway answered in-process. */
const view: EntityView = {
  entity: 'city',
  title: 'pages.city',
  columns: [
    { key: 'title', label: 'название' },
    { key: 'code', label: 'код' },
  ],
  fields: [
    { name: 'title', label: 'название', kind: 'text' },
    { name: 'code', label: 'код', kind: 'text', confidential: true },
  ],
};
const CITIES = [
  { id: 3, title: 'Москва', code: 'MOW', deleted: false },
  { id: 2, title: 'Гуанчжоу', code: 'CAN', deleted: false },
];
/** city_list answers by its search and deleted flag, as the service would. */
const cities = (rows = CITIES): Answers => ({
  city_list: (p: { search?: string; deleted?: boolean }) =>
    listOf(
      rows.filter((r) => (p.search ? r.title.includes(p.search) : true) && r.deleted === Boolean(p.deleted)),
    ),
});

const list = (over: Parameters<typeof renderInWorld>[1] = {}) =>
  renderInWorld(<EntityListPage view={view} />, { url: '/city', answers: cities(), ...over });
const rows = () => screen.findAllByTestId('document-row');

test('shows the rows and their count, newest first, as one call of the list', async () => {
  const { gateway } = list();
  expect((await rows()).map((r) => r.textContent)).toEqual(['МоскваMOW', 'ГуанчжоуCAN']);
  expect(screen.getByTestId('list-count')).toHaveTextContent('2 записи');
  expect(screen.getByTestId('list-sort')).toHaveTextContent('сортировка: сначала новые');
  expect(gateway.of('city_list')).toHaveLength(1);
  expect(gateway.of('city_list')[0]!.params).toMatchObject({ deleted: false, per_page: 10 });
});

test('the search is sent once typing stops, kept in the URL, and says when nothing is found', async () => {
  const { gateway } = list();
  await rows();
  await userEvent.type(screen.getByRole('textbox', { name: 'поиск' }), 'Гуан');
  await waitFor(() => expect(screen.getAllByTestId('document-row')).toHaveLength(1));
  expect(screen.getByTestId('document-row')).toHaveTextContent('Гуанчжоу');
  // debounced: one call for the typed word, none for each letter
  expect(gateway.of('city_list').map((c) => c.params.search)).toEqual([undefined, 'Гуан']);
  await waitFor(() => expect(locationNow()).toBe(`/city?q=${encodeURIComponent('Гуан')}`));

  await userEvent.clear(screen.getByRole('textbox', { name: 'поиск' }));
  await userEvent.type(screen.getByRole('textbox', { name: 'поиск' }), 'Берлин');
  expect(await screen.findByText('ничего не найдено')).toBeInTheDocument();
  expect(screen.queryAllByTestId('document-row')).toHaveLength(0);
});

test('starts from the URL it is given: search, sort and the deleted rows (Back from an item restores them)', async () => {
  const { gateway } = list({
    url: '/city?q=%D0%9C%D0%BE%D1%81&sort=title+asc&deleted=1',
    path: '/city',
    answers: cities([{ ...CITIES[0]!, deleted: true }]),
  });
  expect(await rows()).toHaveLength(1);
  expect(screen.getByRole('textbox', { name: 'поиск' })).toHaveValue('Мос');
  expect(screen.getByTestId('list-sort')).toHaveTextContent('сортировка: название ↑');
  expect(screen.getByRole('checkbox', { name: 'удалённые' })).toBeChecked();
  expect(gateway.of('city_list')[0]!.params).toMatchObject({
    search: 'Мос',
    order_by: 'title asc',
    deleted: true,
  });
});

test('sorting by a column asks the server in that order and names it on the button', async () => {
  const { gateway } = list();
  await rows();
  await userEvent.click(screen.getByTestId('list-sort'));
  await userEvent.click(await screen.findByRole('menuitem', { name: 'название ↓' }));
  await waitFor(() => expect(screen.getByTestId('list-sort')).toHaveTextContent('сортировка: название ↓'));
  await waitFor(() => expect(gateway.of('city_list').at(-1)!.params.order_by).toBe('title desc'));
  await waitFor(() => expect(locationNow()).toContain('sort=title+desc'));
});

test('a non-admin is not offered a confidential column to sort by', async () => {
  list({ user: USERS.operator });
  await rows();
  await userEvent.click(screen.getByTestId('list-sort'));
  expect(await screen.findByRole('menuitem', { name: 'название ↑' })).toBeInTheDocument();
  expect(screen.queryByRole('menuitem', { name: /^код/ })).not.toBeInTheDocument();
});

test("a refused list shows the server's words instead of rows", async () => {
  list({
    answers: {
      city_list: () => {
        throw new Error(
          'ошибка в условии фильтра: OR не поддерживается: условия соединяются только через AND',
        );
      },
    },
  });
  expect(await screen.findByTestId('list-error')).toHaveTextContent(
    'ошибка в условии фильтра: OR не поддерживается: условия соединяются только через AND',
  );
  expect(screen.queryAllByTestId('document-row')).toHaveLength(0);
});

test('a deleted row is restored after its confirmation, and the list asks again', async () => {
  const deleted = [{ ...CITIES[1]!, deleted: true }];
  const saved: unknown[] = [];
  const { gateway } = list({
    url: '/city?deleted=1',
    path: '/city',
    answers: {
      ...cities(deleted),
      city_update: (p: { id: number; deleted: boolean }) => {
        saved.push(p);
        deleted[0]!.deleted = p.deleted;
        return { ...deleted[0], deleted: p.deleted };
      },
    },
  });
  const [row] = await rows();
  await userEvent.click(within(row!).getByRole('button', { name: 'восстановить' }));
  // nothing is written before the confirmation
  expect(saved).toEqual([]);
  const confirm = await screen.findByRole('alertdialog');
  expect(confirm).toHaveTextContent('Восстановить запись?');
  await userEvent.click(within(confirm).getByRole('button', { name: 'восстановить' }));
  await waitFor(() => expect(saved).toEqual([{ id: 2, deleted: false }]));
  expect(await screen.findByText('запись восстановлена')).toBeInTheDocument();
  await waitFor(() => expect(screen.queryAllByTestId('document-row')).toHaveLength(0));
  expect(gateway.of('city_update')[0]!.idempotencyKey).toMatch(/^[0-9a-f]{32}$/);
});

test('a row opens its item page', async () => {
  list({ path: '/city' });
  const [first] = await rows();
  await userEvent.click(first!);
  await waitFor(() => expect(locationNow()).toBe('/city/3'));
});

test('the add button opens a new item page', async () => {
  list({ path: '/city' });
  await rows();
  await userEvent.click(screen.getByRole('button', { name: 'добавить' }));
  await waitFor(() => expect(locationNow()).toBe('/city/-1'));
});
