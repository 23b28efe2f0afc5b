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
  const given = movements.map((m) => ({
    wallet_id: m.wallet_id,
    direction: m.direction,
    amount: decFormat(dec(m.amount), 2),
    cause: m.cause,
    type: m.type,
    sender_id: m.sender_id ?? null,
    receiver_id: m.receiver_id ?? null,
    comment: m.comment ?? '',
    test: m.test ?? false,
  }));
  const {
    rows: [{ posted }],
  } = (await trx.raw('select ledger_post(?::jsonb, ?, ?::jsonb, ?::jsonb, ?::jsonb) as posted', [
    JSON.stringify(given),
    key,
    JSON.stringify({ user_id: ctx.identity.user_id, fullname: ctx.identity.fullname }),
    JSON.stringify({
      source: ctx.outbox.source,
      type: EVENT_TYPES.entityChanged,
      wallet_topic: ctx.wallets.def.topic,
      operation_topic: ctx.operations.def.topic,
      // the events' outbox rows keep the call's trace context: the relay's send continues it (ADR 0033)
      trace: currentTraceCarrier(),
    }),
    request ? JSON.stringify(request) : null,
  ])) as { rows: [{ posted: Posted }] };
  if (posted.refused) throw refusal(posted);
  if (!posted.repeat) ctx.outbox.markWritten(trx);
  return posted.operations.map(withDates);
}
