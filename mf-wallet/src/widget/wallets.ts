import { CURRENCY, dec, type CurrentUser, type Wallet } from '@caravan/contracts';
import { useWalletsOfUserQuery } from '../store/walletApi';

export const isDefaultWallet = (w: Pick<Wallet, 'options'> | null | undefined) =>
  Boolean(w?.options?.is_default);

/** Only an empty wallet is deleted (the service refuses a funded one with its own message). */
export const isEmptyWallet = (w: Pick<Wallet, 'amount'>) => {
  try {
    return dec(String(w.amount ?? '0')) === 0n;
  } catch {
    return false;
  }
};

export const isRoubleWallet = (w: Pick<Wallet, 'currency_id'>) => Number(w.currency_id) === CURRENCY.RUB;

/** Does the wallet hold at least `amount` (decimal strings compared exactly)? */
export const holdsAtLeast = (w: Pick<Wallet, 'amount'>, amount: string | null) => {
  if (amount === null) return true;
  try {
    return dec(String(w.amount ?? '0')) >= dec(amount);
  } catch {
    return false;
  }
};

/** The wallet the user chose for the widget (settings.wallet_widget_id), else their default one, else the first. */
export function shownWallet(wallets: readonly Wallet[], user: CurrentUser | null): Wallet | undefined {
  const chosen = user?.options.settings?.wallet_widget_id;
  return (
    wallets.find((w) => w.id === chosen) ?? wallets.find((w) => isDefaultWallet(w)) ?? wallets[0] ?? undefined
  );
}

/** The wallets of the clients the user is linked to (the service scopes the list), oldest first. */
export function useUserWallets(skip = false) {
  const query = useWalletsOfUserQuery(undefined, { skip });
  return { ...query, wallets: query.data?.items ?? [] };
}

/** Wallets grouped by their client, in the order the clients first appear. */
export function byClient(wallets: readonly Wallet[]): { clientId: number; wallets: Wallet[] }[] {
  const groups = new Map<number, Wallet[]>();
  for (const w of wallets) groups.set(w.client_id, [...(groups.get(w.client_id) ?? []), w]);
  return [...groups].map(([clientId, list]) => ({ clientId, wallets: list }));
}
