import {
  acquiringPayment,
  chat,
  chatMessage,
  clientOrder,
  clientOrderPosition,
  ENTITY_TOPICS,
  notification,
  EntityChanged,
  EVENT_TYPES,
  finOperation,
  isAdmin,
  task,
  wallet,
  type EntityContract,
  type EventEnvelope,
  type Identity,
} from '@caravan/contracts';
import { ownsValues, type Logger, type Ownership } from '@caravan/service-kit';
import type { Response } from 'express';
import type { ResolvedSession } from './domain/identityCache';

/**
 * One entity feeding a stream: who may see its rows — their owners (`ownership`, admins see every row)
 * or only the one user a row names (`recipient`: a notification, not even an admin sees another's) —
 * and which row field the stream's param matches.
 */
type Feed = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  contract: EntityContract<any>;
  paramField: string;
} & ({ ownership: Ownership; recipient?: undefined } | { recipient: string; ownership?: undefined });

/** May this stream's user see this row of the feed? */
const sees = (client: SseClient, feed: Feed, row: Record<string, unknown>) =>
  feed.recipient !== undefined
    ? Number(row[feed.recipient]) === client.userId
    : ownsValues(client.identity, feed.ownership, row);
const ORDER_OWNERS: Ownership = { client: 'client_id', operator: 'operator_id' };
const orderFeeds: Feed[] = [
  { contract: clientOrder, ownership: ORDER_OWNERS, paramField: 'id' },
  // positions' events carry their order's client and operator (svc-orders' toEvent)
  { contract: clientOrderPosition, ownership: ORDER_OWNERS, paramField: 'client_order_id' },
];
/** A payment through the bank: the open top-up or payment dialog waits for it to settle. */
const acquiringFeed = (paramField: string): Feed => ({
  contract: acquiringPayment,
  ownership: acquiringPayment.ownership!,
  paramField,
});

/**
 * Tasks and chats of an order (docs/adr/0023): their rows and messages' events carry the order's client
 * and operator (svc-orders keeps them on the row, or adds them in toEvent), so only the order's
 * participants — its client's users, its operator's users, admins — receive them.
 */
const orderCardFeeds: Feed[] = [
  { contract: task, ownership: ORDER_OWNERS, paramField: 'table_id' },
  { contract: chat, ownership: ORDER_OWNERS, paramField: 'table_id' },
  // the card's timeline tells the chat's messages (docs/adr/0025)
  { contract: chatMessage, ownership: ORDER_OWNERS, paramField: 'table_id' },
];
/** An open chat box (param: the chat's id): the chat and its messages. */
const chatFeeds: Feed[] = [
  { contract: chat, ownership: ORDER_OWNERS, paramField: 'id' },
  { contract: chatMessage, ownership: ORDER_OWNERS, paramField: 'chat_id' },
];

/**
 * Browser stream types (spec §7) and the entities whose changes feed each one: `wallet_item` (param: a
 * wallet id: the wallet, its movements, its payments through the bank), `client_order_item` (param: an
 * order id, the open card: the order, its positions and its payments through the bank),
 * `order` (every order and position the user may see, for lists), `notification` (the user's own),
 * `chat_item` (param: a chat id, the open chat box: the chat and its messages; ours, docs/adr/0023). A stream
 * without a type gets every
 * type. Each message names its `entity` and its `param` (the row's value of the type's param field).
 * The stream of type `*` (ALL_STREAMS) is a browser's one stream (docs/adr/0017): each change once per
 * type it feeds, as unnamed messages, every subscription of every tab picked out by the browser.
 */
const STREAMS: Record<string, Feed[]> = {
  wallet_item: [
    { contract: wallet, ownership: wallet.ownership!, paramField: 'id' },
    { contract: finOperation, ownership: finOperation.ownership!, paramField: 'wallet_id' },
    acquiringFeed('wallet_id'),
  ],
  client_order_item: [...orderFeeds, acquiringFeed('client_order_id'), ...orderCardFeeds],
  order: orderFeeds,
  // the user's own notifications (new, gathered, read in another tab): the bell and the drawer
  notification: [{ contract: notification, recipient: 'user_table_id', paramField: 'id' }],
  chat_item: chatFeeds,
};

