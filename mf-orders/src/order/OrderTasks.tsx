import { Button, Card, H5, HTMLTable, Tag } from '@blueprintjs/core';
import { TASK_LABELS, TASK_MESSAGES, type Task } from '@caravan/contracts';
import {
  baseApi,
  TaskCreateDialog,
  TaskFinishDialog,
  useCurrentUser,
  useDocumentListQuery,
  userIsAdmin,
  userIsStaff,
  useServerEvents,
  type AppStore,
} from '@caravan/ui-kit';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { Link } from 'react-router-dom';
import { Deadline } from '../views/task';

const L = TASK_LABELS;

/**
 * The order's tasks on its card (issue 19): type, deadline (overdue ones marked), responsible, what
 * to do and, once finished, the result and success rate. Staff set a task (the create dialog) and
 * finish their own (the finish dialog); a client reads them. Live: another user's task appears at once.
 */
export function OrderTasks({ orderId }: { orderId: number }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const dispatch = useDispatch<AppStore['dispatch']>();
  const [creating, setCreating] = useState(false);
  const [finishing, setFinishing] = useState<Task | null>(null);
  const tasks = useDocumentListQuery({
    entity: 'task',
    params: {
      where_param: [
        { field: 'table_name', op: '=', value: 'client_order' },
        { field: 'table_id', op: '=', value: orderId },
      ],
      order_by: 'deadline asc',
      per_page: 100,
    },
  });
  useServerEvents('client_order_item', orderId, (e) => {
    if ((e as { entity?: string }).entity === 'task')
      dispatch(baseApi.util.invalidateTags([{ type: 'Entity', id: 'task' }]));
  });
  const staff = userIsStaff(user);
  const mayFinish = (task: Task) =>
    staff &&
    !task.finished_at &&
    (userIsAdmin(user) || task.executor_id === user?.id || task.author_id === user?.id);
  const rows = (tasks.data?.items ?? []) as unknown as Task[];
  return (
    <Card className="caravan-order-section" data-testid="order-tasks">
      <H5>{t('tasks.title')}</H5>
      {rows.length ? (
        <HTMLTable compact striped>
          <thead>
            <tr>
              <th>{L.task_type_title}</th>
              <th>{L.deadline}</th>
              <th>{L.executor_title}</th>
              <th>{L.content}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((task) => (
              <tr key={task.id} data-testid="order-task">
                <td>
                  <Link to={`/task/${task.id}`}>{task.task_type_title}</Link>
                </td>
                <td>
                  <Deadline row={task} />
                </td>
                <td>{task.executor_title}</td>
                <td>{task.content}</td>
                <td>
                  {task.finished_at ? (
                    <span data-testid="order-task-finished">
                      <Tag intent="success" minimal>
                        {t('tasks.finished')}
                      </Tag>{' '}
                      {task.result} · {TASK_MESSAGES.successRate(task.success_rate ?? 0)}
                    </span>
                  ) : mayFinish(task) ? (
                    <Button
                      size="small"
                      icon="tick"
                      onClick={() => setFinishing(task)}
                      data-testid="order-task-finish"
                    >
                      {t('tasks.finish')}
                    </Button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      ) : (
        <p>{tasks.isFetching ? t('common.loading') : t('tasks.none')}</p>
      )}
      {staff && (
        <Button icon="add" onClick={() => setCreating(true)} data-testid="order-task-create">
          {t('tasks.create')}
        </Button>
      )}
      <TaskCreateDialog isOpen={creating} onClose={() => setCreating(false)} tableId={orderId} />
      <TaskFinishDialog task={finishing} onClose={() => setFinishing(null)} />
    </Card>
  );
}
