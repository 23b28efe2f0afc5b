import {
  ENTITY_TOPICS,
  isAdmin,
  MESSAGES,
  TASK_LABELS,
  TASK_MESSAGES,
  TASK_REQUIRED,
  TASK_TYPE_IDS,
  TASK_TYPES,
  task,
  TaskExecutorParams,
  TaskFinishParams,
  type Identity,
} from '@caravan/contracts';
import {
  BusinessError,
  ownsValues,
  registerEntity,
  titleOf,
  type Db,
  type EntityStore,
  type RuleContext,
  type ServiceKit,
} from '@caravan/service-kit';
import { knownUser, personName, staffOfOperator } from '../domain/people';

/** A task is reached through its order: the order's client and operator, kept on the task by triggers (080_task). */
const viaOrder = { client: 'task.client_id', operator: 'task.operator_id' };
const ORDER_OWNERS = { client: 'client_id', operator: 'operator_id' };

/** Written only by task_action_to_finished (and the triggers keeping the order's client and operator). */
const FINISH_COLUMNS = ['result', 'success_rate', 'finished_at', 'finished_by'] as const;

const TYPE_TITLE_SQL = `select t.title from (values ${TASK_TYPES.map(
  (t) => `(${t.id}, '${t.title.replace(/'/g, "''")}')`,
).join(', ')}) as t(id, title) where t.id = task.task_type_id`;

/** The order a task is set on, if the writer reaches it (else it does not exist for them). */
async function orderOf(trx: Db, identity: Identity, orderId: unknown) {
  const order = await trx('client_order')
    .where({ id: Number(orderId) })
    .first('id', 'client_id', 'operator_id', 'deleted');
  if (!order || (!isAdmin(identity) && !ownsValues(identity, ORDER_OWNERS, order))) return null;
  return order as { id: number; client_id: number; operator_id: number | null; deleted: boolean };
}

/** Spec §5: type, deadline and responsible are required ('Поле "{title}" не заполнено'); the order too. */
function assertRequired(next: Record<string, unknown>) {
  const missing = [...TASK_REQUIRED, 'table_id' as const].filter(
    (f) => next[f] === null || next[f] === undefined,
  );
  if (missing.length)
    throw new BusinessError(missing.map((f) => TASK_MESSAGES.required(TASK_LABELS[f])).join('; '));
}

/**
 * Task rules (docs/adr/0023): staff set tasks on orders they reach, for a staff member who reaches the
 * order too; the deadline lies ahead; the order and the author never change; a finished task is kept
 * as it was finished (it may still be deleted or restored). Only its author or an admin changes or
 * deletes it (`rowChangeRefusal` below).
 */
async function taskRules({ trx, identity, prev, next, given }: RuleContext) {
  if (prev) {
    const changed = Object.keys(given).filter((f) => f !== 'deleted');
    if (changed.length && prev.finished_at) throw new BusinessError(TASK_MESSAGES.finished);
    if ('table_id' in given || 'table_name' in given) throw new BusinessError(TASK_MESSAGES.orderFixed);
    if ('author_id' in given) throw new BusinessError(MESSAGES.accessDenied);
  } else if (next.author_id !== identity.user_id) throw new BusinessError(MESSAGES.accessDenied);
  assertRequired(next);
  if ('task_type_id' in given && !TASK_TYPE_IDS.includes(Number(next.task_type_id)))
    throw new BusinessError(TASK_MESSAGES.unknownType);
  if ('deadline' in given && new Date(String(next.deadline)).getTime() < Date.now())
    throw new BusinessError(TASK_MESSAGES.pastDeadline);
  const order = await orderOf(trx, identity, next.table_id);
  if (!order || (!prev && order.deleted)) throw new BusinessError(TASK_MESSAGES.orderMissing);
  if ('executor_id' in given) {
    const executor = Number(next.executor_id);
    const staff = await staffOfOperator(trx, order.operator_id);
    if (!staff.some((s) => s.id === executor))
      throw new BusinessError(
        (await knownUser(trx, executor)) ? TASK_MESSAGES.executorOutOfReach : TASK_MESSAGES.unknownExecutor,
      );
  }
}

/**
 * Tasks (product-core §3–§5): `task_list` / `_get_by_id` / `_history` for whoever reaches the order (a
 * client reads their orders' tasks), `task_update` for staff, `task_action_to_finished` for the
 * responsible, the author or an admin, `task_executor_list` for the create dialog.
 */
export function registerTask(kit: ServiceKit): EntityStore {
  const store: EntityStore = registerEntity(kit.registry, {
    contract: task,
    read: 'any',
    write: 'staff',
    readonlyColumns: [...FINISH_COLUMNS, 'client_id', 'operator_id'],
    readScope: viaOrder,
    writeScope: viaOrder,
    computed: {
      task_type_title: { sql: TYPE_TITLE_SQL, kind: 'text' },
      table_title: titleOf('task', 'table_id', 'client_order'),
      executor_title: personName('task.executor_id'),
      author_title: personName('task.author_id'),
      overdue: { sql: 'task.finished_at is null and task.deadline < now()', kind: 'boolean' },
    },
    createDefaults: (identity) => ({ author_id: identity.user_id }),
    // the responsible finishes a task (task_action_to_finished); handing it on or deleting it is the author's
    rowChangeRefusal: (identity, row) =>
      isAdmin(identity) || Number(row.author_id) === identity.user_id ? null : TASK_MESSAGES.mayNotChange,
    rules: taskRules,
    topic: ENTITY_TOPICS.task,
  });

  kit.registry
    .register({
      name: 'task_action_to_finished',
      params: TaskFinishParams,
      labels: task,
      access: 'staff',
      handler: (ctx, p) =>
        ctx.db.transaction(async (trx) => {
          const locked = await trx('task').where({ id: p.id }).forUpdate().first('id');
          // the generic read applies the reader's reach: another operator's task does not exist for them
          if (!locked) throw new BusinessError(MESSAGES.notFound);
          await store.get(trx, ctx.identity, p.id);
          const row = await trx('task').select(store.stored).where({ id: p.id }).first();
          if (row.deleted) throw new BusinessError(TASK_MESSAGES.deleted);
          if (row.finished_at) throw new BusinessError(TASK_MESSAGES.alreadyFinished);
          const { user_id } = ctx.identity;
          if (!isAdmin(ctx.identity) && row.executor_id !== user_id && row.author_id !== user_id)
            throw new BusinessError(TASK_MESSAGES.mayNotFinish);
          const finished = {
            result: p.result,
            success_rate: p.success_rate,
            finished_at: new Date().toISOString(),
            finished_by: user_id,
          };
          await store.changeMany(trx, ctx.identity, ctx.outbox, [row], () => finished);
          return store.get(trx, ctx.identity, p.id);
        }),
    })
    .register({
      name: 'task_executor_list',
      params: TaskExecutorParams,
      access: 'staff',
      readOnly: true,
      handler: async (ctx, p) => {
        const order = await orderOf(ctx.db, ctx.identity, p.table_id);
        if (!order) throw new BusinessError(TASK_MESSAGES.orderMissing);
        return staffOfOperator(ctx.db, order.operator_id);
      },
    });
  return store;
}
