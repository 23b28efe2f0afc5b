import { callService, eventually, identityOf, startService, type RunningService } from '@caravan/service-kit';
import { carriersService } from '../../svc-carriers/src/app';
import { paymentsService } from '../../svc-payments/src/app';
import { ordersService } from '../src/app';

/**
 * Who reaches a client (docs/access.md): a client names only their own legal entities (owned in
 * svc-payments, replicated here); an operator reads the clients an admin put on their list, and cannot
 * put one there themselves. Each refusal changes nothing.
 */
const admin = identityOf({ user_id: 1, roles: ['admin'] });
// topics and consumer groups of this file alone: a service another file stopped mid-join keeps no partition of ours
const ISOLATED = {
  ...process.env,
  KAFKA_TOPIC_PREFIX: `${process.env.KAFKA_TOPIC_PREFIX ?? ''}orders-access-`,
};
let carriers: RunningService;
let payments: RunningService;
let orders: RunningService;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
type Reply = { ok: boolean; result: Any; message?: string };

const call = async (svc: RunningService, method: string, params: unknown, who = admin) =>
  (await callService(svc.url, method, params, who)).body as Reply;
async function create(svc: RunningService, entity: string, fields: Record<string, unknown>, who = admin) {
  const reply = await call(svc, `${entity}_update`, { id: -1, ...fields }, who);
  if (!reply.ok) throw new Error(`${entity}: ${reply.message}`);
  return reply.result as Any;
}
const storedClient = (id: number) => orders.db('client').where({ id }).first();

let clientA: Any;
let clientB: Any;
const userOfA = () => identityOf({ user_id: 91, roles: ['client'], client_ids: [clientA.id] });

beforeAll(async () => {
  [carriers, payments, orders] = await Promise.all([
    startService(carriersService(ISOLATED)),
    startService(paymentsService(ISOLATED)),
    startService(ordersService(ISOLATED)),
  ]);
  await Promise.all([carriers.bus.ready, payments.bus.ready, orders.bus.ready]);
  clientA = await create(orders, 'client', { title: 'ООО «Ромашка»', type: 'company' });
  clientB = await create(orders, 'client', {
    title: 'ИП Соколов',
    delivery_data_list: [
      {
        title: 'Дом',
        type: 'address',
        address: 'г Москва, Ленинградский пр-кт, д 39',
        contact_name: 'Пётр Соколов',
        contact_phone: '+79161112233',
      },
    ],
  });
});
afterAll(async () => {
  await Promise.all([carriers?.stop(), payments?.stop(), orders?.stop()]);
});

describe("a client's legal entities", () => {
  let own: Any;
  let foreign: Any;

  beforeAll(async () => {
    own = await create(payments, 'legal_entity', {
      title: 'ООО «Ромашка»',
      inn: '7725012341',
      client_id: clientA.id,
    });
    foreign = await create(payments, 'legal_entity', {
      title: 'ИП Соколов П. А.',
      type: 'self',
      inn: '771234567859',
      client_id: clientB.id,
    });
    await eventually('the legal entities in svc-orders', async () => {
      const rows = await orders
        .db('replica')
        .where({ entity: 'legal_entity' })
        .whereIn('id', [own.id, foreign.id]);
      return rows.length === 2;
    });
  });

  it("refuses a client attaching another client's legal entity, and takes their own", async () => {
    expect(
      await call(
        orders,
        'client_update',
        { id: clientA.id, legal_entity_id: [own.id, foreign.id] },
        userOfA(),
      ),
    ).toEqual({ ok: false, result: null, message: 'можно указать только юрлица этого клиента' });
    expect((await storedClient(clientA.id)).legal_entity_id).toEqual([]);
    expect(
      await call(orders, 'client_update', { id: clientA.id, legal_entity_id: [own.id] }, userOfA()),
    ).toMatchObject({ ok: true, result: { legal_entity_id: [own.id] } });
    // nor can they take one over in svc-payments: it stays invisible to them
    expect(await call(payments, 'legal_entity_get_by_id', { id: foreign.id }, userOfA())).toMatchObject({
      ok: false,
      message: 'запись не найдена',
    });
  });
});

describe("an operator's client list decides which clients they read", () => {
  it("refuses an operator adding a foreign client to their list, so that client's delivery data stays unseen", async () => {
    const op = await create(carriers, 'operator', {
      title: 'Восточный экспресс',
      client_list: [{ id: clientA.id }],
    });
    const operatorUser = identityOf({ user_id: 92, roles: ['operator'], operator_ids: [op.id] });
    await eventually(
      'the operator in svc-orders',
      async () => (await call(orders, 'client_get_by_id', { id: clientA.id }, operatorUser)).ok,
    );
    expect(
      await call(
        carriers,
        'operator_update',
        { id: op.id, client_list: [{ id: clientA.id }, { id: clientB.id }] },
        operatorUser,
      ),
    ).toEqual({
      ok: false,
      result: null,
      message:
        'убрать клиента из списка оператора или добавить клиента без заказов у этого оператора может только администратор',
    });
    expect((await carriers.db('operator').where({ id: op.id }).first()).client_list).toEqual([
      expect.objectContaining({ id: clientA.id }),
    ]);
    expect(await call(orders, 'client_get_by_id', { id: clientB.id }, operatorUser)).toMatchObject({
      ok: false,
      message: 'запись не найдена',
    });
    const listed = (await call(orders, 'client_list', { per_page: 100 }, operatorUser)).result.items;
    expect(listed.map((c: Any) => c.id)).toEqual([clientA.id]);
    expect(JSON.stringify(listed)).not.toContain('Ленинградский');
  });
});

describe('what the client page may offer', () => {
  it('lets a client save their own client but not delete it, and an operator neither', async () => {
    expect((await call(orders, 'client_get_by_id', { id: clientA.id }, userOfA())).result._rights).toEqual({
      write: true,
      delete: false,
    });
    expect(await call(orders, 'client_update', { id: clientA.id, deleted: true }, userOfA())).toEqual({
      ok: false,
      result: null,
      message: 'действие доступно только администратору',
    });
    expect((await storedClient(clientA.id)).deleted).toBe(false);
    expect((await call(orders, 'client_get_by_id', { id: clientA.id })).result._rights).toEqual({
      write: true,
      delete: true,
    });
  });
});
