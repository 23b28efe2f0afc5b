import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import {
  AUTH_HEADER,
  EVENT_TYPES,
  fail,
  EmailTokenParams,
  IDENTITY_TOPIC,
  LoginParams,
  MESSAGES,
  NewPasswordParams,
  RecoveryParams,
  RegistrationParams,
  ok,
  ownerOfMethod,
  ownerOfPath,
  describeIssues,
  HTTP_OWNERS,
  PUBLIC_PATHS,
  type ServiceName,
  type SessionRevoked,
} from '@caravan/contracts';
import {
  BusinessError,
  createDb,
  createKafka,
  createLogger,
  createMailer,
  isTransientDbError,
  kafkaBrokers,
  kafkaSasl,
  migrate,
  Outbox,
  jsonErrorHandler,
  listen,
  nameCall,
  ProcedureRegistry,
  startTracing,
  traceRequests,
} from '@caravan/service-kit';
import compression from 'compression';
import express, { type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { migrations } from '../migrations';
import { loadGatewayConfig } from './config';
import { CATALOGUE } from './catalogue';
import { IdentityCache, type ResolvedSession } from './domain/identityCache';
import { DEVICE_COOKIE, DEVICE_COOKIE_DAYS, login } from './domain/login';
import { ScryptGate } from './domain/passwords';
import {
  confirmEmail,
  register,
  requestRecovery,
  setNewPassword,
  type Registration,
} from './domain/registration';
import { hashToken, Sessions } from './domain/sessions';
import { applyIdentityEvent, GatewayBus } from './events';
import { readJson, Refusal } from './http/body';
import { ServiceProxy } from './http/proxy';
import { sendJson } from './http/reply';
import { requestLog, type LoggedRequest } from './http/requestLog';
import { openApiRoutes } from './openapi/routes';
import { registerUserProcedures, toCurrentUser } from './procedures/user';
import { remoteManifest } from './remotes';
import { seedUsers } from './seed';
import { SSE_TOPICS, SseHub } from './sse';
import { serveBuiltFiles } from './static';
import { gatewayMetrics } from './metrics';

type AuthedRequest = LoggedRequest & { session: ResolvedSession };

const clientIp = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';
/** The browser's device cookie (domain/login.ts), if it sent a well-formed one. */
const deviceCookie = (req: Request) => {
  const value = new RegExp(`(?:^|;\\s*)${DEVICE_COOKIE}=([A-Za-z0-9_-]{16,64})(?:;|$)`).exec(
    req.headers.cookie ?? '',
  )?.[1];
  return value ?? null;
};

const SMALL_BODY = 10 * 1024;
const CALL_BODY = 5 * 1024 * 1024;

/**
 * The only public entry: sessions and login, routing of `call_pg_func` and the spec's HTTP paths to
 * their owners (from the contracts table) with a signed identity, SSE fan-out, the remotes manifest
 * and the shell's static files. A call costs no database round trip: live sessions are cached and
 * dropped by the identity events every instance consumes (domain/identityCache.ts).
 */
export async function startGateway(env?: Record<string, string | undefined>) {
  const config = loadGatewayConfig(env ?? process.env);
  // before the logger and the database: log lines name their trace, statements are traced (off without an endpoint)
  const tracing = startTracing('gateway', config.OTEL_EXPORTER_OTLP_ENDPOINT);
  const log = createLogger('gateway', config.LOG_LEVEL, undefined, { traceIds: tracing.enabled });
  const db = createDb(config.DATABASE_URL, 'identity');
  await migrate(db, 'identity', migrations);
  const outbox = new Outbox('gateway');
  // the seeded users and links are published like an admin's: the relay sends them once the bus is up
  await seedUsers(db, outbox, log, {
    adminEmail: config.ADMIN_EMAIL,
    adminPassword: config.ADMIN_PASSWORD,
    demo: config.SEED_DEMO,
    demoPassword: config.DEMO_PASSWORD,
  });
  // every scrypt of the gateway (logins, sign-ups, recoveries) shares one bounded gate
  const scrypt = new ScryptGate();
  const mailer = createMailer(config.SMTP_URL, config.MAIL_FROM, log);
  const registration: Registration = {
    db,
    mailer,
    publicUrl: config.PUBLIC_URL,
    log,
    outbox,
    gate: scrypt,
    maxPerIpPerHour: config.REGISTRATION_MAX_PER_IP,
  };
  const sessions = new Sessions(db, {
    idleHours: config.SESSION_IDLE_HOURS,
    absoluteDays: config.SESSION_ABSOLUTE_DAYS,
  });
  const cache = new IdentityCache(db, sessions, config.IDENTITY_TOKEN_SECRET, {
    ttlMs: config.IDENTITY_CACHE_TTL_MS,
    maxEntries: 50_000,
  });
  const registry = new ProcedureRegistry('gateway');
  registerUserProcedures(registry);

  const hub = new SseHub((tokenHash) => cache.resolveHash(tokenHash), log);
  const bus = new GatewayBus(
    createKafka('gateway', kafkaBrokers(config), log, kafkaSasl(config)),
    db,
    config.KAFKA_TOPIC_PREFIX,
    log,
    {
      sse: (_topic, envelope) => hub.dispatch(envelope),
      identity: (envelope) => applyIdentityEvent(envelope, cache, hub),
    },
    SSE_TOPICS,
  );
  // in the background: the gateway answers while Kafka is down (the cache's TTL bounds staleness meanwhile)
  const busReady = bus.start();
  outbox.onCommitted = () => bus.kick();
  const afterWrite = () => {
    if (outbox.takeWritten()) bus.kick();
  };

  const serviceUrls: Record<ServiceName, URL> = {
    orders: new URL(config.SERVICE_URL_ORDERS),
    payments: new URL(config.SERVICE_URL_PAYMENTS),
    carriers: new URL(config.SERVICE_URL_CARRIERS),
  };
  const proxy = new ServiceProxy(log);
  const remotes = remoteManifest(config);

  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  // X-Forwarded-For is believed only from the configured proxies (none by default)
  app.set(
    'trust proxy',
    config.TRUSTED_PROXIES ? config.TRUSTED_PROXIES.split(',').map((p) => p.trim()) : false,
  );
  app.use(requestLog(log));
  app.use(
    compression({
      threshold: 1024,
      // a stream must reach the browser as each event is written
      filter: (req, res) => !req.url?.startsWith('/api/sse') && compression.filter(req, res),
    }),
  );
  // the bare paths are the orchestrator's probes (deploy/k8s): without them the shell's page would answer them
  app.get(['/api/healthz', '/healthz'], (_req, res) => {
    res.json(ok('alive'));
  });
  app.get(['/api/readyz', '/readyz'], (_req, res) => {
    res.status(bus.ready ? 200 : 503).json(bus.ready ? ok('ready') : fail(MESSAGES.serviceUnavailable));
  });
  // not under /api: the ingress sends only /api to the gateway, so Prometheus (inside) sees this and browsers do not
  const metrics = gatewayMetrics(db, () => hub.size);
  app.get('/metrics', async (_req, res) => {
    res.type(metrics.contentType).send(await metrics.metrics());
  });
  app.get('/api/catalogue', (_req, res) => {
    res.json(ok(CATALOGUE));
  });
  app.get('/api/remotes', (_req, res) => {
    res.json(ok(remotes));
  });
  app.use(openApiRoutes());

  /** A public JSON endpoint: a small body checked by the schema, a refusal in words, the reply `{ok, result, message}`. */
  const publicCall =
    <P>(schema: z.ZodType<P>, handler: (params: P, req: Request) => Promise<unknown>, message = true) =>
    async (req: Request, res: Response) => {
      const { value } = await readJson(req, SMALL_BODY);
      const parsed = schema.safeParse(value);
      if (!parsed.success) {
        res.json(fail(describeIssues(parsed.error.issues, value)));
        return;
      }
      try {
        const result = await handler(parsed.data, req);
        afterWrite();
        res.json(message ? ok(result, result as string) : ok(result));
      } catch (err) {
        if (err instanceof BusinessError) res.json(fail(err.message));
        else throw err;
      }
    };

  const loginLimits = {
    perAccount: config.LOGIN_MAX_FAILURES_PER_ACCOUNT,
    perIp: config.LOGIN_MAX_FAILURES_PER_IP,
    perAccountFromStrangers: config.LOGIN_MAX_FAILURES_PER_ACCOUNT_FROM_STRANGERS,
    windowMinutes: 15,
  };
  app.post(
    '/api/login',
    publicCall(
      LoginParams,
      async (p, req) => {
        const { token, user, deviceToken } = await login(
          db,
          sessions,
          scrypt,
          loginLimits,
          p.login,
          p.password,
          clientIp(req),
          deviceCookie(req),
        );
        req.res?.cookie(DEVICE_COOKIE, deviceToken, {
          httpOnly: true,
          sameSite: 'lax',
          path: '/api/login',
          maxAge: DEVICE_COOKIE_DAYS * 24 * 3600 * 1000,
        });
        return { token, user: toCurrentUser(user) };
      },
      false,
    ),
  );
  app.post(
    '/api/register',
    publicCall(RegistrationParams, (p, req) => register(registration, p, clientIp(req))),
  );
  app.post(
    '/api/check_user_email',
    publicCall(EmailTokenParams, (p) => confirmEmail(registration, p.token)),
  );
  app.post(
    '/api/recover_password',
    publicCall(RecoveryParams, (p, req) => requestRecovery(registration, p.login, clientIp(req))),
  );
  app.post(
    '/api/email_auth_recover_password',
    publicCall(NewPasswordParams, (p) => setNewPassword(registration, p.token, p.password)),
  );

  const refuseNotWorking = (res: Response, state: string) =>
    res.status(403).json(fail(state === 'fired' ? MESSAGES.fired : MESSAGES.waitingAuth));

  /**
   * Session check on every call, from the Auth-token header. Only the SSE path takes the token from
   * the query (EventSource cannot send headers); the request log never shows it.
   */
  const authenticate =
    (allowNotWorking: boolean, tokenInQuery = false) =>
    async (req: Request, res: Response, next: NextFunction) => {
      const token =
        req.header(AUTH_HEADER) ??
        (tokenInQuery && typeof req.query.authToken === 'string' ? req.query.authToken : undefined);
      if (!token) {
        res.status(401).json(fail(MESSAGES.notAuthenticated));
        return;
      }
      const session = await cache.resolve(token);
      if (!session) {
        res.status(401).json(fail(MESSAGES.sessionExpired));
        return;
      }
      if (session.user.state !== 'working' && !allowNotWorking) {
        refuseNotWorking(res, session.user.state);
        return;
      }
      (req as AuthedRequest).session = session;
      next();
    };

  app.post('/api/logout', async (req, res) => {
    const token = req.header(AUTH_HEADER);
    if (token) {
      const tokenHash = hashToken(token);
      await db.transaction(async (trx) => {
        const userId = await sessions.revoke(trx, tokenHash);
        if (userId === null) return;
        const revoked: SessionRevoked = { user_id: userId, token_hash: tokenHash };
        await outbox.write(trx, {
          topic: IDENTITY_TOPIC,
          key: userId,
          type: EVENT_TYPES.sessionRevoked,
          actor: userId,
          data: revoked,
        });
      });
      // this instance at once; the others when the event reaches them
      cache.dropSession(tokenHash);
      hub.endSession(tokenHash);
      afterWrite();
    }
    res.json(ok(true));
  });
  // Answers for any state, so the shell can show the waiting or blocked page.
  app.get('/api/user_current', authenticate(true), (req, res) => {
    res.json(ok(toCurrentUser((req as AuthedRequest).session.user)));
  });

  app.get('/api/sse', authenticate(false, true), (req, res) => {
    const { session } = req as AuthedRequest;
    const param = Number(req.query.param);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(`retry: 3000\n: connected\n\n`);
    hub.add({
      identity: session.identity,
      userId: session.user.id,
      tokenHash: session.tokenHash,
      type: typeof req.query.type === 'string' && req.query.type ? req.query.type : undefined,
      param: Number.isInteger(param) && param > 0 ? param : undefined,
      res,
    });
  });

  /** The call's path as Express would route it: a query string or a trailing slash change nothing. */
  const CALL_PATH = /^\/api\/call_pg_func\/?(\?.*)?$/;
  const CallBody = z.object({ method: z.string().min(1).max(100), params: z.unknown().optional() });
  /**
   * `call_pg_func`, the hot path, on plain Node objects ahead of every Express middleware: the cached
   * session, the body read once, the signed identity added, the service's reply streamed back.
   */
  const handleCall = async (req: IncomingMessage, res: ServerResponse) => {
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && given.length <= 100 ? given : randomUUID();
    res.setHeader('x-request-id', requestId);
    const reply = (status: number, body: unknown) => sendJson(req, res, status, body);
    const token = req.headers[AUTH_HEADER];
    if (typeof token !== 'string' || !token) return reply(401, fail(MESSAGES.notAuthenticated));
    const session = await cache.resolve(token);
    if (!session) return reply(401, fail(MESSAGES.sessionExpired));
    const { raw, value } = await readJson(req, CALL_BODY);
    const body = CallBody.safeParse(value);
    if (!body.success) return reply(200, fail(MESSAGES.invalidParams));
    // Users who are not working may only ask who they are (the shell then shows their page).
    if (session.user.state !== 'working' && body.data.method !== 'user_current')
      return reply(403, fail(session.user.state === 'fired' ? MESSAGES.fired : MESSAGES.waitingAuth));
    nameCall('POST /api/call_pg_func', body.data.method);
    const owner = ownerOfMethod(body.data.method);
    if (!owner) return reply(200, fail(MESSAGES.unknownMethod(body.data.method)));
    if (owner === 'gateway') {
      const ctx = { identity: session.identity, db, log: log.child({ reqId: requestId }), requestId, outbox };
      const { status, reply: result } = await registry.call(ctx, body.data.method, body.data.params);
      if (outbox.takeWritten()) {
        // a user or a link changed here: this instance's calls re-read their sessions at once; its streams, like
        // every other instance's, follow the identity event, which names whose (events.ts)
        cache.clear();
        bus.kick();
      }
      return reply(status, result);
    }
    proxy.forward(
      {
        base: serviceUrls[owner],
        method: 'POST',
        path: '/rpc',
        identityToken: session.signed,
        requestId,
        caller: req,
        body: raw,
      },
      res,
    );
  };
  const answerFailedCall = (req: IncomingMessage, res: ServerResponse, err: unknown) => {
    if (res.headersSent) return res.destroy();
    if (err instanceof Refusal) return sendJson(req, res, err.status, fail(err.message));
    if (isTransientDbError(err)) return sendJson(req, res, 503, fail(MESSAGES.serviceUnavailable));
    log.error({ err }, 'call failed');
    sendJson(req, res, 500, fail(MESSAGES.somethingWentWrong));
  };

  // The spec's HTTP calls, routed by the same table; the path reaches the service unchanged.
  for (const [route, owner] of Object.entries(HTTP_OWNERS)) {
    if (owner === 'gateway') continue;
    const isPublic = PUBLIC_PATHS.has(route);
    const base = serviceUrls[ownerOfPath(route) as ServiceName];
    app.all(route, isPublic ? (_req, _res, next) => next() : authenticate(false), (req, res) => {
      const r = req as AuthedRequest;
      proxy.forward(
        {
          base,
          method: req.method,
          path: req.originalUrl,
          identityToken: isPublic ? undefined : r.session.signed,
          requestId: r.id,
          caller: req,
          body: req.method === 'GET' || req.method === 'HEAD' ? null : req,
        },
        res,
      );
    });
  }
  app.use('/api', (req, res) => {
    res.status(404).json(fail(`неизвестный путь ${req.path}`));
  });

  if (config.SHELL_DIST) {
    // precompressed .br/.gz as the browser accepts, a year of cache for hashed names, the page for routes;
    // files looked up per request: `npm start` starts the gateway while the shell builds (docs/adr/0032)
    app.use(serveBuiltFiles(path.resolve(config.SHELL_DIST), { spa: true }));
  }

  app.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (!(err instanceof Refusal)) return next(err);
    if (!res.headersSent) res.status(err.status).json(fail(err.message));
  });
  app.use(jsonErrorHandler);

  const http = await listen(
    traceRequests((req: IncomingMessage, res: ServerResponse) => {
      if (req.method === 'POST' && CALL_PATH.test(req.url ?? ''))
        handleCall(req, res).catch((err) => answerFailedCall(req, res, err));
      else void app(req, res);
    }),
    config.HOST,
    config.PORT,
    log,
  );

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      hub.stop();
      await bus.stop();
      mailer.close();
      await http.close();
      proxy.close();
      await db.destroy();
      await tracing.stop();
    })());
  return { url: http.url, db, hub, cache, bus, busReady, log, stop };
}
