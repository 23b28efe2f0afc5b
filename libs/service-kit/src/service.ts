import { randomUUID } from 'node:crypto';
import { fail, IDENTITY_HEADER, MESSAGES, ok, type Identity, type ServiceName } from '@caravan/contracts';
import express, { type NextFunction, type Request, type Response } from 'express';
import { jsonErrorHandler, listen } from './http';
import type { Kafka, Producer } from 'kafkajs';
import pinoHttp from 'pino-http';
import { z } from 'zod';
import { kafkaBrokers, kafkaSasl, loadConfig, type BaseConfig } from './config';
import { createDb, kitMigrations, migrate, type Db, type Migration } from './db';
import { verifyIdentity } from './identity';
import { createLogger, httpLogSerializers, type Logger } from './logger';
import {
  IDEMPOTENCY_HEADER,
  isIdempotencyKey,
  ProcedureRegistry,
  pruneIdempotencyKeys,
  type ProcedureContext,
} from './registry';
import { Bus } from './bus/bus';
import { createKafka, createProducer } from './bus/kafka';
import { InboxConsumer, type Subscription } from './bus/inbox';
import { Outbox, OutboxRelay, RELAY_LANES } from './bus/outbox';
import { serviceMetrics } from './metrics';
import { nameCall, startTracing, traceRequests } from './tracing';

export type ServiceOptions = {
  name: ServiceName;
  migrations: readonly Migration[];
  /** What the service consumes; a function when handlers need the kit (its outbox, its entity stores). */
  subscriptions?: readonly Subscription[] | ((kit: ServiceKit) => readonly Subscription[]);
  /** Registers procedures and HTTP routes (may start what they need, e.g. a sandbox of a vendor). */
  configure(kit: ServiceKit): void | Promise<void>;
  /** Demo data, run after migrations and `configure` when SEED_DEMO is set; must be idempotent. */
  seed?(kit: ServiceKit): Promise<void>;
  env?: Record<string, string | undefined>;
};

export type ServiceKit = {
  name: ServiceName;
  config: BaseConfig;
  db: Db;
  log: Logger;
  registry: ProcedureRegistry;
  outbox: Outbox;
  /** Routes under /api (the spec's HTTP calls); req.identity is set and verified. */
  api: express.Router;
  /** Routes under /api that need no identity (uploaded files, named by unguessable ids; signed callbacks). */
  publicApi: express.Router;
  /** After an HTTP route's transaction committed: the relay publishes its events now, not at its next poll. */
  afterWrite(): void;
  /** Runs on stop, before the database closes (a browser, a sandbox server). */
  onStop(fn: () => Promise<void> | void): void;
};

export type IdentifiedRequest = Request & { identity: Identity; id: string };

export type RunningService = ServiceKit & {
  url: string;
  kafka: Kafka;
  consumers: InboxConsumer[];
  relay: OutboxRelay;
  /** Kafka comes up in the background; `bus.ready` resolves once the relay and the consumers run. */
  bus: Bus;
  stop(): Promise<void>;
};

