import { Button, HTMLSelect, Tag } from '@blueprintjs/core';
import {
  formatDisplayDateTime,
  isOverdue,
  TASK_LABELS,
  TASK_MESSAGES,
  TASK_TYPES,
  task,
  type Task,
} from '@caravan/contracts';
import {
  fieldsOf,
  ID_COLUMN,
  TaskFinishDialog,
  useCurrentUser,
  userIsAdmin,
  userIsStaff,
  useTaskExecutorsQuery,
  type EntityView,
  type FieldInputProps,
  type SectionContext,
} from '@caravan/ui-kit';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

const L = TASK_LABELS;
const typeOptions = TASK_TYPES.map((t) => ({ value: String(t.id), label: t.title }));

/** The deadline, red with 'просрочена' when an open task is past it. */
export function Deadline({ row }: { row: Pick<Task, 'deadline' | 'finished_at'> & { overdue?: boolean } }) {
  const { t } = useTranslation();
  const late = row.overdue ?? isOverdue(row);
  return (
    <span
      className={late ? 'caravan-task-overdue' : undefined}
      data-testid={late ? 'task-overdue' : undefined}
    >
      {formatDisplayDateTime(row.deadline)}{' '}
      {late && (
        <Tag intent="danger" minimal>
          {t('tasks.overdue')}
        </Tag>
      )}
    </span>
  );
}

/** The type: one of TASK_TYPES, kept as its number id. */
function TypeSelect({ value, onChange, disabled, id }: FieldInputProps) {
  const { t } = useTranslation();
  return (
    <HTMLSelect
      id={id}
      fill
      disabled={disabled}
      value={value ? String(value) : ''}
      onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}
    >
      <option value="">{t('common.choose')}</option>
      {typeOptions.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </HTMLSelect>
  );
}

/** The responsible: one of the staff who reach the task's order (task_executor_list). */
function ExecutorSelect({ value, values, onChange, disabled, id }: FieldInputProps) {
  const { t } = useTranslation();
  const orderId = Number(values.table_id);
  const executors = useTaskExecutorsQuery(
    { table_name: 'client_order', table_id: orderId },
    { skip: !orderId || disabled },
  );
  const known = executors.data ?? [];
  return (
    <HTMLSelect
      id={id}
      fill
      disabled={disabled}
      value={value ? String(value) : ''}
      onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}
    >
      <option value="">{t('common.choose')}</option>
      {value && !known.some((u) => u.id === value) ? (
        <option value={String(value)}>{String(values.executor_title ?? `#${String(value)}`)}</option>
      ) : null}
      {known.map((u) => (
        <option key={u.id} value={String(u.id)}>
          {u.fullname}
        </option>
      ))}
    </HTMLSelect>
  );
}

/** The task card's header: its order, who set it, its state, and the finish button (the finish dialog). */
function TaskHeader({ values }: SectionContext) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const [finishing, setFinishing] = useState(false);
  const row = values as unknown as Task;
  const mayFinish =
    userIsStaff(user) &&
    !row.finished_at &&
    !row.deleted &&
    (userIsAdmin(user) || row.executor_id === user?.id || row.author_id === user?.id);
  return (
    <div className="caravan-order-section">
      <p>
        {L.table_title}:{' '}
        <Link to={`/client_order/${row.table_id}`}>{row.table_title || `№${row.table_id}`}</Link>
        {' · '}
        {L.author_title}: {row.author_title ?? '—'}
        {' · '}
        <Deadline row={row} />
      </p>
      {row.finished_at ? (
        <p data-testid="task-result">
          <Tag intent="success">{t('tasks.finished')}</Tag> {formatDisplayDateTime(row.finished_at)} —{' '}
          {row.result} · {TASK_MESSAGES.successRate(row.success_rate ?? 0)}
        </p>
      ) : null}
      {mayFinish && (
        <Button intent="success" icon="tick" onClick={() => setFinishing(true)} data-testid="task-finish">
          {t('tasks.finish')}
        </Button>
      )}
      <TaskFinishDialog task={finishing ? row : null} onClose={() => setFinishing(false)} />
    </div>
  );
}

const open = { field: 'finished_at', op: 'is_null' as const };
const mine = (id: number | undefined) => ({ field: 'executor_id', op: '=' as const, value: id ?? 0 });

/**
 * Tasks (product-core §3–§5, issue 19): each user's list — staff see the tasks they are responsible
 * for first, overdue ones marked; a client sees the open tasks of their orders. Tasks are set from the
 * order card; the card of a task finishes it.
 */
export const taskView: EntityView = {
  entity: 'task',
  title: 'pages.task',
  canCreate: () => false,
  canEdit: (user, values) => userIsStaff(user) && !values.finished_at,
  canDelete: userIsStaff,
  columns: [
    ID_COLUMN,
    { key: 'task_type_title', label: L.task_type_title },
    {
      key: 'table_title',
      label: L.table_title,
      render: (row) => (row.table_title as string) || `№${String(row.table_id)}`,
    },
    { key: 'executor_title', label: L.executor_title },
    {
      key: 'deadline',
      label: L.deadline,
      render: (row) => <Deadline row={row as unknown as Task} />,
    },
    { key: 'content', label: L.content },
    {
      key: 'success_rate',
      label: L.success_rate,
      render: (row) => (row.finished_at ? String(row.success_rate) : ''),
    },
  ],
  filters: fieldsOf(task, {
    deadline: { kind: 'datetime' },
    created_at: { kind: 'datetime', label: 'создана' },
  }),
  sort: ['id', 'deadline', 'created_at', 'task_type_id'],
  scopes: [
    {
      key: 'mine',
      label: 'tasks.scope.mine',
      // a client is no task's responsible: their orders' open tasks
      where: (user) => (userIsStaff(user) ? [mine(user?.id), open] : [open]),
    },
    {
      key: 'authored',
      label: 'tasks.scope.authored',
      where: (user) => [{ field: 'author_id', op: '=', value: user?.id ?? 0 }],
    },
    {
      key: 'finished',
      label: 'tasks.scope.finished',
      where: (user) => [
        ...(userIsStaff(user) ? [mine(user?.id)] : []),
        { field: 'finished_at', op: 'not_null' },
      ],
    },
    { key: 'all', label: 'tasks.scope.all', where: () => [] },
  ],
  itemTitle: (v) => `${String(v.task_type_title || TASK_LABELS.task_type_id)} №${String(v.id)}`,
  header: (ctx) => <TaskHeader {...ctx} />,
  fields: fieldsOf(task, {
    task_type_id: { kind: 'custom', required: true, render: (props) => <TypeSelect {...props} /> },
    deadline: { kind: 'datetime', required: true },
    executor_id: { kind: 'custom', required: true, render: (props) => <ExecutorSelect {...props} /> },
    content: { kind: 'textarea', wide: true },
  }),
};