/** The stream type of a browser's one stream carrying all its subscriptions (docs/adr/0017). */
export const ALL_STREAMS = '*';

/** The topics the SSE streams are fed from. */
export const SSE_TOPICS: readonly string[] = [
  ...new Set(
    Object.values(STREAMS)
      .flat()
      .map((f) => ENTITY_TOPICS[f.contract.name as keyof typeof ENTITY_TOPICS]),
  ),
];

export type SseClient = {
  identity: Identity;
  userId: number;
  tokenHash: string;
  type?: string;
  param?: number;
  res: Response;
};

/** How often every open stream's session is checked again (idle and absolute expiry, a missed event). */
const REVALIDATE_EVERY_MS = 30_000;
const HEARTBEAT_EVERY_MS = 25_000;

/**
 * Fans events out to the browsers connected to this gateway instance, sending each only what its
 * user may see, by the same ownership rule the owning service applies. A stream lives as long as its
 * session: logout, a fired user, a changed link or an expired session end it or narrow it at once.
 */
export class SseHub {
  private readonly clients = new Set<SseClient>();
  /** Who may receive a row, by the keys `sees` checks: a change looks at these streams only, not at every one. */
  private readonly index = new StreamIndex();
  private readonly timers: NodeJS.Timeout[] = [];
  /** The newest event seen per entity row: an older one arriving late (another relay, a redelivery) is dropped. */
  private readonly newest = new Map<string, number>();
  delivered = 0;

  constructor(
    private readonly resolve: (tokenHash: string) => Promise<ResolvedSession | null>,
    private readonly log: Logger,
  ) {
    this.timers.push(setInterval(() => this.broadcastComment('ping'), HEARTBEAT_EVERY_MS));
    this.timers.push(setInterval(() => void this.revalidate(() => true), REVALIDATE_EVERY_MS));
  }

  add(client: SseClient) {
    this.clients.add(client);
    this.index.add(client);
    client.res.on('close', () => this.forget(client));
  }

  private forget(client: SseClient) {
    this.clients.delete(client);
    this.index.remove(client);
  }

  get size() {
    return this.clients.size;
  }

  private end(client: SseClient) {
    this.forget(client);
    client.res.end();
  }

  endSession(tokenHash: string) {
    for (const c of this.clients) if (c.tokenHash === tokenHash) this.end(c);
  }

  endUser(userId: number) {
    for (const c of this.clients) if (c.userId === userId) this.end(c);
  }

  /** Re-reads the sessions of the matching streams: ended or not working → closed; links changed → narrowed. */
  async revalidate(which: (c: SseClient) => boolean) {
    for (const client of [...this.clients].filter(which)) {
      try {
        const session = await this.resolve(client.tokenHash);
        if (!session || session.user.state !== 'working') this.end(client);
        else if (session.identity !== client.identity && this.clients.has(client)) {
          this.index.remove(client);
          client.identity = session.identity;
          this.index.add(client);
        }
      } catch (err) {
        this.log.warn({ err }, 'sse: session check failed, keeping the stream until the next check');
      }
    }
  }

