/** The reply of every `call_pg_func` method and of the spec's HTTP calls: `{ok, result, message}`. */
export type OkReply<T> = { ok: true; result: T; message?: string };
export type FailReply = { ok: false; result: null; message: string };
export type Reply<T = unknown> = OkReply<T> | FailReply;

export const ok = <T>(result: T, message?: string): OkReply<T> =>
  message === undefined ? { ok: true, result } : { ok: true, result, message };
export const fail = (message: string): FailReply => ({ ok: false, result: null, message });
