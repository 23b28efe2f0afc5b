import { ENTITY_TOPICS, MESSAGES, TASK_MESSAGES, type Identity } from '@caravan/contracts';
import { startPeople } from './people';
import { ordersWorld, refused, type Any, type OrdersWorld } from './support';

/**
 * Tasks on orders (issue 19, docs/adr/0023): staff set them for staff who reach the order, the
 * responsible finishes them with a result and a success rate 0..10; the spec's refusals change
 * nothing; a client reads their orders' tasks; another client or operator neither reads nor writes.
 */
const PREFIX = 'tasks';
let world: OrdersWorld;
let people: Awaited<ReturnType<typeof startPeople>>;
let order: Any;
let who: Record<'admin' | 'clientA' | 'clientB' | 'operatorA' | 'operatorA2' | 'operatorB', Identity>;

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const taskCount = async () => Number((await world.orders.db('task').count('* as n').first())!.n);

beforeAll(async () => {
  world = await ordersWorld(PREFIX);
  people = await startPeople(world.orders, `${process.env.KAFKA_TOPIC_PREFIX ?? ''}${PREFIX}-`);
  const { person } = people;
  who = {
    admin: people.admin,
    clientA: await person(['Ирина', 'Клиентова'], 'client', { client_id: world.clientA.id }),
    clientB: await person(['Пётр', 'Чужой'], 'client', { client_id: world.clientB.id }),
    operatorA: await person(['Ли', 'Вэй'], 'operator', { operator_id: world.opA.id }),
    operatorA2: await person(['Ван', 'Фан'], 'operator', { operator_id: world.opA.id }),
    // serves client A too, but the order is operator A's
    operatorB: await person(['Чжан', 'Мин'], 'operator', { operator_id: world.opB.id }),
  };
  order = await world.draftOrder();
});
afterAll(async () => {
  await people?.stop();
  await world?.stop();
});

const newTask = (fields: Record<string, unknown> = {}) => ({
  id: -1,
  task_type_id: 3,
  table_name: 'client_order',
  table_id: order.id,
  executor_id: who.operatorA.user_id,
  deadline: inDays(2),
  content: 'позвонить клиенту насчёт доставки',
  ...fields,
});

describe('creating a task', () => {
  it('sets a task on the order for a staff member of its operator, published with who may see it', async () => {
    const reply = await world.call('task_update', newTask(), who.operatorA2);
    expect(reply.ok).toBe(true);
    const task = reply.result;
    expect(task).toMatchObject({
      task_type_id: 3,
      task_type_title: 'связаться с клиентом',
      table_title: order.title,
      executor_id: who.operatorA.user_id,
      executor_title: 'Ли Вэй',
      author_id: who.operatorA2.user_id,
      author_title: 'Ван Фан',
      overdue: false,
      result: null,
      success_rate: null,
      finished_at: null,
    });
    const outbox = await world.orders
      .db('outbox')
      .where({ topic: ENTITY_TOPICS.task, key: String(task.id) })
      .first();
    expect(outbox.event.data.row).toMatchObject({ client_id: world.clientA.id, operator_id: world.opA.id });
  });

  it('refuses a task without type, deadline and responsible in the words of the spec, and stores nothing', async () => {
    const before = await taskCount();
    const reply = await world.call(
      'task_update',
      newTask({ task_type_id: null, deadline: null, executor_id: null }),
      who.operatorA,
    );
    expect(reply).toEqual(
      refused('Поле "тип" не заполнено; Поле "срок" не заполнено; Поле "ответственный" не заполнено'),
    );
    expect(await taskCount()).toBe(before);
  });

  it.each([
    ['a deadline in the past', { deadline: inDays(-1) }, TASK_MESSAGES.pastDeadline],
    ['an unknown type', { task_type_id: 99 }, TASK_MESSAGES.unknownType],
    ['a deadline that is no date', { deadline: '31-02-2026' }, TASK_MESSAGES.badDeadline],
    ['an unknown responsible', { executor_id: 987654 }, TASK_MESSAGES.unknownExecutor],
  ])('refuses %s, storing nothing', async (_what, fields, message) => {
    const before = await taskCount();
    expect(await world.call('task_update', newTask(fields), who.operatorA)).toEqual(refused(message));
    expect(await taskCount()).toBe(before);
  });

  it('refuses a responsible who does not reach the order: a client, another operator', async () => {
    const before = await taskCount();
    for (const executor of [who.clientA, who.operatorB])
      expect(
        await world.call('task_update', newTask({ executor_id: executor.user_id }), who.operatorA),
      ).toEqual(refused(TASK_MESSAGES.executorOutOfReach));
    expect(await taskCount()).toBe(before);
  });

  it('refuses a client, and an operator who does not reach the order', async () => {
    const before = await taskCount();
    expect(await world.call('task_update', newTask(), who.clientA)).toEqual(refused(MESSAGES.staffOnly));
    expect(await world.call('task_update', newTask(), who.operatorB)).toEqual(
      refused(TASK_MESSAGES.orderMissing),
    );
    expect(await taskCount()).toBe(before);
  });

  it('refuses the author given as someone else', async () => {
    const before = await taskCount();
    expect(
      await world.call('task_update', newTask({ author_id: who.operatorA2.user_id }), who.operatorA),
    ).toEqual(refused(MESSAGES.accessDenied));
    expect(await taskCount()).toBe(before);
  });

  it('offers as responsible the admins and the users of the order’s operator only', async () => {
    const reply = await world.call(
      'task_executor_list',
      { table_name: 'client_order', table_id: order.id },
      who.operatorA,
    );
    expect(reply.ok).toBe(true);
    const offered = reply.result as Any[];
    const ids = offered.map((u) => u.id);
    expect(ids).toEqual(
      expect.arrayContaining([who.admin.user_id, who.operatorA.user_id, who.operatorA2.user_id]),
    );
    for (const stranger of [who.clientA, who.clientB, who.operatorB])
      expect(ids).not.toContain(stranger.user_id);
    // besides operator A's users only admins (the gateway's seeded one too)
    const operatorAUsers = [who.operatorA.user_id, who.operatorA2.user_id];
    expect(offered.every((u) => operatorAUsers.includes(u.id) || u.roles.includes('admin'))).toBe(true);
    expect(offered.find((u) => u.id === who.operatorA.user_id)).toEqual({
      id: who.operatorA.user_id,
      fullname: 'Ли Вэй',
      roles: ['operator'],
    });
    expect(await world.call('task_executor_list', { table_id: order.id }, who.operatorB)).toEqual(
      refused(TASK_MESSAGES.orderMissing),
    );
    expect(await world.call('task_executor_list', { table_id: order.id }, who.clientA)).toEqual(
      refused(MESSAGES.staffOnly),
    );
  });
});

