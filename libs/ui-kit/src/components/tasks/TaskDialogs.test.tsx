import { TASK_MESSAGES } from '@caravan/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Refusal, renderInWorld, USERS } from '../../testing';
import { TaskCreateDialog } from './TaskCreateDialog';
import { TaskFinishDialog } from './TaskFinishDialog';

const executors = () => [
  { id: 3, fullname: 'Ли Вэй', roles: ['operator'] },
  { id: 1, fullname: 'Администратор', roles: ['admin'] },
];

describe('the task-create dialog', () => {
  const open = (answers: Record<string, (p: never) => unknown> = {}) =>
    renderInWorld(<TaskCreateDialog isOpen onClose={() => {}} tableId={7} />, {
      user: USERS.operator,
      answers: { task_executor_list: executors, ...answers },
    });

  it('names each empty required field in the spec’s words and sends nothing', async () => {
    const { gateway } = open();
    await userEvent.click(screen.getByTestId('task-create-submit'));
    for (const title of ['тип', 'срок', 'ответственный'])
      expect(await screen.findByText(`Поле "${title}" не заполнено`)).toBeInTheDocument();
    expect(gateway.of('task_update')).toHaveLength(0);
  });

  it('offers the order’s staff as responsible and sets the task with what was chosen', async () => {
    const { gateway } = open({ task_update: (p: { id: number }) => ({ ...(p as object), id: 41 }) });
    const executor = screen.getByLabelText(/ответственный/);
    await waitFor(() => expect(screen.getByRole('option', { name: 'Ли Вэй' })).toBeInTheDocument());
    expect(gateway.of('task_executor_list')[0]!.params).toEqual({ table_name: 'client_order', table_id: 7 });
    await userEvent.selectOptions(screen.getByLabelText(/тип/), 'связаться с клиентом');
    fireEvent.change(screen.getByLabelText(/срок/), { target: { value: '01-03-2049 10:30' } });
    await userEvent.selectOptions(executor, 'Ли Вэй');
    await userEvent.type(screen.getByLabelText(/содержание/), 'уточнить адрес');
    await userEvent.click(screen.getByTestId('task-create-submit'));
    await waitFor(() => expect(gateway.of('task_update')).toHaveLength(1));
    expect(gateway.of('task_update')[0]!.params).toEqual({
      id: -1,
      table_name: 'client_order',
      table_id: 7,
      task_type_id: 3,
      deadline: new Date(2049, 2, 1, 10, 30).toISOString(),
      executor_id: 3,
      content: 'уточнить адрес',
    });
    expect(await screen.findByText(TASK_MESSAGES.createdToast)).toBeInTheDocument();
  });

  it('shows the service’s refusal as it comes', async () => {
    open({ task_update: () => new Refusal(TASK_MESSAGES.pastDeadline) });
    await waitFor(() => expect(screen.getByRole('option', { name: 'Ли Вэй' })).toBeInTheDocument());
    await userEvent.selectOptions(screen.getByLabelText(/тип/), 'прочее');
    fireEvent.change(screen.getByLabelText(/срок/), { target: { value: '01-03-2049 10:30' } });
    await userEvent.selectOptions(screen.getByLabelText(/ответственный/), 'Администратор');
    await userEvent.click(screen.getByTestId('task-create-submit'));
    expect(await screen.findByText(TASK_MESSAGES.pastDeadline)).toBeInTheDocument();
  });
});

describe('the task-finish dialog', () => {
  const task = { id: 41, task_type_title: 'связаться с клиентом', content: 'уточнить адрес' };

  it('labels the success rate “Оценка успешности: {n}”, 0..10 in steps of 1, and sends it with the result', async () => {
    const { gateway } = renderInWorld(<TaskFinishDialog task={task} onClose={() => {}} />, {
      user: USERS.operator,
      answers: { task_action_to_finished: (p: object) => ({ ...p, finished_at: '2026-01-01T00:00:00Z' }) },
    });
    expect(screen.getByText('Оценка успешности: 5')).toBeInTheDocument();
    const handle = screen.getByRole('slider', { name: 'оценка успешности' });
    expect(handle).toHaveAttribute('aria-valuemin', '0');
    expect(handle).toHaveAttribute('aria-valuemax', '10');
    for (let i = 0; i < 7; i++) fireEvent.keyDown(handle, { key: 'ArrowRight', which: 39, keyCode: 39 });
    expect(screen.getByText('Оценка успешности: 10')).toBeInTheDocument();
    fireEvent.keyDown(handle, { key: 'ArrowLeft', which: 37, keyCode: 37 });
    expect(screen.getByText('Оценка успешности: 9')).toBeInTheDocument();

    await userEvent.click(screen.getByTestId('task-finish-submit'));
    expect(await screen.findByText('Поле "результат" не заполнено')).toBeInTheDocument();
    expect(gateway.of('task_action_to_finished')).toHaveLength(0);

    await userEvent.type(screen.getByLabelText(/результат/), 'адрес подтверждён');
    await userEvent.click(screen.getByTestId('task-finish-submit'));
    await waitFor(() => expect(gateway.of('task_action_to_finished')).toHaveLength(1));
    expect(gateway.of('task_action_to_finished')[0]!.params).toEqual({
      id: 41,
      result: 'адрес подтверждён',
      success_rate: 9,
    });
    expect(await screen.findByText(TASK_MESSAGES.finishedToast)).toBeInTheDocument();
  });
});
