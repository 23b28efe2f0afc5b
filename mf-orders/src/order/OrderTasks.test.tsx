import { listOf, renderInWorld, USERS } from '@caravan/ui-kit/testing';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OrderTasks } from './OrderTasks';

const task = (id: number, fields: Record<string, unknown>) => ({
  id,
  task_type_id: 3,
  task_type_title: 'связаться с клиентом',
  table_name: 'client_order',
  table_id: 7,
  table_title: 'заказ 7',
  executor_id: USERS.operator.id,
  executor_title: 'Оператор',
  author_id: USERS.admin.id,
  author_title: 'Администратор',
  deadline: '2049-03-01T10:00:00Z',
  content: 'уточнить адрес',
  result: null,
  success_rate: null,
  finished_at: null,
  overdue: false,
  deleted: false,
  created_at: '2026-01-01T00:00:00Z',
  ...fields,
});
const tasks = [
  task(1, { deadline: '2026-01-02T10:00:00Z', overdue: true, content: 'позвонить' }),
  task(2, { executor_id: 99, executor_title: 'Другой оператор', author_id: 98, content: 'чужая' }),
  task(3, { finished_at: '2026-01-03T10:00:00Z', result: 'готово', success_rate: 8, content: 'сделано' }),
];

test("the order's tasks: overdue marked, finished with their rate; the responsible may finish their own", async () => {
  const { gateway } = renderInWorld(<OrderTasks orderId={7} />, {
    user: USERS.operator,
    answers: { task_list: () => listOf(tasks), task_executor_list: () => [] },
  });
  const rows = await screen.findAllByTestId('order-task');
  expect(gateway.of('task_list')[0]!.params.where_param).toEqual([
    { field: 'table_name', op: '=', value: 'client_order' },
    { field: 'table_id', op: '=', value: 7 },
  ]);
  expect(within(rows[0]!).getByTestId('task-overdue')).toHaveTextContent('просрочена');
  expect(within(rows[1]!).queryByTestId('task-overdue')).not.toBeInTheDocument();
  expect(within(rows[0]!).getByTestId('order-task-finish')).toBeInTheDocument();
  expect(within(rows[1]!).queryByTestId('order-task-finish')).not.toBeInTheDocument();
  expect(within(rows[2]!).getByTestId('order-task-finished')).toHaveTextContent(
    'готово · Оценка успешности: 8',
  );

  await userEvent.click(within(rows[0]!).getByTestId('order-task-finish'));
  expect(
    await screen.findByRole('dialog', { name: 'завершение задачи: связаться с клиентом' }),
  ).toHaveTextContent('позвонить');
  await userEvent.click(screen.getByTestId('order-task-create'));
  expect(await screen.findByRole('dialog', { name: 'новая задача' })).toBeInTheDocument();
});

test('a client reads the tasks of their order but neither sets nor finishes them', async () => {
  renderInWorld(<OrderTasks orderId={7} />, {
    user: USERS.client,
    answers: { task_list: () => listOf(tasks) },
  });
  expect(await screen.findAllByTestId('order-task')).toHaveLength(3);
  expect(screen.queryByTestId('order-task-finish')).not.toBeInTheDocument();
  expect(screen.queryByTestId('order-task-create')).not.toBeInTheDocument();
});
