import { EVENT_TYPES, GOODS_MOVED_EVENT, type EventEnvelope, type Identity } from '@caravan/contracts';
import { createLogger } from '@caravan/service-kit';
import type { Response } from 'express';
import type { IdentityCache } from './domain/identityCache';
import { applyIdentityEvent } from './events';
import { ALL_STREAMS, SseHub } from './sse';

const admin: Identity = {
  user_id: 1,
  fullname: 'admin',
  roles: ['admin'],
  state: 'working',
  client_ids: [],
  operator_ids: [],
};

/** What a browser's stream received: the data lines written to it. */
function browser() {
  const written: string[] = [];
  const res = { write: (chunk: string) => written.push(chunk), on: () => res, end: () => {} };
  return {
    res: res as unknown as Response,
    titles: () => written.map((w) => /"title":"([^"]*)"/.exec(w)?.[1]),
    types: () => written.map((w) => /"type":"([^"]*)"/.exec(w)?.[1]),
  };
}

const walletEvent = (seq: number | undefined, title: string): EventEnvelope => ({
  id: `00000000-0000-4000-8000-${String(seq ?? 0).padStart(12, '0')}`,
  type: EVENT_TYPES.entityChanged,
  version: 1,
  occurred_at: new Date().toISOString(),
  source: 'svc-payments',
  key: '7',
  actor: 1,
  ...(seq === undefined ? {} : { seq }),
  data: { entity: 'wallet', id: 7, op: 'updated', row: { id: 7, title, client_id: 1 } },
});

