import { callService, eventually, identityOf, startService, type RunningService } from '@caravan/service-kit';
import { carriersService } from '../../svc-carriers/src/app';
import { paymentsService } from '../src/app';

/**
 * Wallet ownership (ARCHITECTURE §5, docs/access.md): the holes found by trying, each refused with a
 * message and changing nothing. Operators and their client lists come from svc-carriers (replicas).
 */
const admin = identityOf({ user_id: 1, roles: ['admin'] });
// topics and consumer groups of this file alone: a service another file stopped mid-join keeps no partition of ours
const ISOLATED = {
  ...process.env,
  KAFKA_TOPIC_PREFIX: `${process.env.KAFKA_TOPIC_PREFIX ?? ''}payments-ownership-`,
};
let carriers: RunningService;
let payments: RunningService;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const call = async (method: string, params: unknown, who = admin) =>
  (await callService(payments.url, method, params, who)).body as {
    ok: boolean;
    result: Any;
    message?: string;
  };
const stored = (id: number) =>
  payments.db('wallet').where({ id }).first('client_id', 'operator_id', 'currency_id', 'amount', 'deleted');

// clients live in svc-orders: for svc-payments they are ids
const CLIENT_A = 7101;
const CLIENT_B = 7102;
let operatorA: number;
let operatorB: number;
const clientUser = () => identityOf({ user_id: 71, roles: ['client'], client_ids: [CLIENT_A] });
const operatorUser = () => identityOf({ user_id: 72, roles: ['operator'], operator_ids: [operatorA] });

async function createOperator(title: string, clientId: number) {
  const reply = await callService(
    carriers.url,
    'operator_update',
    { id: -1, title, client_list: [{ id: clientId }] },
    admin,
  );
  return (reply.body.result as { id: number }).id;
}
async function createWallet(fields: Record<string, unknown>, who = admin) {
  const reply = await call('wallet_update', { id: -1, title: 'Кошелёк', ...fields }, who);
  if (!reply.ok) throw new Error(reply.message);
  return reply.result.id as number;
}
/** Money arrives through fin operations (the payments work); here the balance is set as a top-up would. */
const fund = (id: number, amount: string) => payments.db('wallet').where({ id }).update({ amount });

beforeAll(async () => {
  [carriers, payments] = await Promise.all([
    startService(carriersService(ISOLATED)),
    startService(paymentsService(ISOLATED)),
  ]);
  await Promise.all([carriers.bus.ready, payments.bus.ready]);
  operatorA = await createOperator('Восточный экспресс', CLIENT_A);
  operatorB = await createOperator('Шёлковый путь', CLIENT_B);
  await eventually('the operators in svc-payments', async () => {
    const n = await payments
      .db('replica')
      .where({ entity: 'operator' })
      .whereIn('id', [operatorA, operatorB]);
    return n.length === 2;
  });
});
afterAll(async () => {
  await Promise.all([carriers?.stop(), payments?.stop()]);
});

