import {
  dec,
  decFormat,
  LEDGER_MESSAGES,
  type FinOperationCause,
  type FinOperationDirection,
  type FinOperationType,
  type Identity,
} from '@caravan/contracts';
import { BusinessError, WriteBatch, type Db, type EntityStore, type Outbox } from '@caravan/service-kit';

type Row = Record<string, unknown> & { id: number; deleted: boolean };
export type LedgerContext = {
  identity: Identity;
  outbox: Outbox;
  wallets: EntityStore;
  operations: EntityStore;
};

/** One movement of one wallet: money in or out, why, how, between which wallets. */
export type Movement = {
  wallet_id: number;
  direction: FinOperationDirection;
  amount: string;
  cause: FinOperationCause;
  type: FinOperationType;
  sender_id?: number | null;
  receiver_id?: number | null;
  comment?: string;
  test?: boolean;
};

/**
 * Posts movements as one money operation (docs/adr/0011-wallet-ledger.md), inside the caller's
 * transaction:
 * - the wallets are locked in id order (two transfers between the same wallets queue, never deadlock);
 * - each movement changes the balance and writes its fin_operation with the balance before and after;
 * - a balance never goes below zero (refused with what is available; the database checks it too);
 * - with a key, a repeat of the operation (a retried request, a redelivered event or callback) finds its
 *   movements and moves nothing again.
 * Returns the operation's fin_operations, first time or repeat.
 */
export async function postMovements(trx: Db, ctx: LedgerContext, movements: readonly Movement[], key = '') {
  const ids = [...new Set(movements.map((m) => m.wallet_id))].sort((a, b) => a - b);
  const locked = (await trx('wallet')
    .whereIn('id', ids)
    .orderBy('id')
    .forUpdate()
    .select(ctx.wallets.stored as string[])) as Row[];
  // the key is looked up under the wallets' locks: a concurrent repeat waits, then finds the first's rows
  if (key) {
    const done = (await trx('fin_operation')
      .where({ idempotency_key: key })
      .whereIn(
        'wallet_id',
        movements.map((m) => m.wallet_id),
      )
      .orderBy('id')) as Row[];
    if (done.length) return done;
  }
  const wallets = new Map(locked.map((w) => [Number(w.id), w]));
  const balances = new Map(locked.map((w) => [Number(w.id), dec(String(w.amount))]));
  const rows: Record<string, unknown>[] = [];
  for (const m of movements) {
    const wallet = wallets.get(m.wallet_id);
    if (!wallet || wallet.deleted) throw new BusinessError(LEDGER_MESSAGES.walletGone);
    const amount = dec(m.amount);
    if (amount <= 0n) throw new BusinessError(LEDGER_MESSAGES.positive);
    const before = balances.get(m.wallet_id)!;
    const after = m.direction === 'in' ? before + amount : before - amount;
    if (after < 0n) throw new BusinessError(LEDGER_MESSAGES.notEnough(decFormat(before, 2)));
    balances.set(m.wallet_id, after);
    rows.push({
      wallet_id: m.wallet_id,
      client_id: wallet.client_id,
      operator_id: wallet.operator_id ?? null,
      amount: decFormat(amount, 2),
      cause: m.cause,
      comment: m.comment ?? '',
      datetime: new Date().toISOString(),
      direction: m.direction,
      sender_id: m.sender_id ?? null,
      receiver_id: m.receiver_id ?? null,
      state: 'done',
      type: m.type,
      wallet_amount_before: decFormat(before, 2),
      wallet_amount_after: decFormat(after, 2),
      idempotency_key: key,
      test: m.test ?? false,
    });
  }
  // the movements' and the balances' history and events go out together: fewer round trips under the locks
  const batch = new WriteBatch();
  const operations = await ctx.operations.insertMany(trx, ctx.identity, ctx.outbox, rows, batch);
  await ctx.wallets.changeMany(
    trx,
    ctx.identity,
    ctx.outbox,
    locked,
    (w) => ({ amount: decFormat(balances.get(Number(w.id))!, 2) }),
    batch,
  );
  await batch.flush(trx, ctx.outbox);
  return operations;
}
