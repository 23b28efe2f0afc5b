import { listOf, locationNow, Refusal, renderInWorld, USERS, type Answers } from '@caravan/ui-kit/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { badgeText, NotificationCenter } from './Notifications';

/** The header bell, the drawer and the detail dialog (spec §2, §4), the gateway answered in-process. */
const notice = (over: Record<string, unknown> = {}) => ({
  id: 70,
  user_table_id: USERS.client.id,
  label: 'заказ отправлен в РФ',
  message: 'заказ 12 перешёл на этап «отправлен в РФ»',
  type: 'info',
  category: 'data_update',
  table_name: 'client_order',
  item_id: 12,
  is_read: false,
  read_at: null,
  options: { client_order_title: 'заказ 12', modification_type: 'stage', new_value: 'sent_to_ru' },
  deleted: false,
  created_at: '2026-11-24T09:05:00Z',
  updated_at: '2026-11-24T09:05:00Z',
  ...over,
});
const paid = () =>
  notice({
    id: 71,
    label: 'оплата получена',
    message: 'заказ 12: оплата товара 2 500,00 ₽',
    type: 'success',
    options: { modification_type: 'payment' },
  });

/** A server holding the client's notifications: the list answers the unread ones; marking reads them. */
function server(rows = [notice(), paid()]) {
  const unread = () => rows.filter((r) => !r.is_read);
  const answers: Answers = {
    notification_list: () => listOf(unread()),
    notification_mark_read: (p: { id: number }) => {
      const row = rows.find((r) => r.id === p.id);
      if (!row) return new Refusal('уведомление не найдено');
      row.is_read = true;
      return row;
    },
    notification_mark_all_read: () => {
      const n = unread().length;
      for (const r of rows) r.is_read = true;
      return { count: n, message: `отмечено прочитанными: ${n}` };
    },
    client_order_get_by_id: () => ({
      id: 12,
      title: 'заказ 12',
      stage: 'sent_to_ru',
      total_price_rur: '12500.00',
    }),
  };
  return { rows, answers };
}

const badge = () => screen.findByTestId('notification-badge');
const openDrawer = async () => {
  await userEvent.click(screen.getByTestId('notification-bell'));
  return screen.findByTestId('notification-drawer');
};

test("the bell counts the user's own unread notifications", async () => {
  const { answers } = server();
  const { gateway } = renderInWorld(<NotificationCenter user={USERS.client} />, {
    user: USERS.client,
    answers,
  });
  expect(await badge()).toHaveTextContent('2');
  // only the user's own, unread: an admin's drawer is theirs too, not the admin list
  expect(gateway.of('notification_list')[0]!.params).toMatchObject({
    where_param: [
      { field: 'user_table_id', op: '=', value: USERS.client.id },
      { field: 'is_read', op: '=', value: false },
    ],
  });
});

test('a notification read from the drawer leaves the list and the count drops; the last one takes the badge away', async () => {
  const { answers } = server();
  const { gateway } = renderInWorld(<NotificationCenter user={USERS.client} />, {
    user: USERS.client,
    answers,
  });
  expect(await badge()).toHaveTextContent('2');
  const drawer = await openDrawer();
  const items = await within(drawer).findAllByTestId('notification-item');
  expect(items.map((i) => i.querySelector('strong')?.textContent)).toEqual([
    'заказ отправлен в РФ',
    'оплата получена',
  ]);
  await userEvent.click(within(items[1]!).getByRole('button', { name: 'прочитано' }));
  await waitFor(() => expect(within(drawer).getAllByTestId('notification-item')).toHaveLength(1));
  expect(await badge()).toHaveTextContent('1');
  expect(gateway.of('notification_mark_read').map((c) => c.params)).toEqual([{ id: 71 }]);

  await userEvent.click(within(drawer).getByTestId('notification-read-all'));
  await waitFor(() => expect(screen.queryByTestId('notification-badge')).not.toBeInTheDocument());
  expect(within(drawer).getByText('нет непрочитанных уведомлений')).toBeInTheDocument();
  expect(gateway.of('notification_mark_all_read')).toHaveLength(1);
});

test('the detail dialog shows the order as it is now with its link, and marks the notification read', async () => {
  const { answers } = server();
  renderInWorld(<NotificationCenter user={USERS.client} />, { user: USERS.client, answers });
  const drawer = await openDrawer();
  await userEvent.click((await within(drawer).findAllByText('заказ отправлен в РФ'))[0]!);
  const dialog = await screen.findByRole('dialog', { name: /заказ отправлен в РФ/ });
  expect(within(dialog).getByTestId('notification-message')).toHaveTextContent(
    'заказ 12 перешёл на этап «отправлен в РФ»',
  );
  const order = within(dialog).getByTestId('notification-order');
  await waitFor(() => expect(order).toHaveTextContent('этап: отправлен в РФ'));
  expect(order).toHaveTextContent(/итого: 12\s500,00\s₽/);
  await userEvent.click(within(dialog).getByRole('button', { name: 'прочитано' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  expect(await badge()).toHaveTextContent('1');
});

test('the order link goes to the order card and closes the drawer', async () => {
  const { answers } = server();
  // the bell stays on every page, as in the header
  renderInWorld(<NotificationCenter user={USERS.client} />, { user: USERS.client, answers, path: '*' });
  const drawer = await openDrawer();
  await userEvent.click((await within(drawer).findAllByText('заказ отправлен в РФ'))[0]!);
  await userEvent.click(await screen.findByTestId('notification-open-order'));
  await waitFor(() => expect(locationNow()).toBe('/client_order/12'));
  await waitFor(() => expect(screen.queryByTestId('notification-drawer')).not.toBeInTheDocument());
});

test('a refusal to mark read is shown; the notification stays', async () => {
  const { answers } = server();
  renderInWorld(<NotificationCenter user={USERS.client} />, {
    user: USERS.client,
    answers: { ...answers, notification_mark_read: () => new Refusal('уведомление не найдено') },
  });
  const drawer = await openDrawer();
  const [first] = await within(drawer).findAllByTestId('notification-item');
  await userEvent.click(within(first!).getByRole('button', { name: 'прочитано' }));
  expect(await screen.findByText('уведомление не найдено')).toBeInTheDocument();
  expect(within(drawer).getAllByTestId('notification-item')).toHaveLength(2);
});

test('the badge shows 99+ beyond 99', () => {
  expect(badgeText(7)).toBe('7');
  expect(badgeText(99)).toBe('99');
  expect(badgeText(100)).toBe('99+');
});
