import { ENTITY_TOPICS, EVENT_TYPES, IDENTITY_HEADER, type Identity } from '@caravan/contracts';
import {
  callService,
  DEV_IDENTITY_SECRET,
  identityOf,
  signIdentity,
  startService,
  type EntityStore,
  type RunningService,
} from '@caravan/service-kit';
import { paymentsService } from '../src/app';
import { LedgerBatcher, postMovements } from '../src/domain/ledger';

/**
 * The ledger in one statement (docs/adr/0027-ledger-in-one-round-trip.md): the database function
 * writes the movements' and the balances' history and events as the entity store writes any other
 * row's — the store's columns, numeric as text, times as JavaScript's ISO strings, the same envelope —
 * so the browser's stream, the replicas and the history page cannot tell them apart.
 */
const admin = identityOf({ user_id: 1, fullname: 'Админ', roles: ['admin'] });
const CLIENT = 911;
const client = identityOf({ user_id: 40, fullname: 'Клиент', roles: ['client'], client_ids: [CLIENT] });
let svc: RunningService;
let wallets: EntityStore;
let operations: EntityStore;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

beforeAll(async () => {
  svc = await startService(
    paymentsService({
      ...process.env,
      KAFKA_TOPIC_PREFIX: `${process.env.KAFKA_TOPIC_PREFIX ?? ''}payments-ledger-post-`,
    }),
  );
  await svc.bus.ready;
  wallets = svc.registry.entities.get('wallet')!;
  operations = svc.registry.entities.get('fin_operation')!;
});
afterAll(() => svc?.stop());

async function newWallet(title: string) {
  const reply = (await callService(svc.url, 'wallet_update', { id: -1, title, client_id: CLIENT }, admin))
    .body as { ok: boolean; result: Any; message?: string };
  if (!reply.ok) throw new Error(reply.message);
  return reply.result.id as number;
}
const transfer = (from: number, to: number, amount: string, who: Identity, key: string) =>
  fetch(`${svc.url}/rpc`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [IDENTITY_HEADER]: signIdentity(who, process.env.IDENTITY_TOKEN_SECRET ?? DEV_IDENTITY_SECRET),
      'idempotency-key': key,
    },
    body: JSON.stringify({
      method: 'wallet_transfer',
      params: { sender_wallet_id: from, receiver_wallet_id: to, amount, comment: 'на резерв' },
    }),
  }).then((r) => r.json() as Promise<{ ok: boolean; result: Any; message?: string }>);

/** A stored row as the entity store puts it into an event: its stored columns, through JSON. */
async function storedRow(store: EntityStore, id: number) {
  const row = await svc.db(store.table).select(store.stored).where({ id }).first();
  return JSON.parse(JSON.stringify(row)) as Record<string, unknown>;
}
const eventsOf = async (topic: string, id: number) =>
  (
    await svc
      .db('outbox')
      .where({ topic, key: String(id) })
      .orderBy('id')
  ).map((r) => ({
    seq: Number(r.id),
    event: r.event,
  }));
const historyOf = (table: string, id: number) =>
  svc.db('history').where({ table_name: table, item_id: id }).orderBy('id');

