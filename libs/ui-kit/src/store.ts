import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { baseApi } from './api';
import { sessionSlice } from './session';

/** Slices that remotes inject at run time declare themselves here by module augmentation. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface LazyLoadedSlices {}

/** The shell's root reducer: the base API and the session now, remote slices injected lazily (`rootReducer.inject`). */
export const rootReducer = combineSlices(baseApi, sessionSlice).withLazyLoadedSlices<LazyLoadedSlices>();

export function createAppStore() {
  return configureStore({
    reducer: rootReducer,
    middleware: (getDefault) => getDefault().concat(baseApi.middleware),
  });
}
export type AppStore = ReturnType<typeof createAppStore>;
export type RootState = ReturnType<typeof rootReducer>;
