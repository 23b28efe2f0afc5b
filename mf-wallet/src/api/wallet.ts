import type { Wallet } from '@caravan/contracts';
import { baseApi, entityEndpoints, type EntityRow } from '@caravan/ui-kit';

export type WalletRow = Wallet & EntityRow;

export const walletApi = baseApi.injectEndpoints({
  endpoints: (build) => {
    const wallet = entityEndpoints<WalletRow>(build, 'wallet');
    return { walletList: wallet.list, walletUpdate: wallet.update };
  },
});
export const { useWalletListQuery, useWalletUpdateMutation } = walletApi;
