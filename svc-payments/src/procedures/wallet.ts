import { ENTITY_TOPICS, wallet } from '@caravan/contracts';
import { registerEntity, type ServiceKit } from '@caravan/service-kit';

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
    topic: ENTITY_TOPICS.wallet,
  });