describe('SSE fan-out', () => {
  let hub: SseHub;
  afterEach(() => hub.stop());

  it('drops a change older than one already sent for the same row', () => {
    hub = new SseHub(async () => null, createLogger('test', 'silent'));
    const b = browser();
    hub.add({ identity: admin, userId: 1, tokenHash: 'h', res: b.res });
    hub.dispatch(walletEvent(10, 'второе'));
    hub.dispatch(walletEvent(9, 'первое')); // a second relay delivered the older change late
    hub.dispatch(walletEvent(11, 'третье'));
    hub.dispatch(walletEvent(11, 'третье')); // redelivered
    expect(b.titles()).toEqual(['второе', 'третье']);
  });

  it("passes over events that are no row change (goods.moved shares the orders' topic), without a warning", () => {
    const log = createLogger('test', 'silent');
    const warn = jest.spyOn(log, 'warn');
    hub = new SseHub(async () => null, log);
    const b = browser();
    hub.add({ identity: admin, userId: 1, tokenHash: 'h', res: b.res });
    hub.dispatch({
      ...walletEvent(12, 'x'),
      type: GOODS_MOVED_EVENT,
      data: { transfer_id: 't', from_order_id: 7, shares: [] },
    });
    expect(b.titles()).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
  });

  it('sends an order change to its client and its operator on the card and the list streams, to nobody else', () => {
    hub = new SseHub(async () => null, createLogger('test', 'silent'));
    const as = (client_ids: number[], operator_ids: number[], roles: Identity['roles']): Identity => ({
      ...admin,
      roles,
      client_ids,
      operator_ids,
    });
    const card = browser();
    const list = browser();
    const operatorList = browser();
    const stranger = browser();
    hub.add({
      identity: as([1], [], ['client']),
      userId: 2,
      tokenHash: 'a',
      type: 'client_order_item',
      param: 5,
      res: card.res,
    });
    hub.add({ identity: as([1], [], ['client']), userId: 2, tokenHash: 'b', type: 'order', res: list.res });
    hub.add({
      identity: as([], [3], ['operator']),
      userId: 3,
      tokenHash: 'c',
      type: 'order',
      res: operatorList.res,
    });
    hub.add({
      identity: as([2], [], ['client']),
      userId: 4,
      tokenHash: 'd',
      type: 'order',
      res: stranger.res,
    });
    hub.dispatch({
      ...walletEvent(1, ''),
      source: 'svc-orders',
      key: '5',
      data: {
        entity: 'client_order',
        id: 5,
        op: 'updated',
        row: { id: 5, title: 'заказ 5', client_id: 1, operator_id: 3 },
      },
    });
    expect(card.titles()).toEqual(['заказ 5']);
    expect(list.titles()).toEqual(['заказ 5']);
    expect(operatorList.titles()).toEqual(['заказ 5']);
    expect(stranger.titles()).toEqual([]);
  });

  it("carries every subscription on a browser's one stream: each change once per type, with its param, only what the user may see", () => {
    hub = new SseHub(async () => null, createLogger('test', 'silent'));
    const client: Identity = { ...admin, roles: ['client'], client_ids: [1] };
    const written: string[] = [];
    const res = { write: (chunk: string) => written.push(chunk), on: () => res, end: () => {} };
    const strangerWritten: string[] = [];
    const strangerRes = {
      write: (c: string) => strangerWritten.push(c),
      on: () => strangerRes,
      end: () => {},
    };
    hub.add({
      identity: client,
      userId: 2,
      tokenHash: 'a',
      type: ALL_STREAMS,
      res: res as unknown as Response,
    });
    hub.add({
      identity: { ...client, client_ids: [2] },
      userId: 4,
      tokenHash: 'd',
      type: ALL_STREAMS,
      res: strangerRes as unknown as Response,
    });
    hub.dispatch(walletEvent(1, 'кошелёк'));
    hub.dispatch({
      ...walletEvent(1, ''),
      source: 'svc-orders',
      key: '5',
      data: {
        entity: 'client_order_position',
        id: 40,
        op: 'updated',
        row: { id: 40, title: 'позиция', client_order_id: 5, client_id: 1, operator_id: 3 },
      },
    });
    const messages = written.map((w) => {
      expect(w).toMatch(/^data: /); // unnamed: one listener in the browser takes every type
      const m = JSON.parse(w.slice('data: '.length)) as { type: string; entity: string; param: number };
      return [m.type, m.entity, m.param];
    });
    expect(messages).toEqual([
      ['wallet_item', 'wallet', 7],
      ['client_order_item', 'client_order_position', 5],
      ['order', 'client_order_position', 5],
    ]);
    expect(strangerWritten).toEqual([]);
  });

  it("sends a notification only to the user it names: not to an admin, not to the same client's other user", () => {
    hub = new SseHub(async () => null, createLogger('test', 'silent'));
    const client: Identity = { ...admin, roles: ['client'], client_ids: [1] };
    const recipient = browser();
    const sameClient = browser();
    const anAdmin = browser();
    const bell = browser();
    hub.add({ identity: client, userId: 2, tokenHash: 'a', type: ALL_STREAMS, res: recipient.res });
    hub.add({ identity: client, userId: 5, tokenHash: 'b', type: ALL_STREAMS, res: sameClient.res });
    hub.add({ identity: admin, userId: 1, tokenHash: 'c', type: ALL_STREAMS, res: anAdmin.res });
    hub.add({ identity: client, userId: 2, tokenHash: 'd', type: 'notification', res: bell.res });
    hub.dispatch({
      ...walletEvent(1, ''),
      source: 'svc-orders',
      key: '70',
      data: {
        entity: 'notification',
        id: 70,
        op: 'created',
        row: { id: 70, title: 'заказ отправлен в РФ', user_table_id: 2, client_id: 1 },
      },
    });
    expect(recipient.titles()).toEqual(['заказ отправлен в РФ']);
    expect(bell.titles()).toEqual(['заказ отправлен в РФ']);
    expect(sameClient.titles()).toEqual([]);
    expect(anAdmin.titles()).toEqual([]);
  });

  it("streams a chat's messages to the order's participants only: its client, its operator, admins (docs/adr/0023)", () => {
    hub = new SseHub(async () => null, createLogger('test', 'silent'));
    const streams = {
      client: browser(),
      operator: browser(),
      admin: browser(),
      otherClient: browser(),
      otherOperator: browser(),
      anotherChat: browser(),
    };
    const as = (client_ids: number[], operator_ids: number[], roles: Identity['roles']): Identity => ({
      ...admin,
      roles,
      client_ids,
      operator_ids,
    });
    const open = (identity: Identity, b: ReturnType<typeof browser>, type = ALL_STREAMS, param?: number) =>
      hub.add({ identity, userId: 9, tokenHash: 'x', type, ...(param ? { param } : {}), res: b.res });
    open(as([1], [], ['client']), streams.client, 'chat_item', 12);
    open(as([], [3], ['operator']), streams.operator);
    open(admin, streams.admin, 'chat_item', 12);
    open(as([2], [], ['client']), streams.otherClient);
    // serves client 1 too, but the order is operator 3's
    open(as([], [4], ['operator']), streams.otherOperator);
    open(as([1], [], ['client']), streams.anotherChat, 'chat_item', 13);
    hub.dispatch({
      ...walletEvent(1, ''),
      source: 'svc-orders',
      key: '80',
      data: {
        entity: 'chat_message',
        id: 80,
        op: 'created',
        row: { id: 80, chat_id: 12, title: 'Когда выкуп?', client_id: 1, operator_id: 3, table_id: 5 },
      },
    });
    expect(streams.client.titles()).toEqual(['Когда выкуп?']);
    // a browser's one stream carries it once per type it feeds: the chat box and the card's timeline (ADR 0029)
    expect(streams.operator.titles()).toEqual(['Когда выкуп?', 'Когда выкуп?']);
    expect(streams.operator.types().sort()).toEqual(['chat_item', 'client_order_item']);
    expect(streams.admin.titles()).toEqual(['Когда выкуп?']);
    expect(streams.otherClient.titles()).toEqual([]);
    expect(streams.otherOperator.titles()).toEqual([]);
    expect(streams.anotherChat.titles()).toEqual([]);
  });

  it("follows a user's links as they change: a client unlinked stops hearing its orders, the new one starts", async () => {
    const client: Identity = { ...admin, roles: ['client'], client_ids: [1] };
    let now = client;
    hub = new SseHub(
      async () => ({ tokenHash: 'a', user: { state: 'working' }, identity: now, signed: '' }) as never,
      createLogger('test', 'silent'),
    );
    const b = browser();
    hub.add({ identity: client, userId: 2, tokenHash: 'a', type: 'order', res: b.res });
    const order = (seq: number, clientId: number, title: string): EventEnvelope => ({
      ...walletEvent(seq, ''),
      source: 'svc-orders',
      key: String(seq),
      data: { entity: 'client_order', id: seq, op: 'updated', row: { id: seq, title, client_id: clientId } },
    });
    hub.dispatch(order(1, 1, 'заказ клиента 1'));
    now = { ...client, client_ids: [2] };
    await hub.revalidate(() => true);
    hub.dispatch(order(2, 1, 'ещё заказ клиента 1'));
    hub.dispatch(order(3, 2, 'заказ клиента 2'));
    expect(b.titles()).toEqual(['заказ клиента 1', 'заказ клиента 2']);
  });

  it('re-reads, on a link changed, only the sessions it may alter: its user and the holders of its client', async () => {
    const read: string[] = [];
    hub = new SseHub(
      async (hash) => {
        read.push(hash);
        return null;
      },
      createLogger('test', 'silent'),
    );
    const as = (client_ids: number[]): Identity => ({ ...admin, roles: ['client'], client_ids });
    hub.add({ identity: as([]), userId: 7, tokenHash: 'linked', res: browser().res });
    hub.add({ identity: as([3]), userId: 8, tokenHash: 'held-before', res: browser().res });
    hub.add({ identity: as([4]), userId: 9, tokenHash: 'untouched', res: browser().res });
    const cache = { dropWhere: jest.fn() } as unknown as IdentityCache;
    applyIdentityEvent(
      {
        ...walletEvent(1, ''),
        source: 'gateway',
        data: {
          entity: 'client_user_link',
          id: 1,
          op: 'updated',
          row: { id: 1, client_id: 3, user_table_id: 7 },
        },
      },
      cache,
      hub,
    );
    await new Promise((r) => setImmediate(r));
    expect(read.sort()).toEqual(['held-before', 'linked']);
    expect(cache.dropWhere).toHaveBeenCalledTimes(1);
  });
});
