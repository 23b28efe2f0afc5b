import type { ServerEvent } from './useServerEvents';

/** The gateway's stream type carrying every subscription of a browser (gateway's ALL_STREAMS). */
export const ALL_STREAMS = '*';

const MAX_FAILURES = 6; // spec §9: SSE reconnect up to 6 attempts; the counter resets after 10 s connected
const RESET_AFTER_MS = 10_000;
/** A tab's stream outlives a moment with no subscription (a route change unmounts one card, mounts the next). */
const IDLE_CLOSE_MS = 2_000;

type Subscription = {
  type: string;
  param: number | undefined;
  onEvent: (e: ServerEvent) => void;
  failedMessage: string;
};
/** What the leading tab passes to the others over the channel. */
type Relayed = { kind: 'event'; event: ServerEvent } | { kind: 'failed' };

type Source = Pick<EventSource, 'close' | 'onopen' | 'onerror' | 'onmessage'>;
type Channel = Pick<BroadcastChannel, 'postMessage' | 'close' | 'onmessage'>;
type Locks = { request: (name: string, grant: () => Promise<void>) => Promise<unknown> };

/** The browser's pieces, replaceable in tests. */
export type StreamEnvironment = {
  token: () => string | null;
  openSource: (url: string) => Source;
  /** Absent where the browser lacks BroadcastChannel or Web Locks: then each tab keeps its own stream. */
  openChannel?: (name: string) => Channel;
  locks?: Locks;
  notifyFailed: (message: string) => void;
};

/** A short, stable name for the session (the token itself never goes into a channel's name). */
function sessionKey(token: string): string {
  let h = 5381;
  for (let i = 0; i < token.length; i++) h = ((h << 5) + h + token.charCodeAt(i)) | 0;
  return (h >>> 0).toString(36);
}

/**
 * One live stream per browser (docs/adr/0017). Browsers allow 6 HTTP/1.1 connections per server, and a
 * tab used to hold 3–4 streams, so a second tab never loaded. Now every subscription of a tab is served
 * from one stream (`/api/sse?type=*`) and picked out here by type and param; across the tabs of one
 * browser a single tab — the holder of a Web Lock named after the session — keeps that stream and
 * relays each message to the others over a BroadcastChannel. When it closes, the lock passes to
 * another tab, which opens the stream.
 */
export class ServerStream {
  private readonly subscriptions = new Set<Subscription>();
  private session: string | null = null;
  private channel: Channel | undefined;
  private source: Source | undefined;
  private releaseLead: (() => void) | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly env: StreamEnvironment) {}

  subscribe(subscription: Subscription): () => void {
    this.subscriptions.add(subscription);
    clearTimeout(this.idleTimer);
    this.connect();
    return () => {
      this.subscriptions.delete(subscription);
      if (this.subscriptions.size) return;
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => this.disconnect(), IDLE_CLOSE_MS);
    };
  }

  /** Is this tab the one holding the stream? */
  get leading(): boolean {
    return this.source !== undefined;
  }

  /** (Re)joins the browser's stream for the current session; a new login in any tab means a new session. */
  private connect() {
    const token = this.env.token();
    if (!token) return;
    const session = sessionKey(token);
    if (session === this.session) return;
    this.disconnect();
    this.session = session;
    const { openChannel, locks } = this.env;
    if (!openChannel || !locks) {
      this.lead(token);
      return;
    }
    const name = `caravan-sse-${session}`;
    const channel = openChannel(name);
    channel.onmessage = (message: MessageEvent<Relayed>) => this.receive(message.data);
    this.channel = channel;
    void locks.request(name, () => {
      if (this.session !== session) return Promise.resolve();
      this.lead(token);
      return new Promise<void>((resolve) => (this.releaseLead = resolve));
    });
  }

  private lead(token: string) {
    const query = new URLSearchParams({ authToken: token, type: ALL_STREAMS });
    const source = this.env.openSource(`/api/sse?${query}`);
    let failures = 0;
    let resetTimer: ReturnType<typeof setTimeout> | undefined;
    source.onopen = () => {
      resetTimer = setTimeout(() => (failures = 0), RESET_AFTER_MS);
    };
    source.onerror = () => {
      clearTimeout(resetTimer);
      if (++failures > MAX_FAILURES) {
        source.close();
        this.relay({ kind: 'failed' });
      }
    };
    source.onmessage = (message: MessageEvent<string>) =>
      this.relay({ kind: 'event', event: JSON.parse(message.data) as ServerEvent });
    this.source = source;
  }

  /** What the leading tab received: to its own subscriptions and to every other tab. */
  private relay(relayed: Relayed) {
    this.receive(relayed);
    this.channel?.postMessage(relayed);
  }

  private receive(relayed: Relayed) {
    if (relayed.kind === 'failed') {
      const first = this.subscriptions.values().next().value;
      if (first) this.env.notifyFailed(first.failedMessage);
      return;
    }
    const { event } = relayed;
    for (const s of [...this.subscriptions])
      if (s.type === event.type && (s.param === undefined || s.param === event.param)) s.onEvent(event);
  }

  private disconnect() {
    this.source?.close();
    this.source = undefined;
    this.channel?.close();
    this.channel = undefined;
    this.releaseLead?.();
    this.releaseLead = undefined;
    this.session = null;
  }
}
