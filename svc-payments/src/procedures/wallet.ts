import { dec, ENTITY_TOPICS, isAdmin, CURRENCY, MESSAGES, wallet, WALLET_MESSAGES } from '@caravan/contracts';
import {
  BusinessError,
  registerEntity,
  type Db,
  type RuleContext,
  type ServiceKit,
} from '@caravan/service-kit';

/**
 * Does the operator serve the client: is the client on the operator's client list, as replicated from
 * svc-carriers? (Only admins put a client on an operator's list.)
 */
export async function operatorServes(db: Db, operatorId: number, clientId: number): Promise<boolean> {
  const row = await db('replica')
    .where({ entity: 'operator', id: operatorId, deleted: false })
    .whereRaw(`data->'client_list' @> ?::jsonb`, [JSON.stringify([{ id: clientId }])])
    .first('id');
  return Boolean(row);
}

/** Money in the wallet: its ownership and currency stay as they are (fin operations join this check). */
const holdsMoney = (row: Record<string, unknown>) => dec(String(row.amount ?? '0')) !== 0n;

/**
 * Ownership of a wallet (ARCHITECTURE §5): a funded wallet keeps its client, operator and currency
 * for everyone (its money moves by a transfer); only an admin gives an empty wallet another client;
 * the wallet's operator must serve its client, unless an admin sets it.
 */
async function walletRules(ctx: RuleContext) {
  await checkCurrency(ctx);
  await checkOwnership(ctx);
  await keepOneDefault(ctx);
  await keepWhilePending(ctx);
}

const RUB = 2;

/**
 * The wallet's currency is svc-carriers' row: one the replica holds, or one of the spec's fixed
 * currencies (CNY, RUB, USD) before their rows reached the replica (issue 17: 999 was accepted).
 */
async function checkCurrency({ trx, given }: RuleContext) {
  if (typeof given.currency_id !== 'number') return;
  const id = given.currency_id;
  if ((Object.values(CURRENCY) as number[]).includes(id)) return;
  const row = await trx('replica').where({ entity: 'currency', id, deleted: false }).first('id');
  if (!row) throw new BusinessError(MESSAGES.refMissing(wallet.labels.currency_id, id));
}
/** How long a bank payment may still arrive: the longest payer page's life (a card bill: an hour), doubled. */
const PENDING_HOURS = 2;

/** A wallet whose top-up still waits for the bank is not deleted: the money would arrive nowhere. */
async function keepWhilePending({ trx, prev, given }: RuleContext) {
  if (!prev || given.deleted !== true || prev.deleted) return;
  const pending = await trx('acquiring_payment')
    .where({ wallet_id: prev.id, state: 'pending' })
    .where('created_at', '>', trx.raw(`now() - interval '${PENDING_HOURS} hours'`))
    .first('id');
  if (pending) throw new BusinessError(WALLET_MESSAGES.pendingDelete);
}

const isDefault = (row: Record<string, unknown> | null | undefined) =>
  Boolean((row?.options as { is_default?: boolean } | null)?.is_default);

/**
 * One default wallet per client (the one payments take from and auto-debit uses, ADR 0012), a rouble one,
 * chosen by the client (or an admin): an operator who reaches the wallet does not turn auto-debit of the
 * client's money on or off.
 */
async function keepOneDefault({ trx, identity, prev, next }: RuleContext) {
  if (isDefault(next) === isDefault(prev)) return;
  if (!isAdmin(identity) && !identity.client_ids.includes(Number(next.client_id)))
    throw new BusinessError(WALLET_MESSAGES.defaultByClient);
  if (!isDefault(next)) return;
  if (Number(next.currency_id) !== RUB) throw new BusinessError(WALLET_MESSAGES.defaultRoubleOnly);
  await trx('wallet')
    .where({ client_id: next.client_id })
    .whereNot({ id: prev?.id ?? 0 })
    .whereRaw(`coalesce((options->>'is_default')::boolean, false)`)
    .update({ options: trx.raw(`options || '{"is_default": false}'::jsonb`), updated_at: trx.fn.now() });
}

async function checkOwnership({ trx, identity, prev, next, given }: RuleContext) {
  const admin = isAdmin(identity);
  const moves = 'client_id' in given || 'operator_id' in given;
  if (prev && moves && holdsMoney(prev)) throw new BusinessError(WALLET_MESSAGES.fundedOwner);
  if (prev && 'currency_id' in given && holdsMoney(prev))
    throw new BusinessError(WALLET_MESSAGES.fundedCurrency);
  if (admin) return;
  if (prev && 'client_id' in given) throw new BusinessError(WALLET_MESSAGES.clientFixed);
  const operatorId = next.operator_id as number | null;
  if ((!prev || 'operator_id' in given) && operatorId !== null)
    if (!(await operatorServes(trx, operatorId, next.client_id as number)))
      throw new BusinessError(WALLET_MESSAGES.operatorNotServing);
}

/**
 * Wallets: a client sees and edits the wallets of the clients linked to them, an operator those of
 * their operators, an admin all. The balance is read-only here (it changes through fin_operations).
 */
export const registerWallet = (kit: ServiceKit) =>
  registerEntity(kit.registry, {
    contract: wallet,
    read: 'any',
    write: 'any',
    readonlyColumns: ['amount'],
    rules: walletRules,
    // only an empty wallet is deleted (spec: the widget's delete); its money moves by a transfer first
    undeletable: (row) => (holdsMoney(row) ? WALLET_MESSAGES.fundedDelete : null),
    topic: ENTITY_TOPICS.wallet,
  });