describe('ledger_post', () => {
  it("writes the movements' and the balances' history and events as the entity store does", async () => {
    const [main, spare] = [await newWallet('Основной'), await newWallet('Резерв')];
    await svc.db.transaction((trx) =>
      postMovements(trx, { identity: admin, outbox: svc.outbox, wallets, operations }, [
        { wallet_id: main, direction: 'in', amount: '50', cause: 'top_up', type: 'manual' },
      ]),
    );
    const relabel = await callService(
      svc.url,
      'wallet_update',
      { id: spare, label: 'на чёрный день' },
      admin,
    );
    expect(relabel.body).toMatchObject({ ok: true });
    const reply = await transfer(main, spare, '12.3', client, `ledger-post-${Date.now()}`);
    expect(reply).toMatchObject({ ok: true, result: { sender: { amount: '37.70' } } });

    const [out, into] = await svc
      .db('fin_operation')
      .whereIn('wallet_id', [main, spare])
      .where({ cause: 'transfer' })
      .orderBy('id');
    for (const op of [out, into]) {
      const row = await storedRow(operations, op.id);
      expect(Object.keys(row).sort()).toEqual([...operations.stored].sort());
      const [event] = await eventsOf(ENTITY_TOPICS.fin_operation, op.id);
      expect(event!.event).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        type: EVENT_TYPES.entityChanged,
        version: 1,
        occurred_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        source: 'svc-payments',
        key: String(op.id),
        actor: client.user_id,
        seq: event!.seq,
        data: { entity: 'fin_operation', id: op.id, op: 'created', row },
      });
      expect(row).toMatchObject({
        amount: '12.30',
        comment: 'на резерв',
        created_at: expect.stringMatching(/Z$/),
      });
      const history = await historyOf('fin_operation', op.id);
      expect(history.map((h) => [h.field, h.old_value, h.new_value, h.user_id, h.user_full_name])).toEqual([
        ['created', null, row, client.user_id, 'Клиент'],
      ]);
    }

    const mainRow = await storedRow(wallets, main);
    expect(mainRow).toMatchObject({ amount: '37.70' });
    const mainEvents = await eventsOf(ENTITY_TOPICS.wallet, main);
    // created by wallet_update (the store), then the top-up and the transfer (the ledger)
    expect(mainEvents.map((e) => e.event.data.op)).toEqual(['created', 'updated', 'updated']);
    const created = mainEvents[0]!.event;
    const moved = mainEvents[2]!.event;
    expect(Object.keys(moved).sort()).toEqual(Object.keys(created).sort());
    expect(moved.data).toEqual({
      entity: 'wallet',
      id: main,
      op: 'updated',
      row: mainRow,
      prev: { amount: '50.00' },
    });
    expect(Object.keys(moved.data.row).sort()).toEqual(Object.keys(created.data.row).sort());
    // the receiver: relabelled through wallet_update (the store), then credited by the ledger
    const [, relabelled, credited] = (await eventsOf(ENTITY_TOPICS.wallet, spare)).map((e) => e.event.data);
    expect(relabelled).toMatchObject({ op: 'updated', prev: { label: '' } });
    expect(credited).toMatchObject({ op: 'updated', prev: { amount: '0.00' }, row: { amount: '12.30' } });
    expect(Object.keys(credited).sort()).toEqual(Object.keys(relabelled).sort());
    const amounts = (await historyOf('wallet', main)).filter((h) => h.field === 'amount');
    expect(amounts.map((h) => [h.old_value, h.new_value])).toEqual([
      ['0.00', '50.00'],
      ['50.00', '37.70'],
    ]);
  });

  it('keeps the Idempotency-Key as the registry does: other params refused, a refusal keeps nothing', async () => {
    const [main, spare] = [await newWallet('Основной'), await newWallet('Резерв')];
    await svc.db.transaction((trx) =>
      postMovements(trx, { identity: admin, outbox: svc.outbox, wallets, operations }, [
        { wallet_id: main, direction: 'in', amount: '10', cause: 'top_up', type: 'manual' },
      ]),
    );
    const key = `ledger-post-key-${Date.now()}`;
    // refused for want of money: the key stays free for the corrected request
    expect(await transfer(main, spare, '11', client, key)).toMatchObject({
      ok: false,
      message: 'на кошельке недостаточно средств: доступно 10,00\u00a0₽',
    });
    expect(await svc.db('idempotency').where({ user_id: client.user_id, key })).toEqual([]);
    const first = await transfer(main, spare, '4', client, key);
    expect(first).toMatchObject({
      ok: true,
      result: { sender: { amount: '6.00' }, receiver: { amount: '4.00' } },
    });
    // the same key with another amount: refused, nothing moved
    expect(await transfer(main, spare, '5', client, key)).toMatchObject({
      ok: false,
      message: 'этот запрос уже выполнен с другими данными; обновите страницу и повторите действие',
    });
    // the same request again, after another transfer: the first reply, nothing moved
    expect(await transfer(main, spare, '1', client, `${key}-next`)).toMatchObject({ ok: true });
    expect(await transfer(main, spare, '4', client, key)).toEqual(first);
    const moved = await svc.db('fin_operation').where({ wallet_id: main, cause: 'transfer' }).orderBy('id');
    expect(moved.map((m) => m.amount)).toEqual(['4.00', '1.00']);
    expect((await svc.db('wallet').where({ id: main }).first('amount')).amount).toBe('5.00');
  });

  it('transfers arriving together share transactions, each decided in its turn: the money adds up to the kopeck', async () => {
    const [main, spare] = [await newWallet('Основной'), await newWallet('Резерв')];
    await svc.db.transaction((trx) =>
      postMovements(trx, { identity: admin, outbox: svc.outbox, wallets, operations }, [
        { wallet_id: main, direction: 'in', amount: '100', cause: 'top_up', type: 'manual' },
      ]),
    );
    const key = `ledger-post-together-${Date.now()}`;
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) => transfer(main, spare, '3', client, `${key}-${i}`)),
    );
    expect(replies.filter((r) => r.ok)).toHaveLength(33);
    expect(new Set(replies.filter((r) => !r.ok).map((r) => r.message))).toEqual(
      new Set(['на кошельке недостаточно средств: доступно 1,00\u00a0₽']),
    );
    expect((await svc.db('wallet').whereIn('id', [main, spare]).orderBy('id')).map((w) => w.amount)).toEqual([
      '1.00',
      '99.00',
    ]);
    // each movement's balance after is the next one's before: no two were decided on the same balance
    const out = await svc.db('fin_operation').where({ wallet_id: main, cause: 'transfer' }).orderBy('id');
    expect(out).toHaveLength(33);
    out.forEach((m, i) => expect(m.wallet_amount_before).toBe((100 - 3 * i).toFixed(2)));
    // fewer commits than transfers: the transaction id (xmin) is shared within a batch
    const { rows } = await svc.db.raw(
      `select count(distinct xmin::text)::int as n from fin_operation where wallet_id = ? and cause = 'transfer'`,
      [main],
    );
    expect(rows[0].n).toBeLessThan(33);
    // every balance change has its history row and its event, as one at a time
    expect((await historyOf('wallet', main)).filter((h) => h.field === 'amount')).toHaveLength(34);
    expect(await eventsOf(wallets.def.topic!, main)).toHaveLength(35); // created, topped up, 33 transfers
  });

  it('an operation the database refuses inside a batch fails alone; the others of its batch are posted', async () => {
    const [main, spare] = [await newWallet('Основной'), await newWallet('Резерв')];
    const batcher = new LedgerBatcher(svc.db);
    const ledger = { identity: admin, outbox: svc.outbox, wallets, operations };
    const topUp = (wallet_id: number, amount: string) =>
      batcher.post(ledger, [{ wallet_id, direction: 'in', amount, cause: 'top_up', type: 'manual' }]);
    // the first goes alone; the four after it wait for it and go together
    const results = await Promise.allSettled([
      topUp(main, '1'),
      topUp(main, '2'),
      topUp(spare, '5'),
      topUp(main, '10000000000000'), // beyond numeric(14, 2): the database raises
      topUp(main, '4'),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect((await svc.db('wallet').whereIn('id', [main, spare]).orderBy('id')).map((w) => w.amount)).toEqual([
      '7.00',
      '5.00',
    ]);
    const moved = await svc.db('fin_operation').whereIn('wallet_id', [main, spare]).orderBy('id');
    expect(moved.map((m) => [m.wallet_id === main ? 'main' : 'spare', m.amount])).toEqual([
      ['main', '1.00'],
      ['main', '2.00'],
      ['spare', '5.00'],
      ['main', '4.00'],
    ]);
  });
});