/**
 * Builds and starts one service: env config, logs, DB schema + migrations, procedure registry behind
 * POST /rpc, identity verification, health/readiness/metrics, Kafka outbox relay and inbox consumers.
 * It listens without waiting for Kafka: writes go to the outbox and the relay publishes them once
 * Kafka is reachable.
 */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  const config = loadConfig({}, options.env ?? process.env);
  // before the logger and the database: log lines name their trace, statements are traced (off without an endpoint)
  const tracing = startTracing(`svc-${options.name}`, config.OTEL_EXPORTER_OTLP_ENDPOINT);
  const log = createLogger(`svc-${options.name}`, config.LOG_LEVEL, undefined, { traceIds: tracing.enabled });
  const schema = options.name;
  const db = createDb(config.DATABASE_URL, schema);
  const applied = await migrate(db, schema, [...kitMigrations, ...options.migrations]);
  if (applied.length) log.info({ applied }, 'migrations applied');

  const registry = new ProcedureRegistry(options.name);
  const outbox = new Outbox(`svc-${options.name}`);
  const api = express.Router();
  const publicApi = express.Router();
  let kickRelay = () => {};
  const stopHooks: (() => Promise<void> | void)[] = [];
  const kit: ServiceKit = {
    name: options.name,
    config,
    db,
    log,
    registry,
    outbox,
    api,
    publicApi,
    afterWrite: () => {
      if (outbox.takeWritten()) kickRelay();
    },
    onStop: (fn) => void stopHooks.push(fn),
  };
  await options.configure(kit);
  if (config.SEED_DEMO && options.seed) await options.seed(kit);

  const kafka = createKafka(`svc-${options.name}`, kafkaBrokers(config), log, kafkaSasl(config));
  // a short retry per send: the relay retries beyond it, well within its claim (OUTBOX_CLAIM_SECONDS)
  const producer: Producer = createProducer(kafka, { retries: 3, initialRetryTime: 200 });
  const subscriptions =
    typeof options.subscriptions === 'function' ? options.subscriptions(kit) : (options.subscriptions ?? []);
  // the relay and the consumers have connections of their own: behind 20 calls waiting for a busy disk's
  // commits in the calls' pool, the relay's claim waited its turn and every event with it (bench streams)
  const busDb = createDb(
    config.DATABASE_URL,
    schema,
    RELAY_LANES + subscriptions.reduce((n, s) => n + (s.partitionsAtOnce ?? 1), 0),
  );
  const relay = new OutboxRelay(busDb, producer, config.KAFKA_TOPIC_PREFIX, log, {
    leaseSeconds: config.OUTBOX_CLAIM_SECONDS,
    lanes: RELAY_LANES,
  });
  kickRelay = () => relay.kick();
  outbox.onCommitted = kickRelay;
  const { registry: metrics, rpcDuration, inboxDelay } = serviceMetrics(db);
  const consumers = subscriptions.map(
    (s) =>
      new InboxConsumer(
        kafka,
        busDb,
        // a prefixed run (tests, bench) must never join the groups of another run on the same broker
        `${config.KAFKA_TOPIC_PREFIX}svc-${options.name}.${s.name}`,
        s,
        config.KAFKA_TOPIC_PREFIX,
        log,
        (envelope) => {
          inboxDelay.observe({ subscription: s.name }, secondsSince(envelope.occurred_at));
          if (outbox.takeWritten()) relay.kick();
        },
      ),
  );
  const bus = new Bus(kafka, producer, relay, consumers, config.KAFKA_TOPIC_PREFIX, log);
  bus.start();
  const pruneTimer = setInterval(
    () => void pruneIdempotencyKeys(db).catch((err) => log.warn({ err }, 'idempotency prune failed')),
    60 * 60 * 1000,
  );
  pruneTimer.unref();

  const app = express();
  app.disable('x-powered-by');
  app.use(
    pinoHttp({
      logger: log,
      genReqId: (req) => (req.headers['x-request-id'] as string) || randomUUID(),
      serializers: httpLogSerializers,
      autoLogging: { ignore: (req) => ['/healthz', '/readyz', '/metrics'].includes(req.url ?? '') },
    }),
  );
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true, result: 'alive' });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      await db.raw('select 1');
      // ready without Kafka too: calls and writes work, the outbox waits; `kafka` tells the bus state
      res.json({ ...ok('ready'), kafka: bus.state });
    } catch {
      res.status(503).json(fail(MESSAGES.serviceUnavailable));
    }
  });
  app.get('/metrics', async (_req, res) => {
    res.type(metrics.contentType).send(await metrics.metrics());
  });

  const requireIdentity = (req: Request, res: Response, next: NextFunction) => {
    const identity = verifyIdentity(req.header(IDENTITY_HEADER), config.IDENTITY_TOKEN_SECRET);
    if (!identity) {
      res.status(401).json(fail(MESSAGES.badIdentity));
      return;
    }
    (req as IdentifiedRequest).identity = identity;
    next();
  };

  const RpcBody = z.object({ method: z.string().min(1), params: z.unknown().optional() });
  app.post('/rpc', requireIdentity, express.json({ limit: '5mb' }), async (req, res) => {
    const body = RpcBody.safeParse(req.body);
    if (!body.success) {
      res.status(400).json(fail(MESSAGES.invalidParams));
      return;
    }
    const idempotencyKey = req.header(IDEMPOTENCY_HEADER);
    if (idempotencyKey !== undefined && !isIdempotencyKey(idempotencyKey)) {
      res.status(400).json(fail(MESSAGES.invalidIdempotencyKey));
      return;
    }
    const ctx: ProcedureContext = {
      identity: (req as IdentifiedRequest).identity,
      db,
      log: req.log,
      requestId: String(req.id),
      outbox,
    };
    nameCall('POST /rpc', body.data.method);
    const end = rpcDuration.startTimer({ method: body.data.method });
    const { status, reply } = await registry.call(ctx, body.data.method, body.data.params, idempotencyKey);
    end({ ok: String(reply.ok) });
    if (outbox.takeWritten()) relay.kick();
    res.status(status).json(reply);
  });
  app.use('/api', publicApi);
  app.use('/api', requireIdentity, api);
  app.use((_req, res) => {
    res.status(404).json(fail('не найдено'));
  });
  app.use(jsonErrorHandler);

  const http = await listen(traceRequests(app), config.HOST, config.PORT, log);

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      clearInterval(pruneTimer);
      await http.close();
      for (const hook of stopHooks)
        await Promise.resolve(hook()).catch((err) => log.warn({ err }, 'stop hook failed'));
      await bus.stop();
      await Promise.all([db.destroy(), busDb.destroy()]);
      await tracing.stop();
      log.info('service stopped');
    })());

  return { ...kit, url: http.url, kafka, consumers, relay, bus, stop };
}

const secondsSince = (iso: string) => Math.max(0, (Date.now() - Date.parse(iso)) / 1000);

/** After demo rows are written directly: publish them (in the same transaction) so the other services' replicas get them. */
export async function publishSeeded(kit: ServiceKit, trx: Db, entities: readonly string[]) {
  for (const name of entities) {
    const store = kit.registry.entities.get(name);
    if (!store) throw new Error(`seed: ${name} is not registered in svc-${kit.name}`);
    await store.publishAll(trx, kit.outbox);
  }
}
