import type { Reply } from '@caravan/contracts';
import { MESSAGES } from '@caravan/contracts';
import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import { authHeaders, signalUnauthorized } from './auth';

export type PgCall = { method: string; params?: unknown };
export type PgError = { status: number; message: string };

/**
 * Mutations carry an `Idempotency-Key`, one per user action: the service runs a key once and answers a
 * repeat with the first reply. When the answer was lost (no reply, or 502–504: the service may have
 * done it), the same call made again — the user pressing save once more — reuses its key, so a retry
 * after 'сервис временно недоступен, повторите попытку' never does the action twice.
 */
const unansweredKeys = new Map<string, string>();
const ANSWER_LOST = new Set([0, 502, 503, 504]);

const newIdempotencyKey = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

/** Every procedure goes through POST /api/call_pg_func; `ok:false` becomes an error carrying the server's message. */
export const callPgFunc: BaseQueryFn<PgCall, unknown, PgError> = async (
  { method, params },
  { signal, type },
) => {
  const body = JSON.stringify({ method, params: params ?? {} });
  const key = type === 'mutation' ? (unansweredKeys.get(body) ?? newIdempotencyKey()) : undefined;
  let status = 0;
  try {
    const res = await fetch('/api/call_pg_func', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...authHeaders(),
        ...(key ? { 'Idempotency-Key': key } : {}),
      },
      body,
      signal,
    });
    status = res.status;
    if (res.status === 401) signalUnauthorized();
    const reply = (await res.json()) as Reply;
    if (!reply.ok) return { error: { status: res.status, message: reply.message } };
    return { data: reply.result };
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e;
    return { error: { status: 0, message: MESSAGES.serviceUnavailable } };
  } finally {
    if (key && ANSWER_LOST.has(status)) unansweredKeys.set(body, key);
    else if (key) unansweredKeys.delete(body);
  }
};

/** The one base API: no endpoints of its own; every feature adds its endpoints with injectEndpoints. */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery: callPgFunc,
  tagTypes: ['Entity'],
  endpoints: () => ({}),
});
