import { EntityListPage } from '@caravan/ui-kit';
import { listOf, renderInWorld, USERS } from '@caravan/ui-kit/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import '../routes';
import { notificationView } from './notification';

/** The admin list /notification (spec §2): everyone's notifications; a row opens the detail dialog. */
const row = (over: Record<string, unknown>) => ({
  id: 80,
  user_table_id: 2,
  label: 'заказ вручён получателю',
  message: 'заказ 12 перешёл на этап «вручён получателю»',
  type: 'success',
  category: 'data_update',
  table_name: 'client_order',
  item_id: 12,
  is_read: false,
  read_at: null,
  options: { client_order_title: 'заказ 12' },
  deleted: false,
  created_at: '2026-11-24T09:05:00Z',
  updated_at: '2026-11-24T09:05:00Z',
  ...over,
});
const ROWS = [
  row({}),
  row({
    id: 79,
    user_table_id: 3,
    label: 'позиция не поступила на склад консолидации',
    message: '«Рюкзак» из заказа 12 ожидалась на складе консолидации 20-11-2026, но ещё не получена',
    type: 'warning',
    category: 'consolidation_receive_missing',
    is_read: true,
  }),
];
const answers = {
  notification_list: () => listOf(ROWS),
  // the gateway's user record: the list names a user by their email
  user_get_by_id: (p: { id: number }) => ({
    id: p.id,
    email: p.id === 2 ? 'client@caravan.local' : 'operator@caravan.local',
    first_name: '',
    last_name: '',
  }),
  client_order_get_by_id: () => ({
    id: 12,
    title: 'заказ 12',
    stage: 'client_received',
    total_price_rur: null,
  }),
};

test("lists every user's notifications with whose, what kind and whether read", async () => {
  renderInWorld(<EntityListPage view={notificationView} />, {
    url: '/notification',
    answers,
    user: USERS.admin,
  });
  const rows = await screen.findAllByTestId('document-row');
  expect(rows).toHaveLength(2);
  await waitFor(() => expect(rows[0]).toHaveTextContent('client@caravan.local'));
  expect(rows[0]).toHaveTextContent('заказ вручён получателю');
  expect(rows[0]).toHaveTextContent('изменение данных');
  expect(rows[1]).toHaveTextContent('не поступило на склад консолидации');
  expect(rows[1]).toHaveTextContent('предупреждение');
  expect(screen.queryByRole('button', { name: 'добавить' })).not.toBeInTheDocument();
});

test('a row opens the detail dialog: whose it is, the order and its link; an admin does not mark it read', async () => {
  renderInWorld(<EntityListPage view={notificationView} />, {
    url: '/notification',
    answers,
    user: USERS.admin,
  });
  const [first] = await screen.findAllByTestId('document-row');
  await userEvent.click(first!);
  const dialog = await screen.findByRole('dialog', { name: /заказ вручён получателю/ });
  await waitFor(() => expect(dialog).toHaveTextContent('получатель: client@caravan.local'));
  expect(within(dialog).getByTestId('notification-order')).toHaveTextContent('заказ: заказ 12');
  await waitFor(() =>
    expect(within(dialog).getByTestId('notification-order')).toHaveTextContent('этап: вручён получателю'),
  );
  expect(within(dialog).queryByRole('button', { name: 'прочитано' })).not.toBeInTheDocument();
  await userEvent.click(within(dialog).getByTestId('notification-open-order'));
  expect(await screen.findByTestId('elsewhere')).toBeInTheDocument();
});

test('the admin menu lists it for admins only', async () => {
  const routes = (await import('../routes')).default;
  expect(routes.find((r) => r.path === 'notification')).toMatchObject({ folder: 'admin', roles: ['admin'] });
});