  dispatch(envelope: EventEnvelope) {
    // other events share the entities' topics (goods.moved on the orders'): they are no row change to stream
    if (envelope.type !== EVENT_TYPES.entityChanged) return;
    let change: EntityChanged;
    try {
      change = EntityChanged.parse(envelope.data);
    } catch (err) {
      this.log.warn({ err }, 'sse: skipping an invalid event');
      return;
    }
    const types = Object.entries(STREAMS).flatMap(([type, feeds]) =>
      feeds.filter((f) => f.contract.name === change.entity).map((feed) => [type, feed] as const),
    );
    if (!types.length || this.isStale(change, envelope)) return;
    for (const [type, feed] of types) {
      const param = Number(change.row[feed.paramField] ?? change.id);
      const payload = JSON.stringify({
        ok: true,
        type,
        entity: change.entity,
        id: change.id,
        op: change.op,
        param,
        amount: change.row.amount,
        item: change.row,
      });
      for (const client of this.index.candidates(feed, change.row)) {
        const all = client.type === ALL_STREAMS;
        if (!all && (client.type ? client.type !== type : type !== types[0]![0])) continue;
        if (client.param !== undefined && client.param !== param) continue;
        if (!sees(client, feed, change.row)) continue;
        client.res.write(all ? `data: ${payload}\n\n` : `event: ${type}\ndata: ${payload}\n\n`);
        this.delivered++;
      }
    }
  }

  /**
   * Is this change older than one already sent for the same row? Events carry their producer's per-key
   * `seq` (docs/events.md): a later change of a row always has a larger one. Two relays or a redelivery
   * can hand them over out of order; the stale one is dropped, never shown over the newer state.
   */
  private isStale(change: EntityChanged, envelope: EventEnvelope): boolean {
    if (envelope.seq === undefined) return false;
    const key = `${envelope.source}:${change.entity}:${change.id}`;
    const seen = this.newest.get(key);
    if (seen !== undefined && seen >= envelope.seq) return true;
    if (this.newest.size > 100_000) this.newest.clear();
    this.newest.set(key, envelope.seq);
    return false;
  }

  private broadcastComment(text: string) {
    for (const client of this.clients) client.res.write(`: ${text}\n\n`);
  }

  stop() {
    for (const timer of this.timers) clearInterval(timer);
    for (const client of this.clients) client.res.end();
    this.clients.clear();
    this.index.clear();
  }
}

/**
 * The open streams by what makes a row theirs (the keys of `sees` / ownsValues): the user, each client and
 * operator of the identity's roles, admin. A change's candidates are the streams under its row's keys, so
 * fanning it out costs its recipients, not every stream of the gateway; `sees` still decides.
 */
type Streams = Map<number, Set<SseClient>>;
class StreamIndex {
  private readonly byUser: Streams = new Map();
  private readonly byClient: Streams = new Map();
  private readonly byOperator: Streams = new Map();
  private readonly admins = new Set<SseClient>();

  add(client: SseClient) {
    for (const [map, key] of this.keys(client)) {
      let set = map.get(key);
      if (!set) map.set(key, (set = new Set()));
      set.add(client);
    }
    if (isAdmin(client.identity)) this.admins.add(client);
  }

  remove(client: SseClient) {
    for (const [map, key] of this.keys(client)) {
      const set = map.get(key);
      set?.delete(client);
      if (set?.size === 0) map.delete(key);
    }
    this.admins.delete(client);
  }

  clear() {
    for (const map of [this.byUser, this.byClient, this.byOperator]) map.clear();
    this.admins.clear();
  }

  /** The streams that may see this row of the feed (each once). */
  candidates(feed: Feed, row: Record<string, unknown>): Iterable<SseClient> {
    if (feed.recipient !== undefined) return this.byUser.get(Number(row[feed.recipient])) ?? [];
    const found = new Set<SseClient>(this.admins);
    const add = (set: Set<SseClient> | undefined) => set?.forEach((c) => found.add(c));
    if (feed.ownership.operator) add(this.byOperator.get(Number(row[feed.ownership.operator])));
    if (feed.ownership.client) add(this.byClient.get(Number(row[feed.ownership.client])));
    return found;
  }

  private keys(client: SseClient): [Streams, number][] {
    const { identity } = client;
    const under = (map: Streams, ids: number[]) => ids.map((id): [Streams, number] => [map, id]);
    return [
      [this.byUser, client.userId],
      ...(identity.roles.includes('client') ? under(this.byClient, identity.client_ids) : []),
      ...(identity.roles.includes('operator') ? under(this.byOperator, identity.operator_ids) : []),
    ];
  }
}
