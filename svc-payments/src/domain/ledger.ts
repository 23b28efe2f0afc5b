import {
  dec,
  decFormat,
  EVENT_TYPES,
  LEDGER_MESSAGES,
  MESSAGES,
  type FinOperationCause,
  type FinOperationDirection,
  type FinOperationType,
  type Identity,
} from '@caravan/contracts';
import {
  BusinessError,
  currentTraceCarrier,
  type Db,
  type EntityStore,
  type Outbox,
} from '@caravan/service-kit';

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

/** The caller's Idempotency-Key for the ledger to keep (a procedure that `keysItself`). */
export type KeptRequest = { user_id: number; key: string; request_hash: string };

type Posted =
  | { operations: Row[]; repeat?: true; refused?: undefined }
  | { refused: 'wallet_gone' | 'positive' | 'not_enough' | 'key_reused'; available?: string };

/** The refusal's words, in the contracts' messages (the database function names only the reason). */
function refusal(posted: Extract<Posted, { refused: string }>): BusinessError {
  if (posted.refused === 'wallet_gone') return new BusinessError(LEDGER_MESSAGES.walletGone);
  if (posted.refused === 'positive') return new BusinessError(LEDGER_MESSAGES.positive);
  if (posted.refused === 'key_reused') return new BusinessError(MESSAGES.idempotencyKeyReused);
  return new BusinessError(LEDGER_MESSAGES.notEnough(posted.available!));
}

/** A row as the entity store reads it: the times as Date, as pg parses them. */
const withDates = (row: Row): Row => ({
  ...row,
  created_at: new Date(row.created_at as string),
  updated_at: new Date(row.updated_at as string),
});

/** ledger_post's arguments for one operation (JSON), as ledger_post_many takes them too. */
type LedgerArgs = {
  movements: unknown[];
  key: string;
  actor: unknown;
  events: unknown;
  request: KeptRequest | null;
};

function ledgerArgs(
  ctx: LedgerContext,
  movements: readonly Movement[],
  key: string,
  request?: KeptRequest,
): LedgerArgs {
  return {
    movements: movements.map((m) => ({
      wallet_id: m.wallet_id,
      direction: m.direction,
      amount: decFormat(dec(m.amount), 2),
      cause: m.cause,
      type: m.type,
      sender_id: m.sender_id ?? null,
      receiver_id: m.receiver_id ?? null,
      comment: m.comment ?? '',
      test: m.test ?? false,
    })),
    key,
    actor: { user_id: ctx.identity.user_id, fullname: ctx.identity.fullname },
    events: {
      source: ctx.outbox.source,
      type: EVENT_TYPES.entityChanged,
      wallet_topic: ctx.wallets.def.topic,
      operation_topic: ctx.operations.def.topic,
      // the events' outbox rows keep the call's trace context: the relay's send continues it (ADR 0033)
      trace: currentTraceCarrier(),
    },
    request: request ?? null,
  };
}

/** One operation's statement, in `trx` or as a statement of its own. */
async function postOne(trx: Db, args: LedgerArgs): Promise<Posted> {
  const {
    rows: [{ posted }],
  } = (await trx.raw('select ledger_post(?::jsonb, ?, ?::jsonb, ?::jsonb, ?::jsonb) as posted', [
    JSON.stringify(args.movements),
    args.key,
    JSON.stringify(args.actor),
    JSON.stringify(args.events),
    args.request ? JSON.stringify(args.request) : null,
  ])) as { rows: [{ posted: Posted }] };
  return posted;
}

/** The operation's fin_operations, or its refusal thrown in the contracts' words. */
function outcome(posted: Posted) {
  if (posted.refused) throw refusal(posted);
  return posted.operations.map(withDates);
}

