import { ServerStream, type StreamEnvironment } from './serverStream';
import type { ServerEvent } from './useServerEvents';

/** A browser of several tabs: its open EventSources, a BroadcastChannel bus and one Web Lock queue. */
function browser() {
  const sources: { url: string; closed: boolean; onmessage?: (m: { data: string }) => void }[] = [];
  const channels: { name: string; closed: boolean; onmessage?: (m: { data: unknown }) => void }[] = [];
  const held = new Map<string, (() => Promise<void>)[]>();
  const failures: string[] = [];
  const grantNext = (name: string) => {
    const queue = held.get(name)!;
    const grant = queue[0];
    if (!grant) return;
    void grant().then(() => {
      queue.shift();
      grantNext(name);
    });
  };
  const env = (): StreamEnvironment => ({
    token: () => 'token-1',
    openSource: (url) => {
      const source = { url, closed: false, close: () => (source.closed = true) };
      sources.push(source);
      return source as unknown as EventSource;
    },
    openChannel: (name) => {
      const channel = {
        name,
        closed: false,
        close: () => (channel.closed = true),
        postMessage: (data: unknown) => {
          for (const other of channels)
            if (other !== channel && other.name === name && !other.closed) other.onmessage?.({ data });
        },
      };
      channels.push(channel);
      return channel as unknown as BroadcastChannel;
    },
    locks: {
      request: async (name, grant) => {
        const queue = held.get(name) ?? [];
        held.set(name, queue);
        queue.push(grant);
        if (queue.length === 1) grantNext(name);
      },
    },
    notifyFailed: (message) => failures.push(message),
  });
  const open = () => sources.filter((s) => !s.closed);
  const send = (event: Partial<ServerEvent>) =>
    open()[0]!.onmessage!({ data: JSON.stringify({ ok: true, op: 'updated', item: {}, ...event }) });
  return { env, open, send, failures };
}

describe("a browser's one server stream", () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());
  const tick = async () => {
    await Promise.resolve();
    await Promise.resolve();
  };

  it('ten tabs with several subscriptions each share one stream and each gets its own live updates', async () => {
    const b = browser();
    const tabs = Array.from({ length: 10 }, () => new ServerStream(b.env()));
    const seen: string[][] = tabs.map(() => []);
    tabs.forEach((tab, i) => {
      tab.subscribe({
        type: 'wallet_item',
        param: undefined,
        failedMessage: '',
        onEvent: (e) => seen[i]!.push(`wallet ${e.id}`),
      });
      tab.subscribe({
        type: 'client_order_item',
        param: i + 1,
        failedMessage: '',
        onEvent: (e) => seen[i]!.push(`card ${e.id}`),
      });
      tab.subscribe({
        type: 'order',
        param: undefined,
        failedMessage: '',
        onEvent: (e) => seen[i]!.push(`list ${e.id}`),
      });
    });
    await tick();
    expect(b.open().map((s) => s.url)).toEqual(['/api/sse?authToken=token-1&type=*']);

    b.send({ type: 'wallet_item', id: 7, param: 7 });
    b.send({ type: 'client_order_item', id: 3, param: 3 });
    b.send({ type: 'order', id: 3, param: 3 });
    expect(seen[0]).toEqual(['wallet 7', 'list 3']);
    expect(seen[2]).toEqual(['wallet 7', 'card 3', 'list 3']);
    expect(seen.every((s) => s.filter((x) => x === 'wallet 7').length === 1)).toBe(true);
  });

  it('when the tab holding the stream closes, another one opens it', async () => {
    const b = browser();
    const first = new ServerStream(b.env());
    const second = new ServerStream(b.env());
    const unsubscribe = first.subscribe({
      type: 'wallet_item',
      param: undefined,
      failedMessage: '',
      onEvent: () => {},
    });
    const seen: number[] = [];
    second.subscribe({
      type: 'wallet_item',
      param: undefined,
      failedMessage: '',
      onEvent: (e) => seen.push(e.id),
    });
    await tick();
    expect([first.leading, second.leading]).toEqual([true, false]);

    unsubscribe();
    jest.advanceTimersByTime(2_000);
    for (let i = 0; i < 5; i++) await tick();
    expect([first.leading, second.leading]).toEqual([false, true]);
    expect(b.open()).toHaveLength(1);
    b.send({ type: 'wallet_item', id: 9, param: 9 });
    expect(seen).toEqual([9]);
  });

  it('a moment without subscriptions (a route change) keeps the stream', async () => {
    const b = browser();
    const tab = new ServerStream(b.env());
    const card = tab.subscribe({ type: 'client_order_item', param: 1, failedMessage: '', onEvent: () => {} });
    await tick();
    card();
    tab.subscribe({ type: 'client_order_item', param: 2, failedMessage: '', onEvent: () => {} });
    jest.advanceTimersByTime(5_000);
    await tick();
    expect(b.open()).toHaveLength(1);
  });

  it('after more than six failed reconnects every tab tells its user once', async () => {
    const b = browser();
    const tabs = [new ServerStream(b.env()), new ServerStream(b.env())];
    for (const tab of tabs) {
      tab.subscribe({ type: 'wallet_item', param: undefined, failedMessage: 'нет связи', onEvent: () => {} });
      tab.subscribe({ type: 'order', param: undefined, failedMessage: 'нет связи', onEvent: () => {} });
    }
    await tick();
    const source = b.open()[0] as unknown as { onerror: () => void };
    for (let i = 0; i < 7; i++) source.onerror();
    expect(b.failures).toEqual(['нет связи', 'нет связи']);
  });
});
