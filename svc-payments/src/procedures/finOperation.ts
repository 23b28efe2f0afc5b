import {
  ENTITY_TOPICS,
  finOperation,
  isAdmin,
  LEDGER_MESSAGES,
  MESSAGES,
  WALLET_TRANSFER_LABELS,
  WalletTransferParams,
} from '@caravan/contracts';
import {
  BusinessError,
  registerEntity,
  titleOf,
  type EntityStore,
  type ServiceKit,
} from '@caravan/service-kit';
import { LedgerBatcher, postMovements } from '../domain/ledger';

/**
 * fin_operation (spec product-core §3): the wallet ledger. Admins read all, a client the operations of
 * their clients' wallets, an operator those of their operators' wallets. Nobody writes a row through
 * `_update`: only money operations post them (docs/adr/0011-wallet-ledger.md).
 */
export function registerFinOperation(kit: ServiceKit) {
  return registerEntity(kit.registry, {
    contract: finOperation,
    read: 'any',
    write: 'admin',
    computed: { wallet_title: titleOf('fin_operation', 'wallet_id', 'wallet') },
    rules: () => {
      throw new BusinessError(LEDGER_MESSAGES.byOperationsOnly);
    },
    topic: ENTITY_TOPICS.fin_operation,
  });
}

/**
 * wallet_transfer (spec §7; the top-up from another wallet): money leaves one wallet and arrives in
 * another of the same client and currency, as two fin_operations of one operation. A client moves
 * money between their own wallets; an admin between any client's; an operator does not. The Idempotency-Key makes a retry
 * move nothing twice: the ledger's statement keeps it (docs/adr/0027-ledger-in-one-round-trip.md).
 */
export function registerWalletTransfer(kit: ServiceKit, wallets: EntityStore, operations: EntityStore) {
  // transfers arriving together share a transaction and its commit (ADR 0027, addendum)
  const batcher = new LedgerBatcher(kit.db);
  kit.registry.register({
    name: 'wallet_transfer',
    params: WalletTransferParams,
    labels: WALLET_TRANSFER_LABELS,
    access: 'any',
    // two round trips: the wallets' read, then the ledger's one statement, which keeps the key too
    keysItself: true,
    handler: async (ctx, p) => {
      const { identity } = ctx;
      if (p.sender_wallet_id === p.receiver_wallet_id) throw new BusinessError(LEDGER_MESSAGES.sameWallet);
      const found = await wallets.getMany(ctx.db, identity, [p.sender_wallet_id, p.receiver_wallet_id]);
      const [sender, receiver] = [found[0]!, found[1]!];
      // a client's money is moved by the client (or an admin); an operator who reaches the wallet does not.
      // Both wallets are then the caller's client's: reading them is the reach a write needs.
      if (!isAdmin(identity) && !identity.client_ids.includes(Number(sender.client_id)))
        throw new BusinessError(MESSAGES.accessDenied);
      if (!isAdmin(identity) && Number(sender.client_id) !== Number(receiver.client_id))
        throw new BusinessError(LEDGER_MESSAGES.otherClient);
      if (Number(sender.currency_id) !== Number(receiver.currency_id))
        throw new BusinessError(LEDGER_MESSAGES.otherCurrency);
      if (p.test && !isAdmin(identity)) throw new BusinessError(MESSAGES.adminOnly);
      const common = {
        amount: p.amount,
        cause: 'transfer' as const,
        type: 'wallet' as const,
        sender_id: sender.id,
        receiver_id: receiver.id,
        comment: p.comment,
        test: p.test,
      };
      const key = ctx.idempotencyKey ? `wallet_transfer:${identity.user_id}:${ctx.idempotencyKey}` : '';
      const request = ctx.idempotencyKey
        ? { user_id: identity.user_id, key: ctx.idempotencyKey, request_hash: ctx.requestHash! }
        : undefined;
      const ledger = { identity, outbox: ctx.outbox, wallets, operations };
      const movements = [
        { ...common, wallet_id: sender.id, direction: 'out' as const },
        { ...common, wallet_id: receiver.id, direction: 'in' as const },
      ];
      // a step of a caller's transaction posts in it; a transfer standing alone goes with those arriving with it
      const [out, into] = (ctx.db as { isTransaction?: boolean }).isTransaction
        ? await postMovements(ctx.db, ledger, movements, key, request)
        : await batcher.post(ledger, movements, key, request);
      // the balances after, from the movements (a repeat's too: its reply is the first's)
      return {
        message: LEDGER_MESSAGES.transferred(p.amount),
        sender: { id: sender.id, amount: out!.wallet_amount_after },
        receiver: { id: receiver.id, amount: into!.wallet_amount_after },
      };
    },
  });
}