/**
 * Posts movements as one money operation (docs/adr/0011-wallet-ledger.md,
 * docs/adr/0027-ledger-in-one-round-trip.md) in one statement, inside the caller's transaction or as
 * its own: the database function `ledger_post` (migrations/ledger_post.ts)
 * - locks the wallets in id order (two transfers between the same wallets queue, never deadlock);
 * - with a key, finds a repeat of the operation (a retried request, a redelivered event or callback)
 *   under those locks and returns its movements, moving nothing again;
 * - changes each balance and writes its fin_operation with the balance before and after;
 * - refuses a balance below zero (with what is available; the database checks it too), a movement of
 *   0 or less and a deleted wallet, writing nothing;
 * - writes the movements' and the balances' history and events (the outbox) as the entity store would;
 * - given `request`, keeps the caller's Idempotency-Key as the registry would (refused with other params).
 * Returns the operation's fin_operations, first time or repeat.
 */
export async function postMovements(
  trx: Db,
  ctx: LedgerContext,
  movements: readonly Movement[],
  key = '',
  request?: KeptRequest,
) {
  const posted = await postOne(trx, ledgerArgs(ctx, movements, key, request));
  if (!posted.refused && !posted.repeat) ctx.outbox.markWritten(trx);
  return outcome(posted);
}

/** The most operations one transaction of the batcher posts. */
export const LEDGER_BATCH_MAX = 64;

type Waiting = { args: LedgerArgs; outbox: Outbox; resolve(p: Posted): void; reject(e: unknown): void };

/**
 * Group commit for operations that stand alone (a transfer, not a step of a caller's transaction): while one
 * transaction posts, the operations arriving meanwhile wait and then go together in the next one —
 * `ledger_post_many`, one statement and one commit for all. One wallet's transfers were bound by a commit
 * each under its lock (ADR 0027, addendum). Each operation is still decided alone and in arrival order: a
 * refused one writes nothing and does not hold back the others. If the batch's statement fails (the database
 * raises for one operation, a connection is lost, a deadlock with a caller's own transaction), nothing was
 * written and its operations are posted again one by one, so an error stays with the operation that causes
 * it; a commit whose answer is lost fails them all (posting again could move money twice). The first
 * operation after a quiet spell waits for nothing.
 */
export class LedgerBatcher {
  private waiting: Waiting[] = [];
  private busy = false;

  constructor(private readonly db: Db) {}

  post(ctx: LedgerContext, movements: readonly Movement[], key = '', request?: KeptRequest) {
    const args = ledgerArgs(ctx, movements, key, request);
    return new Promise<Posted>((resolve, reject) => {
      this.waiting.push({ args, outbox: ctx.outbox, resolve, reject });
      if (!this.busy) void this.drain();
    }).then(outcome);
  }

  private async drain() {
    this.busy = true;
    try {
      while (this.waiting.length) await this.postBatch(this.waiting.splice(0, LEDGER_BATCH_MAX));
    } finally {
      this.busy = false;
    }
  }

  private async postBatch(batch: Waiting[]) {
    if (batch.length > 1) {
      let replies: Posted[] | null;
      try {
        replies = await this.postTogether(batch);
      } catch (err) {
        // the statement ran and the commit's answer was lost: posting them again could move money twice
        for (const w of batch) w.reject(err);
        return;
      }
      if (replies) return batch.forEach((w, i) => w.resolve(replies[i]!));
    }
    for (const w of batch) {
      try {
        const posted = await postOne(this.db, w.args);
        if (!posted.refused && !posted.repeat) w.outbox.markWritten(this.db);
        w.resolve(posted);
      } catch (err) {
        w.reject(err);
      }
    }
  }

  /**
   * The batch in one transaction; null when it failed before its statement was through (nothing was written:
   * post them one by one). A failure after it (the commit's answer lost) is thrown.
   */
  private async postTogether(batch: Waiting[]): Promise<Posted[] | null> {
    let posted: Posted[] | null = null;
    return this.db
      .transaction(async (trx) => {
        const { rows } = (await trx.raw('select ledger_post_many(?::jsonb) as replies', [
          JSON.stringify(batch.map((w) => w.args)),
        ])) as { rows: [{ replies: Posted[] }] };
        posted = rows[0].replies;
        batch.forEach((w, i) => {
          if (!posted![i]!.refused && !posted![i]!.repeat) w.outbox.markWritten(trx);
        });
        return posted;
      })
      .catch((err: unknown) => {
        if (posted === null) return null;
        throw err;
      });
  }
}
