import { useEffect, useRef } from 'react';
import { getAuthToken } from './auth';
import { toast } from './toaster';

export type ServerEvent = {
  ok: boolean;
  type: string;
  id: number;
  op: string;
  amount?: string;
  item: Record<string, unknown>;
  message?: string;
};

const MAX_FAILURES = 6; // spec §9: SSE reconnect up to 6 attempts; the counter resets after 10 s connected
const RESET_AFTER_MS = 10_000;

/**
 * Subscribes to GET /api/sse for one stream type (optionally one item) and calls `onEvent` for each
 * message. EventSource reconnects by itself; after more than 6 failures in a row the user is told.
 */
export function useServerEvents(
  type: string,
  param: number | undefined,
  onEvent: (e: ServerEvent) => void,
  failedMessage = 'ошибка: SSE connection failed',
) {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    const token = getAuthToken();
    if (!token) return;
    const query = new URLSearchParams({ authToken: token, type });
    if (param !== undefined) query.set('param', String(param));
    const source = new EventSource(`/api/sse?${query}`);
    let failures = 0;
    let resetTimer: ReturnType<typeof setTimeout> | undefined;
    source.onopen = () => {
      resetTimer = setTimeout(() => (failures = 0), RESET_AFTER_MS);
    };
    source.onerror = () => {
      clearTimeout(resetTimer);
      if (++failures > MAX_FAILURES) {
        source.close();
        void toast(failedMessage, 'danger');
      }
    };
    source.addEventListener(type, (message) => {
      handler.current(JSON.parse((message as MessageEvent<string>).data) as ServerEvent);
    });
    return () => {
      clearTimeout(resetTimer);
      source.close();
    };
  }, [type, param, failedMessage]);
}
