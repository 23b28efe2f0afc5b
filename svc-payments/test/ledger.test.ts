import { IDENTITY_HEADER, type Identity } from '@caravan/contracts';
import {
  callService,
  DEV_IDENTITY_SECRET,
  identityOf,
  signIdentity,
  startService,
  type RunningService,
} from '@caravan/service-kit';
import { postMovements } from '../src/domain/ledger';
import { paymentsService } from '../src/app';

/**
 * The wallet ledger (issue 11; docs/adr/0011-wallet-ledger.md): a balance changes only with a
 * fin_operation, under the wallet's lock; the sum of a wallet's movements is its balance; a balance
 * never goes negative; a retried transfer moves nothing twice; a client moves only their own money.
 */
const admin = identityOf({ user_id: 1, roles: ['admin'] });
const CLIENT = 901;
const client = identityOf({ user_id: 30, roles: ['client'], client_ids: [CLIENT] });
const stranger = identityOf({ user_id: 31, roles: ['client'], client_ids: [902] });
let svc: RunningService;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

beforeAll(async () => {
  svc = await startService(
    paymentsService({
      ...process.env,
      KAFKA_TOPIC_PREFIX: `${process.env.KAFKA_TOPIC_PREFIX ?? ''}payments-ledger-`,
    }),
  );
});
afterAll(() => svc?.stop());

const call = async (method: string, params: unknown, who: Identity = client) =>
  (await callService(svc.url, method, params, who)).body as { ok: boolean; result: Any; message?: string };
async function newWallet(title: string, clientId = CLIENT, currency_id = 2) {
  const reply = await call('wallet_update', { id: -1, title, client_id: clientId, currency_id }, admin);
  if (!reply.ok) throw new Error(reply.message);
  return reply.result.id as number;
}
/** Money arriving in a wallet (the acquirer's top-up path posts the same movement). */
async function credit(walletId: number, amount: string) {
  const wallets = svc.registry.entities.get('wallet')!;
  const operations = svc.registry.entities.get('fin_operation')!;
  await svc.db.transaction((trx) =>
    postMovements(trx, { identity: admin, outbox: svc.outbox, wallets, operations }, [
      { wallet_id: walletId, direction: 'in', amount, cause: 'top_up', type: 'manual', test: true },
    ]),
  );
}
const balance = async (walletId: number) =>
  (await svc.db('wallet').where({ id: walletId }).first('amount')).amount;
/** Σ in − Σ out of a wallet's fin_operations, and its newest balance after. */
async function ledgerOf(walletId: number) {
  const { rows } = await svc.db.raw(
    `select coalesce(sum(case direction when 'in' then amount else -amount end), 0)::numeric(14,2)::text as sum,
            count(*)::int as n,
            (select wallet_amount_after from fin_operation where wallet_id = ? order by id desc limit 1) as last
       from fin_operation where wallet_id = ?`,
    [walletId, walletId],
  );
  return rows[0] as { sum: string; n: number; last: string | null };
}
const transfer = (from: number, to: number, amount: string, who: Identity = client, key?: string) =>
  fetch(`${svc.url}/rpc`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [IDENTITY_HEADER]: signIdentity(who, process.env.IDENTITY_TOKEN_SECRET ?? DEV_IDENTITY_SECRET),
      ...(key ? { 'idempotency-key': key } : {}),
    },
    body: JSON.stringify({
      method: 'wallet_transfer',
      params: { sender_wallet_id: from, receiver_wallet_id: to, amount },
    }),
  }).then((r) => r.json() as Promise<{ ok: boolean; result: Any; message?: string }>);