describe('who reaches a task', () => {
  let task: Any;
  beforeAll(async () => {
    task = (await world.call('task_update', newTask({ content: 'проверить фото' }), who.operatorA)).result;
  });

  const listed = async (identity: Identity) =>
    ((await world.call('task_list', { per_page: 100 }, identity)).result.items as Any[]).map((t) => t.id);

  it('the order’s client reads it; another client and another operator do not', async () => {
    expect(await listed(who.clientA)).toContain(task.id);
    expect((await world.call('task_get_by_id', { id: task.id }, who.clientA)).ok).toBe(true);
    for (const stranger of [who.clientB, who.operatorB]) {
      expect(await listed(stranger)).not.toContain(task.id);
      expect(await world.call('task_get_by_id', { id: task.id }, stranger)).toEqual(
        refused(MESSAGES.notFound),
      );
      expect(await world.call('task_history', { id: task.id }, stranger)).toEqual(refused(MESSAGES.notFound));
    }
  });

  it('another operator can neither change, delete nor finish it; the row stays as it was', async () => {
    const before = await world.stored('task', task.id);
    expect(await world.call('task_update', { id: task.id, content: 'чужое' }, who.operatorB)).toEqual(
      refused(MESSAGES.notFound),
    );
    expect(await world.call('task_update', { id: task.id, deleted: true }, who.operatorB)).toEqual(
      refused(MESSAGES.notFound),
    );
    expect(
      await world.call(
        'task_action_to_finished',
        { id: task.id, result: 'готово', success_rate: 5 },
        who.operatorB,
      ),
    ).toEqual(refused(MESSAGES.notFound));
    expect(await world.stored('task', task.id)).toEqual(before);
  });

  it('a client may not change or finish their order’s task', async () => {
    const before = await world.stored('task', task.id);
    expect(await world.call('task_update', { id: task.id, content: 'моё' }, who.clientA)).toEqual(
      refused(MESSAGES.staffOnly),
    );
    expect(
      await world.call(
        'task_action_to_finished',
        { id: task.id, result: 'готово', success_rate: 5 },
        who.clientA,
      ),
    ).toEqual(refused(MESSAGES.staffOnly));
    expect(await world.stored('task', task.id)).toEqual(before);
  });

  it('its responsible finishes it but neither hands it on nor deletes it; the author and an admin may', async () => {
    // set by operator A2 for operator A
    const given = (await world.call('task_update', newTask({ content: 'сверить вес' }), who.operatorA2))
      .result;
    const before = await world.stored('task', given.id);
    // the responsible (operator A) tries to hand it back to its author, to reword it, to delete it
    for (const change of [{ executor_id: who.operatorA2.user_id }, { content: 'не буду' }, { deleted: true }])
      expect(await world.call('task_update', { id: given.id, ...change }, who.operatorA)).toEqual(
        refused(TASK_MESSAGES.mayNotChange),
      );
    expect(await world.stored('task', given.id)).toEqual(before);
    // what the task's card offers the responsible follows the same rule
    const seen = await world.call('task_get_by_id', { id: given.id }, who.operatorA);
    expect(seen.result._rights).toEqual({ write: false, delete: false });
    const authors = await world.call('task_get_by_id', { id: given.id }, who.operatorA2);
    expect(authors.result._rights).toEqual({ write: true, delete: true });

    const reworded = await world.call(
      'task_update',
      { id: given.id, content: 'сверить вес и объём' },
      who.operatorA2,
    );
    expect(reworded.result.content).toBe('сверить вес и объём');
    const deleted = await world.call('task_update', { id: given.id, deleted: true }, who.admin);
    expect(deleted.result.deleted).toBe(true);
  });

  it('a result is given only by finishing: the save names the field, not its internal name', async () => {
    const before = await world.stored('task', task.id);
    expect(
      await world.call(
        'task_update',
        { id: task.id, result: 'готово', finished_at: inDays(0) },
        who.operatorA,
      ),
    ).toEqual(refused(`${MESSAGES.readOnlyField('результат')}, ${MESSAGES.readOnlyField('завершена')}`));
    expect(await world.stored('task', task.id)).toEqual(before);
  });

  it('the task stays on its order', async () => {
    const other = await world.draftOrder();
    expect(await world.call('task_update', { id: task.id, table_id: other.id }, who.operatorA)).toEqual(
      refused(TASK_MESSAGES.orderFixed),
    );
    expect((await world.stored('task', task.id)).table_id).toBe(order.id);
  });
});

