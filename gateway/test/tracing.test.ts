import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ENTITY_TOPICS, IDENTITY_HEADER, prefixedTopic } from '@caravan/contracts';
import {
  DEV_IDENTITY_SECRET,
  eventually,
  flushTraces,
  identityOf,
  callService,
  signIdentity,
  readRequestBody,
  startService,
  type RunningService,
} from '@caravan/service-kit';
import { carriersService } from '../../svc-carriers/src/app';
import { ordersService } from '../../svc-orders/src/app';
import { paymentsService } from '../../svc-payments/src/app';
import { postMovements } from '../../svc-payments/src/domain/ledger';
import { startGateway } from '../src/app';
import { login } from './system';

/**
 * One user action is one trace (docs/adr/0033): the browser's request to the gateway, the call to
 * svc-carriers, its outbox write, the relay's publish and svc-orders' handling of the event, exported
 * over OTLP/HTTP (JSON) to a receiver of our own.
 */
type ExportedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: { stringValue?: string } }[];
};
const KIND = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 };

/** A stand-in for an OpenTelemetry collector: POST /v1/traces with OTLP JSON, spans kept in a list. */
async function startReceiver() {
  const spans: ExportedSpan[] = [];
  const server: Server = createServer((req, res) => {
    void readRequestBody(req, 16 * 1024 * 1024).then((body) => {
      if (
        req.method === 'POST' &&
        req.url === '/v1/traces' &&
        /json/.test(req.headers['content-type'] ?? '')
      ) {
        const request = JSON.parse(body) as {
          resourceSpans: { scopeSpans: { spans: ExportedSpan[] }[] }[];
        };
        for (const resource of request.resourceSpans)
          for (const scope of resource.scopeSpans) spans.push(...scope.spans);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, spans, close: () => new Promise((r) => server.close(r)) };
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let carriers: RunningService;
let orders: RunningService;
let payments: RunningService;
let gateway: Awaited<ReturnType<typeof startGateway>>;

beforeAll(async () => {
  receiver = await startReceiver();
  const env = { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, PORT: '0' };
  [carriers, orders, payments] = await Promise.all([
    startService(carriersService(env)),
    startService(ordersService(env)),
    startService(paymentsService(env)),
  ]);
  gateway = await startGateway({
    ...env,
    SERVICE_URL_ORDERS: orders.url,
    SERVICE_URL_CARRIERS: carriers.url,
    SERVICE_URL_PAYMENTS: payments.url,
  });
  await Promise.all([carriers.bus.ready, orders.bus.ready, payments.bus.ready, gateway.busReady]);
});
afterAll(async () => {
  await gateway?.stop();
  await Promise.all([carriers?.stop(), orders?.stop(), payments?.stop()]);
  await receiver?.close();
});

/** A traceparent as a browser would send it, with the ids to look for. */
const browserTrace = () => {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
};
const spansOf = (traceId: string) => receiver.spans.filter((s) => s.traceId === traceId);

it('follows a country created through the gateway to svc-orders’ replica in one trace', async () => {
  const token = (await login(gateway.url, 'admin@caravan.local', 'caravan-admin')).result.token;
  // the browser's own span: the gateway continues its trace
  const browser = browserTrace();
  const res = await fetch(`${gateway.url}/api/call_pg_func`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'auth-token': token,
      traceparent: browser.traceparent,
    },
    body: JSON.stringify({ method: 'country_update', params: { id: -1, title: 'Бутан' } }),
  });
  const created = (await res.json()) as { ok: boolean; result: { id: number } };
  expect(created.ok).toBe(true);
  await eventually('the replica in svc-orders', () =>
    orders.db('replica').where({ entity: 'country', id: created.result.id }).first(),
  );

  const topic = prefixedTopic(process.env.KAFKA_TOPIC_PREFIX, ENTITY_TOPICS.country);
  const ofTrace = () => spansOf(browser.traceId);
  const named = (name: string, kind: number) => ofTrace().find((s) => s.name === name && s.kind === kind);
  const hops = [
    ['POST /api/call_pg_func country_update', KIND.server],
    ['POST /rpc', KIND.client],
    ['POST /rpc country_update', KIND.server],
    [`outbox write ${ENTITY_TOPICS.country}`, KIND.internal],
    [`publish ${topic}`, KIND.producer],
    [`process ${topic}`, KIND.consumer],
  ] as const;
  // browser → gateway → svc-carriers → outbox write → publish → svc-orders, each the parent of the next
  const chain = await eventually('every hop’s span exported', async () => {
    await flushTraces();
    const found = hops.map(([name, kind]) => named(name, kind));
    return found.every(Boolean) && (found as ExportedSpan[]);
  });
  expect(chain.map((span) => ({ span: span.name, parent: span.parentSpanId }))).toEqual(
    chain.map((span, i) => ({ span: span.name, parent: i ? chain[i - 1]!.spanId : browser.spanId })),
  );
  const inCarriers = chain[2]!;
  const consumed = chain[5]!;

  // the statements of the call and of the handling are theirs: the country's row, its replica (the inbox mark is
  // made once for a fetch's events, before each event's handling: ADR 0004's addendum)
  const statementsUnder = (parent: ExportedSpan) =>
    ofTrace()
      .filter((s) => s.name.startsWith('pg ') && s.parentSpanId === parent.spanId)
      .map((s) => String(s.attributes?.find((a) => a.key === 'db.query.text')?.value.stringValue));
  expect(statementsUnder(inCarriers).some((sql) => /country/.test(sql))).toBe(true);
  expect(statementsUnder(consumed).some((sql) => /replica/.test(sql))).toBe(true);
});

it('keeps the trace of a transfer whose events the ledger’s database function writes', async () => {
  const admin = identityOf({ user_id: 1, roles: ['admin'] });
  const newWallet = async (title: string) =>
    (
      (await callService(payments.url, 'wallet_update', { id: -1, title, client_id: 977 }, admin)).body
        .result as {
        id: number;
      }
    ).id;
  const [from, to] = [await newWallet('Основной'), await newWallet('Резерв')];
  await payments.db.transaction((trx) =>
    postMovements(
      trx,
      {
        identity: admin,
        outbox: payments.outbox,
        wallets: payments.registry.entities.get('wallet')!,
        operations: payments.registry.entities.get('fin_operation')!,
      },
      [{ wallet_id: from, direction: 'in', amount: '10', cause: 'top_up', type: 'manual' }],
    ),
  );

  const browser = browserTrace();
  const reply = await fetch(`${payments.url}/rpc`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [IDENTITY_HEADER]: signIdentity(admin, process.env.IDENTITY_TOKEN_SECRET ?? DEV_IDENTITY_SECRET),
      traceparent: browser.traceparent,
    },
    body: JSON.stringify({
      method: 'wallet_transfer',
      params: { sender_wallet_id: from, receiver_wallet_id: to, amount: '4', comment: 'трассировка' },
    }),
  }).then((r) => r.json() as Promise<{ ok: boolean }>);
  expect(reply.ok).toBe(true);

  // both movements' events were written by ledger_post, each published as a child of the call's span
  const topic = prefixedTopic(process.env.KAFKA_TOPIC_PREFIX, ENTITY_TOPICS.fin_operation);
  const [call, published] = await eventually('the call and its publishes exported', async () => {
    await flushTraces();
    const spans = spansOf(browser.traceId);
    const call = spans.find((s) => s.name === 'POST /rpc wallet_transfer' && s.kind === KIND.server);
    const published = spans.filter((s) => s.name === `publish ${topic}` && s.kind === KIND.producer);
    return call && published.length === 2 && ([call, published] as const);
  });
  expect(call.parentSpanId).toBe(browser.spanId);
  expect(published.map((s) => s.parentSpanId)).toEqual([call.spanId, call.spanId]);
});
