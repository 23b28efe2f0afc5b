import { z } from 'zod';
import { isIsoDateTime } from '../dates';
import { specMessage } from '../validation';
import { defineEntityContract, type BaseRow } from './common';

/**
 * Tasks (product-core §3, §4, §5; docs/adr/0023): a staff member sets a task on an order for a staff
 * member who reaches it (type, deadline, responsible and content), who finishes it with a result and
 * a success rate 0..10. The spec names no task types: these are ours, kept here so the dialog and the
 * service agree on them.
 */
export const TASK_TYPES = [
  { id: 1, title: 'проверить позиции' },
  { id: 2, title: 'выкупить товар' },
  { id: 3, title: 'связаться с клиентом' },
  { id: 4, title: 'уточнить доставку' },
  { id: 5, title: 'дополнительные фото' },
  { id: 6, title: 'прочее' },
] as const;
export const TASK_TYPE_IDS = TASK_TYPES.map((t) => t.id) as readonly number[];
export const taskTypeTitle = (id: number | null | undefined) =>
  TASK_TYPES.find((t) => t.id === id)?.title ?? '';

/** What a task may be set on: an order (the card shows its tasks). */
export const TASK_TABLES = ['client_order'] as const;
export type TaskTable = (typeof TASK_TABLES)[number];

export const SUCCESS_RATE_MIN = 0;
export const SUCCESS_RATE_MAX = 10;

export const TASK_LABELS = {
  task_type_id: 'тип',
  task_type_title: 'тип',
  table_name: 'объект',
  table_id: 'заказ',
  table_title: 'заказ',
  executor_id: 'ответственный',
  executor_title: 'ответственный',
  deadline: 'срок',
  content: 'содержание',
  result: 'результат',
  success_rate: 'оценка успешности',
  author_id: 'автор',
  author_title: 'автор',
  finished_at: 'завершена',
  finished_by: 'завершил',
  overdue: 'просрочена',
} as const;

export const TASK_MESSAGES = {
  /** Spec §5: task create — type, deadline, responsible required. */
  required: (title: string) => specMessage(`Поле "${title}" не заполнено`),
  /** Spec §5: the finish dialog's slider label. */
  successRate: (n: number) => `Оценка успешности: ${n}`,
  successRateRange: 'оценка успешности — целое число от 0 до 10',
  badDeadline: 'срок: ожидается дата и время ДД-ММ-ГГГГ ЧЧ:мм между 1900 и 2050 годом',
  pastDeadline: 'срок задачи уже прошёл: укажите срок в будущем',
  unknownType: 'тип задачи: нет такого типа',
  unknownExecutor: 'ответственный: нет такого пользователя',
  executorOutOfReach: 'ответственным может быть только администратор или оператор этого заказа',
  orderMissing: 'заказ задачи не найден',
  orderFixed: 'задачу нельзя перенести на другой заказ',
  finished: 'задача завершена: изменить её нельзя',
  alreadyFinished: 'задача уже завершена',
  deleted: 'задача удалена',
  mayNotFinish: 'завершить задачу может её ответственный, автор или администратор',
  mayNotChange: 'изменить или удалить задачу может её автор или администратор; ответственный её завершает',
  finishedToast: 'задача завершена',
  createdToast: 'задача поставлена',
} as const;

/** A deadline on the wire: a full ISO timestamp within 1900–2050 (shown as DD-MM-YYYY HH:mm). */
const Deadline = z
  .string()
  .transform((v) => (v.trim() === '' ? null : v.trim()))
  .refine((v) => v === null || isIsoDateTime(v), specMessage(TASK_MESSAGES.badDeadline));

export const task = defineEntityContract({
  name: 'task',
  title: 'задачи',
  // required fields are nullable here and checked by the service with the spec's own message
  fields: z.strictObject({
    task_type_id: z.number().int().nullable().default(null),
    table_name: z.enum(TASK_TABLES).default('client_order'),
    table_id: z.number().int().positive().nullable().default(null),
    executor_id: z.number().int().positive().nullable().default(null),
    deadline: Deadline.nullable().default(null),
    content: z.string().trim().max(4000).default(''),
    // set by the service to the writer on create; never changed
    author_id: z.number().int().positive().nullable().default(null),
  }),
  labels: TASK_LABELS,
  required: [],
  searchFields: ['content'],
  refs: { table_id: 'client_order' },
});
export type Task = BaseRow &
  z.infer<typeof task.fields> & {
    task_type_title: string;
    table_title: string | null;
    executor_title: string | null;
    author_title: string | null;
    result: string | null;
    success_rate: number | null;
    finished_at: string | null;
    finished_by: number | null;
    overdue: boolean;
  };

/** The fields the create dialog requires (spec §5), in the dialog's order. */
export const TASK_REQUIRED = ['task_type_id', 'deadline', 'executor_id'] as const;

/** Spec §4: a task is finished with a result and a success rate 0..10 in steps of 1. */
export const TaskFinishParams = z.strictObject({
  id: z.number().int().positive(),
  result: z
    .string()
    .trim()
    .max(4000)
    .refine((v) => v !== '', specMessage(TASK_MESSAGES.required(TASK_LABELS.result))),
  success_rate: z
    .number()
    .int(specMessage(TASK_MESSAGES.successRateRange))
    .min(SUCCESS_RATE_MIN, specMessage(TASK_MESSAGES.successRateRange))
    .max(SUCCESS_RATE_MAX, specMessage(TASK_MESSAGES.successRateRange)),
});
export type TaskFinishParams = z.infer<typeof TaskFinishParams>;

/** Who may be a task's responsible on one object: the staff who reach it. */
export const TaskExecutorParams = z.strictObject({
  table_name: z.enum(TASK_TABLES).default('client_order'),
  table_id: z.number().int().positive(),
});
export type TaskExecutor = { id: number; fullname: string; roles: string[] };

/** Is an open task past its deadline? (the list marks it) */
export const isOverdue = (t: { deadline: string | null; finished_at: string | null }, now = new Date()) =>
  !t.finished_at && t.deadline !== null && new Date(t.deadline).getTime() < now.getTime();
