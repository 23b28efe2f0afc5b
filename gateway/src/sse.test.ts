import { EVENT_TYPES, type EventEnvelope, type Identity } from '@caravan/contracts';
import { createLogger } from '@caravan/service-kit';
import type { Response } from 'express';
import { SseHub } from './sse';

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
});
