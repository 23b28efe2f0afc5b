import { useEffect, useRef } from 'react';
import { getAuthToken } from './auth';
import { ServerStream, type StreamEnvironment } from './serverStream';
import { toast } from './toaster';

export type ServerEvent = {
  ok: boolean;
  type: string;
  id: number;
  op: string;
  /** The row's value of the stream type's param field (the wallet's or the order's id). */
  param?: number;
  amount?: string;
  item: Record<string, unknown>;
  message?: string;
};

const browserEnvironment = (): StreamEnvironment => ({
  token: getAuthToken,
  openSource: (url) => new EventSource(url),
  ...(typeof BroadcastChannel === 'function' && typeof navigator !== 'undefined' && navigator.locks
    ? {
        openChannel: (name: string) => new BroadcastChannel(name),
        locks: {
          request: (name: string, grant: () => Promise<void>) => navigator.locks.request(name, grant),
        },
      }
    : {}),
  notifyFailed: (message) => void toast(message, 'danger'),
});

let stream: ServerStream | undefined;
/** The tab's share of the browser's one stream (docs/adr/0017), made on first use. */
const serverStream = () => (stream ??= new ServerStream(browserEnvironment()));

/**
 * Calls `onEvent` for each server message of one stream type (optionally one item: the wallet's or the
 * order's id). Every subscription of every tab rides the browser's one stream; after more than 6
 * failed reconnects in a row the user is told.
 */
export function useServerEvents(
  type: string,
  param: number | undefined,
  onEvent: (e: ServerEvent) => void,
  failedMessage = 'ошибка: SSE connection failed',
) {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(
    () =>
      serverStream().subscribe({ type, param, failedMessage, onEvent: (event) => handler.current(event) }),
    [type, param, failedMessage],
  );
}
