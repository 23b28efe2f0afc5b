import type { Reply } from '@caravan/contracts';
import { MESSAGES } from '@caravan/contracts';
import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import { authHeaders, signalUnauthorized } from './auth';

export type PgCall = { method: string; params?: unknown };
export type PgError = { status: number; message: string };

/** Every procedure goes through POST /api/call_pg_func; `ok:false` becomes an error carrying the server's message. */
export const callPgFunc: BaseQueryFn<PgCall, unknown, PgError> = async ({ method, params }, { signal }) => {
  try {
    const res = await fetch('/api/call_pg_func', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authHeaders() },
      body: JSON.stringify({ method, params: params ?? {} }),
      signal,
    });
    if (res.status === 401) signalUnauthorized();
    const reply = (await res.json()) as Reply;
    if (!reply.ok) return { error: { status: res.status, message: reply.message } };
    return { data: reply.result };
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    return { error: { status: 0, message: MESSAGES.serviceUnavailable } };
  }
};

/** The one base API: no endpoints of its own; every feature adds its endpoints with injectEndpoints. */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery: callPgFunc,
  tagTypes: ['Entity'],
  endpoints: () => ({}),
});
