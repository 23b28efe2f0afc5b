import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { rootReducer } from '@caravan/ui-kit';

/** Wallet changes pushed by the server over SSE, newest first (the widget and dialogs read them). */
type WalletUpdate = { id: number; title: string; amount: string; symbol: string };
type LiveWalletsState = { updates: (WalletUpdate & { at: string })[] };

export const liveWalletsSlice = createSlice({
  name: 'liveWallets',
  initialState: { updates: [] } as LiveWalletsState,
  reducers: {
    walletPushed(state, action: PayloadAction<WalletUpdate>) {
      state.updates.unshift({ ...action.payload, at: new Date().toISOString() });
      state.updates.length = Math.min(state.updates.length, 20);
    },
  },
  selectors: { lastUpdate: (state) => state.updates[0] },
});

declare module '@caravan/ui-kit' {
  interface LazyLoadedSlices {
    liveWallets: LiveWalletsState;
  }
}

/** Injected into the shell's store when this remote's code first runs. */
export const injectedLiveWallets = liveWalletsSlice.injectInto(rootReducer);
export const { walletPushed } = liveWalletsSlice.actions;