describe('a funded wallet keeps its owners and currency', () => {
  it("refuses an operator handing a client's funded wallet to another client", async () => {
    const id = await createWallet({ client_id: CLIENT_A, operator_id: operatorA });
    await fund(id, '500.00');
    expect(await call('wallet_update', { id, client_id: CLIENT_B }, operatorUser())).toEqual({
      ok: false,
      result: null,
      message: 'у кошелька с деньгами клиент и оператор не меняются: переведите деньги в другой кошелёк',
    });
    // not even an admin relabels money: it moves by a transfer
    expect(await call('wallet_update', { id, client_id: CLIENT_B })).toMatchObject({
      ok: false,
      message: 'у кошелька с деньгами клиент и оператор не меняются: переведите деньги в другой кошелёк',
    });
    expect(await stored(id)).toEqual({
      client_id: CLIENT_A,
      operator_id: operatorA,
      currency_id: 2,
      amount: '500.00',
      deleted: false,
    });
    expect(await call('wallet_get_by_id', { id }, clientUser())).toMatchObject({ ok: true });
  });

  it('refuses an operator moving even an empty wallet to another client; an admin may', async () => {
    const id = await createWallet({ client_id: CLIENT_A, operator_id: operatorA });
    expect(await call('wallet_update', { id, client_id: CLIENT_B }, operatorUser())).toMatchObject({
      ok: false,
      message: 'клиента кошелька меняет только администратор, и только у пустого кошелька',
    });
    expect((await stored(id)).client_id).toBe(CLIENT_A);
    expect(await call('wallet_update', { id, client_id: CLIENT_B, operator_id: operatorB })).toMatchObject({
      ok: true,
      result: { client_id: CLIENT_B, operator_id: operatorB },
    });
  });

  it('refuses changing the currency of a funded wallet with its balance kept', async () => {
    const id = await createWallet({ client_id: CLIENT_A, operator_id: operatorA, currency_id: 2 });
    await fund(id, '15000.00');
    for (const who of [clientUser(), operatorUser(), admin])
      expect(await call('wallet_update', { id, currency_id: 1 }, who)).toMatchObject({
        ok: false,
        message: 'у кошелька с деньгами валюта не меняется: переведите деньги в кошелёк нужной валюты',
      });
    expect(await stored(id)).toMatchObject({ currency_id: 2, amount: '15000.00' });
    // an empty wallet may change its currency
    const empty = await createWallet({ client_id: CLIENT_A, operator_id: operatorA, currency_id: 2 });
    expect(await call('wallet_update', { id: empty, currency_id: 1 }, clientUser())).toMatchObject({
      ok: true,
      result: { currency_id: 1 },
    });
  });
});

describe("a wallet's operator serves its client", () => {
  it('refuses a client setting an operator not serving them, and that operator sees nothing', async () => {
    const id = await createWallet({ client_id: CLIENT_A, operator_id: operatorA });
    expect(await call('wallet_update', { id, operator_id: operatorB }, clientUser())).toEqual({
      ok: false,
      result: null,
      message: 'этот оператор не обслуживает клиента кошелька',
    });
    expect((await stored(id)).operator_id).toBe(operatorA);
    const strangerOperator = identityOf({ user_id: 73, roles: ['operator'], operator_ids: [operatorB] });
    expect(await call('wallet_get_by_id', { id }, strangerOperator)).toMatchObject({
      ok: false,
      message: 'запись не найдена',
    });
    // their own operator, chosen again after none, is fine
    expect(await call('wallet_update', { id, operator_id: null }, clientUser())).toMatchObject({ ok: true });
    expect(await call('wallet_update', { id, operator_id: operatorA }, clientUser())).toMatchObject({
      ok: true,
      result: { operator_id: operatorA },
    });
  });

  it('refuses creating a wallet that pairs a client with an operator not serving them', async () => {
    const before = await payments.db('wallet').count({ n: '*' }).first();
    expect(
      await call(
        'wallet_update',
        { id: -1, title: 'Чужой', client_id: CLIENT_A, operator_id: operatorB },
        clientUser(),
      ),
    ).toMatchObject({ ok: false, message: 'этот оператор не обслуживает клиента кошелька' });
    expect(
      await call(
        'wallet_update',
        { id: -1, title: 'Чужой', client_id: CLIENT_B, operator_id: operatorA },
        operatorUser(),
      ),
    ).toMatchObject({ ok: false, message: 'этот оператор не обслуживает клиента кошелька' });
    expect(await payments.db('wallet').count({ n: '*' }).first()).toEqual(before);
    await createWallet({ client_id: CLIENT_A, operator_id: operatorA }, operatorUser());
  });

  it('answers in the item what its reader may do: the owner saves and deletes, nobody else', async () => {
    const id = await createWallet({ client_id: CLIENT_A, operator_id: operatorA });
    expect((await call('wallet_get_by_id', { id }, clientUser())).result._rights).toEqual({
      write: true,
      delete: true,
    });
    expect((await call('wallet_get_by_id', { id })).result._rights).toEqual({ write: true, delete: true });
  });
});