describe('finishing a task', () => {
  let task: Any;
  beforeAll(async () => {
    task = (await world.call('task_update', newTask({ content: 'выкупить' }), who.operatorA2)).result;
  });
  const finish = (params: Record<string, unknown>, identity: Identity) =>
    world.call('task_action_to_finished', { id: task.id, ...params }, identity);

  it.each([
    ['a success rate above 10', { result: 'ок', success_rate: 11 }, TASK_MESSAGES.successRateRange],
    ['a success rate below 0', { result: 'ок', success_rate: -1 }, TASK_MESSAGES.successRateRange],
    ['a success rate between the steps', { result: 'ок', success_rate: 7.5 }, TASK_MESSAGES.successRateRange],
    ['no result', { result: '  ', success_rate: 7 }, 'Поле "результат" не заполнено'],
  ])('refuses %s, leaving the task open', async (_what, params, message) => {
    expect(await finish(params, who.operatorA)).toEqual(refused(message));
    expect(await world.stored('task', task.id)).toMatchObject({
      finished_at: null,
      result: null,
      success_rate: null,
    });
  });

  it('refuses a staff member who is neither its responsible nor its author', async () => {
    const other = await world.call(
      'task_update',
      newTask({ executor_id: who.operatorA2.user_id }),
      who.operatorA2,
    );
    expect(
      await world.call(
        'task_action_to_finished',
        { id: other.result.id, result: 'ок', success_rate: 3 },
        who.operatorA,
      ),
    ).toEqual(refused(TASK_MESSAGES.mayNotFinish));
    expect((await world.stored('task', other.result.id)).finished_at).toBeNull();
  });

  it('the responsible finishes it with a result and a success rate; then it is kept as finished', async () => {
    const reply = await finish({ result: 'клиент подтвердил адрес', success_rate: 8 }, who.operatorA);
    expect(reply.ok).toBe(true);
    expect(reply.result).toMatchObject({
      result: 'клиент подтвердил адрес',
      success_rate: 8,
      finished_by: who.operatorA.user_id,
      overdue: false,
    });
    expect(reply.result.finished_at).toBeTruthy();
    const finished = await world.stored('task', task.id);
    expect(await finish({ result: 'ещё раз', success_rate: 1 }, who.operatorA)).toEqual(
      refused(TASK_MESSAGES.alreadyFinished),
    );
    expect(await world.call('task_update', { id: task.id, content: 'другое' }, who.operatorA2)).toEqual(
      refused(TASK_MESSAGES.finished),
    );
    expect(await world.stored('task', task.id)).toEqual(finished);
    const history = await world.call('task_history', { id: task.id }, who.clientA);
    expect(history.result.map((h: Any) => h.type)).toEqual(
      expect.arrayContaining(['result', 'success_rate', 'finished_at']),
    );
  });
});

describe('the responsible’s list', () => {
  it('lists their open tasks by deadline and marks the overdue ones', async () => {
    const late = (await world.call('task_update', newTask({ deadline: inDays(1) }), who.admin)).result;
    // the deadline passes
    await world.orders
      .db('task')
      .where({ id: late.id })
      .update({ deadline: new Date(Date.now() - 60_000) });
    const reply = await world.call(
      'task_list',
      {
        where_param: [
          { field: 'executor_id', op: '=', value: who.operatorA.user_id },
          { field: 'finished_at', op: 'is_null' },
        ],
        order_by: 'deadline asc',
      },
      who.operatorA,
    );
    expect(reply.ok).toBe(true);
    const items = reply.result.items as Any[];
    expect(items[0]).toMatchObject({ id: late.id, overdue: true });
    expect(items.slice(1).every((t) => t.overdue === false && t.finished_at === null)).toBe(true);
    expect(items.every((t) => t.executor_id === who.operatorA.user_id)).toBe(true);
  });
});