describe('wallet_transfer', () => {
  it('moves money as two operations with the balances before and after; the ledger sums to the balance', async () => {
    const [main, spare] = [await newWallet('Основной'), await newWallet('Запасной')];
    await credit(main, '250.00');
    const reply = await transfer(main, spare, '100.50');
    expect(reply).toMatchObject({ ok: true, result: { message: 'переведено 100,50\u00a0₽' } });
    expect([await balance(main), await balance(spare)]).toEqual(['149.50', '100.50']);
    const ops = await svc.db('fin_operation').whereIn('wallet_id', [main, spare]).orderBy('id');
    expect(
      ops.map((o) => [
        o.wallet_id,
        o.direction,
        o.amount,
        o.wallet_amount_before,
        o.wallet_amount_after,
        o.cause,
      ]),
    ).toEqual([
      [main, 'in', '250.00', '0.00', '250.00', 'top_up'],
      [main, 'out', '100.50', '250.00', '149.50', 'transfer'],
      [spare, 'in', '100.50', '0.00', '100.50', 'transfer'],
    ]);
    expect(await ledgerOf(main)).toMatchObject({ sum: '149.50', last: '149.50' });
    // the client sees their operations in the list
    const list = await call('fin_operation_list', {
      where_param: [{ field: 'wallet_id', op: '=', value: spare }],
    });
    expect(list.result.items.map((o: Any) => [o.direction, o.amount])).toEqual([['in', '100.50']]);
  });

  it('refuses more than the balance, its own wallet, a stranger and a hand-written operation, moving nothing', async () => {
    const [main, spare] = [await newWallet('Основной'), await newWallet('Запасной')];
    await credit(main, '10.00');
    const before = await svc.db('fin_operation').whereIn('wallet_id', [main, spare]).orderBy('id');
    expect(await transfer(main, spare, '10.01')).toMatchObject({
      ok: false,
      message: 'на кошельке недостаточно средств: доступно 10,00\u00a0₽',
    });
    expect(await transfer(main, main, '1')).toMatchObject({
      ok: false,
      message: 'кошелёк отправителя и кошелёк получателя совпадают',
    });
    expect(await transfer(main, spare, '0')).toMatchObject({
      ok: false,
      message: expect.stringContaining('сумма должна быть больше 0'),
    });
    expect(await transfer(main, spare, '1', stranger)).toMatchObject({
      ok: false,
      message: 'запись не найдена',
    });
    const theirs = await newWallet('Чужой', 902);
    expect(await transfer(main, theirs, '1')).toMatchObject({ ok: false, message: 'запись не найдена' });
    expect(
      await call(
        'fin_operation_update',
        {
          id: -1,
          wallet_id: main,
          client_id: CLIENT,
          amount: '5',
          cause: 'top_up',
          direction: 'in',
          type: 'manual',
          datetime: 'x',
          wallet_amount_before: '0',
          wallet_amount_after: '5',
        },
        admin,
      ),
    ).toMatchObject({
      ok: false,
      message: 'финансовые операции создаются только пополнениями, переводами и оплатами',
    });
    expect(await call('wallet_update', { id: main, amount: '1000' }, admin)).toMatchObject({
      ok: false,
      message: "неизвестное поле 'amount'",
    });
    expect(await svc.db('fin_operation').whereIn('wallet_id', [main, spare]).orderBy('id')).toEqual(before);
    expect([await balance(main), await balance(spare)]).toEqual(['10.00', '0.00']);
  });

  it("an operator who reaches the client's wallets does not move the client's money", async () => {
    const operator = identityOf({ user_id: 32, roles: ['operator'], operator_ids: [77] });
    const main = await newWallet('Основной');
    const spare = await newWallet('Запасной');
    for (const id of [main, spare])
      expect(await call('wallet_update', { id, operator_id: 77 }, admin)).toMatchObject({ ok: true });
    await credit(main, '5.00');
    expect(await call('wallet_get_by_id', { id: main }, operator)).toMatchObject({ ok: true });
    expect(await transfer(main, spare, '1', operator)).toMatchObject({
      ok: false,
      message: 'недостаточно прав для этого действия',
    });
    expect([await balance(main), await balance(spare)]).toEqual(['5.00', '0.00']);
  });

  it('a retried transfer with the same Idempotency-Key moves the money once', async () => {
    const [main, spare] = [await newWallet('Основной'), await newWallet('Запасной')];
    await credit(main, '30.00');
    const key = `transfer-${Date.now()}`;
    const [first, second] = await Promise.all([
      transfer(main, spare, '20', client, key),
      transfer(main, spare, '20', client, key),
    ]);
    expect([first.ok, second.ok]).toEqual([true, true]);
    expect(await transfer(main, spare, '20', client, key)).toMatchObject({ ok: true });
    expect([await balance(main), await balance(spare)]).toEqual(['10.00', '20.00']);
    expect((await ledgerOf(spare)).n).toBe(1);
  });

  it('1,000 concurrent debits of 1 ₽ from a wallet of 100 ₽: exactly 100 pass, the balance is 0', async () => {
    const [main, spare] = [await newWallet('Основной'), await newWallet('Запасной')];
    await credit(main, '100.00');
    const replies = await Promise.all(Array.from({ length: 1000 }, () => transfer(main, spare, '1')));
    const passed = replies.filter((r) => r.ok).length;
    expect(passed).toBe(100);
    expect(new Set(replies.filter((r) => !r.ok).map((r) => r.message))).toEqual(
      new Set(['на кошельке недостаточно средств: доступно 0,00\u00a0₽']),
    );
    expect([await balance(main), await balance(spare)]).toEqual(['0.00', '100.00']);
    expect(await ledgerOf(main)).toMatchObject({ sum: '0.00', n: 101, last: '0.00' });
    expect(await ledgerOf(spare)).toMatchObject({ sum: '100.00', n: 100, last: '100.00' });
  }, 60_000);
});
