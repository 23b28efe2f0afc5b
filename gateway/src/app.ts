import { existsSync } from 'node:fs';
import { Agent } from 'node:http';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  AUTH_HEADER,
  fail,
  IDENTITY_HEADER,
  EmailTokenParams,
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
  type Identity,
  type RemoteManifest,
  type ServiceName,
} from '@caravan/contracts';
import {
  BusinessError,
  createDb,
  createKafka,
  createLogger,
  ensureTopics,
  kafkaBrokers,
  migrate,
  Outbox,
  jsonErrorHandler,
  listen,
  ProcedureRegistry,
  signIdentity,
} from '@caravan/service-kit';
import express, { type NextFunction, type Request, type Response } from 'express';
import { createProxyMiddleware, fixRequestBody } from 'http-proxy-middleware';
import pinoHttp from 'pino-http';
import { z } from 'zod';
import { migrations } from '../migrations';
import { loadGatewayConfig } from './config';
import { createMailer } from './adapters/mail/mailer';
import { CATALOGUE } from './catalogue';
import { login } from './domain/login';
import {
  confirmEmail,
  register,
  requestRecovery,
  setNewPassword,
  type Registration,
} from './domain/registration';
import { identityOf, Sessions, type UserRow } from './domain/sessions';
import { registerUserProcedures, toCurrentUser } from './procedures/user';
import { seedUsers } from './seed';
import { SseHub } from './sse';

type AuthedRequest = Request & { user: UserRow; identity: Identity; target?: string; identityToken?: string };

const clientIp = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/**
 * The only public entry: sessions and login, routing of `call_pg_func` and the spec's HTTP paths to
 * their owners (from the contracts table) with a signed identity, SSE fan-out, the remotes manifest
 * and the shell's static files.
 */
export async function startGateway(env?: Record<string, string | undefined>) {
  const config = loadGatewayConfig(env ?? process.env);
  const log = createLogger('gateway', config.LOG_LEVEL);
  const db = createDb(config.DATABASE_URL, 'identity');
  await migrate(db, 'identity', migrations);
  await seedUsers(db, log, {
    adminEmail: config.ADMIN_EMAIL,
    adminPassword: config.ADMIN_PASSWORD,
    demo: config.SEED_DEMO,
    demoPassword: config.DEMO_PASSWORD,
  });

  const mailer = createMailer(config.SMTP_URL, config.MAIL_FROM, log);
  const registration: Registration = { db, mailer, publicUrl: config.PUBLIC_URL, log };
  const sessions = new Sessions(db, {
    idleHours: config.SESSION_IDLE_HOURS,
    absoluteDays: config.SESSION_ABSOLUTE_DAYS,
  });
  const registry = new ProcedureRegistry('gateway');
  registerUserProcedures(registry);
  const outbox = new Outbox('gateway');

  const kafka = createKafka('gateway', kafkaBrokers(config), log);
  await ensureTopics(kafka, config.KAFKA_TOPIC_PREFIX);
  const hub = new SseHub(kafka, config.KAFKA_TOPIC_PREFIX, log);
  await hub.start();

  const serviceUrls: Record<ServiceName, string> = {
    orders: config.SERVICE_URL_ORDERS,
    payments: config.SERVICE_URL_PAYMENTS,
    carriers: config.SERVICE_URL_CARRIERS,
  };
  const remotes: RemoteManifest = [
    { name: 'mf_orders', entry: `${config.REMOTE_URL_MF_ORDERS}/mf-manifest.json` },
    { name: 'mf_wallet', entry: `${config.REMOTE_URL_MF_WALLET}/mf-manifest.json` },
    { name: 'mf_directories', entry: `${config.REMOTE_URL_MF_DIRECTORIES}/mf-manifest.json` },
  ];

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(
    pinoHttp({
      logger: log,
      genReqId: (req, res) => {
        const id = (req.headers['x-request-id'] as string) || randomUUID();
        res.setHeader('x-request-id', id);
        return id;
      },
      autoLogging: { ignore: (req) => !req.url?.startsWith('/api/') || req.url.startsWith('/api/sse') },
    }),
  );
  app.get('/api/healthz', (_req, res) => {
    res.json(ok('alive'));
  });
  app.get('/api/catalogue', (_req, res) => {
    res.json(ok(CATALOGUE));
  });
  app.get('/api/remotes', (_req, res) => {
    res.json(ok(remotes));
  });

  app.post('/api/login', express.json({ limit: '10kb' }), async (req, res) => {
    const parsed = LoginParams.safeParse(req.body);
    if (!parsed.success) {
      res.json(fail(describeIssues(parsed.error.issues, req.body)));
      return;
    }
    try {
      const limits = {
        perAccount: config.LOGIN_MAX_FAILURES_PER_ACCOUNT,
        perIp: config.LOGIN_MAX_FAILURES_PER_IP,
        windowMinutes: 15,
      };
      const { token, user } = await login(
        db,
        sessions,
        limits,
        parsed.data.login,
        parsed.data.password,
        clientIp(req),
      );
      res.json(ok({ token, user: toCurrentUser(user) }));
    } catch (err) {
      if (err instanceof BusinessError) res.json(fail(err.message));
      else throw err;
    }
  });

  /** A public JSON endpoint: params checked by the schema, a refusal in words, the reply `{ok, result, message}`. */
  const publicCall =
    <P>(schema: z.ZodType<P>, handler: (params: P, req: Request) => Promise<string>) =>
    async (req: Request, res: Response) => {
      const parsed = schema.safeParse(req.body);
      if (!parsed.success) {
        res.json(fail(describeIssues(parsed.error.issues, req.body)));
        return;
      }
      try {
        const message = await handler(parsed.data, req);
        res.json(ok(message, message));
      } catch (err) {
        if (err instanceof BusinessError) res.json(fail(err.message));
        else throw err;
      }
    };
  const smallJson = express.json({ limit: '10kb' });
  app.post(
    '/api/register',
    smallJson,
    publicCall(RegistrationParams, (p) => register(registration, p)),
  );
  app.post(
    '/api/check_user_email',
    smallJson,
    publicCall(EmailTokenParams, (p) => confirmEmail(registration, p.token)),
  );
  app.post(
    '/api/recover_password',
    smallJson,
    publicCall(RecoveryParams, (p) => requestRecovery(registration, p.login)),
  );
  app.post(
    '/api/email_auth_recover_password',
    smallJson,
    publicCall(NewPasswordParams, (p) => setNewPassword(registration, p.token, p.password)),
  );

  const refuseNotWorking = (res: Response, user: UserRow) =>
    res.status(403).json(fail(user.state === 'fired' ? MESSAGES.fired : MESSAGES.waitingAuth));

  /** Session check on every call: Auth-token header, or authToken in the query for EventSource. */
  const authenticate =
    (allowNotWorking: boolean) => async (req: Request, res: Response, next: NextFunction) => {
      const token =
        req.header(AUTH_HEADER) ??
        (typeof req.query.authToken === 'string' ? req.query.authToken : undefined);
      if (!token) {
        res.status(401).json(fail(MESSAGES.notAuthenticated));
        return;
      }
      const user = await sessions.resolve(token);
      if (!user) {
        res.status(401).json(fail(MESSAGES.sessionExpired));
        return;
      }
      if (user.state !== 'working' && !allowNotWorking) {
        res.status(403).json(fail(user.state === 'fired' ? MESSAGES.fired : MESSAGES.waitingAuth));
        return;
      }
      const r = req as AuthedRequest;
      r.user = user;
      r.identity = await identityOf(db, user);
      r.identityToken = signIdentity(r.identity, config.IDENTITY_TOKEN_SECRET);
      next();
    };

  app.post('/api/logout', async (req, res) => {
    const token = req.header(AUTH_HEADER);
    if (token) await sessions.revoke(token);
    res.json(ok(true));
  });
  // Answers for any state, so the shell can show the waiting or blocked page.
  app.get('/api/user_current', authenticate(true), (req, res) => {
    res.json(ok(toCurrentUser((req as AuthedRequest).user)));
  });

  app.get('/api/sse', authenticate(false), (req, res) => {
    const r = req as AuthedRequest;
    const param = Number(req.query.param);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(`retry: 3000\n: connected\n\n`);
    hub.add({
      identity: r.identity,
      type: typeof req.query.type === 'string' && req.query.type ? req.query.type : undefined,
      param: Number.isInteger(param) && param > 0 ? param : undefined,
      res,
    });
  });

  const agent = new Agent({ keepAlive: true, maxSockets: 128, keepAliveMsecs: 30_000 });
  const proxy = createProxyMiddleware<Request, Response>({
    router: (req) => (req as AuthedRequest).target!,
    changeOrigin: true,
    agent,
    proxyTimeout: 120_000,
    on: {
      proxyReq: (proxyReq, req) => {
        const r = req as unknown as AuthedRequest;
        proxyReq.removeHeader(AUTH_HEADER);
        if (r.identityToken) proxyReq.setHeader(IDENTITY_HEADER, r.identityToken);
        proxyReq.setHeader('x-request-id', String((req as unknown as { id: string }).id));
        fixRequestBody(proxyReq, req);
      },
      error: (err, _req, res) => {
        log.warn({ err }, 'service unreachable');
        const out = res as Response;
        if (!out.headersSent) out.status(503).json(fail(MESSAGES.serviceUnavailable));
      },
    },
  });

  const CallBody = z.object({ method: z.string().min(1).max(100), params: z.unknown().optional() });
  app.post(
    '/api/call_pg_func',
    authenticate(true),
    express.json({ limit: '5mb' }),
    async (req, res, next) => {
      const body = CallBody.safeParse(req.body);
      if (!body.success) {
        res.json(fail(MESSAGES.invalidParams));
        return;
      }
      // Users who are not working may only ask who they are (the shell then shows their page).
      const r = req as AuthedRequest;
      if (r.user.state !== 'working' && body.data.method !== 'user_current') {
        refuseNotWorking(res, r.user);
        return;
      }
      const owner = ownerOfMethod(body.data.method);
      if (!owner) {
        res.json(fail(MESSAGES.unknownMethod(body.data.method)));
        return;
      }
      if (owner === 'gateway') {
        const ctx = { identity: r.identity, db, log: req.log, requestId: String(req.id), outbox };
        const { status, reply } = await registry.call(ctx, body.data.method, body.data.params);
        res.status(status).json(reply);
        return;
      }
      r.target = serviceUrls[owner];
      req.url = '/rpc';
      next();
    },
    proxy,
  );

  // The spec's HTTP calls, routed by the same table; the path reaches the service unchanged.
  for (const [route, owner] of Object.entries(HTTP_OWNERS)) {
    if (owner === 'gateway') continue;
    const guard: express.RequestHandler = PUBLIC_PATHS.has(route)
      ? (_req, _res, next) => next()
      : authenticate(false);
    app.all(
      route,
      guard,
      (req, _res, next) => {
        (req as AuthedRequest).target = serviceUrls[ownerOfPath(route) as ServiceName];
        next();
      },
      proxy,
    );
  }
  app.use('/api', (req, res) => {
    res.status(404).json(fail(`неизвестный путь ${req.path}`));
  });

  if (config.SHELL_DIST && existsSync(config.SHELL_DIST)) {
    const dist = path.resolve(config.SHELL_DIST);
    app.use(
      express.static(dist, {
        index: false,
        // content-hashed chunks never change; everything else is revalidated
        setHeaders: (res, file) =>
          res.setHeader(
            'cache-control',
            /\.[0-9a-f]{8}\.(js|css)$/.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache',
          ),
      }),
    );
    app.get('/{*spa}', (req, res, next) => {
      if (path.extname(req.path)) return next(); // a missing asset is a 404, not the page
      res.setHeader('cache-control', 'no-cache');
      res.sendFile(path.join(dist, 'index.html'));
    });
  }

  app.use(jsonErrorHandler);

  const http = await listen(app, config.HOST, config.PORT, log);

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      await hub.stop();
      mailer.close();
      await http.close();
      agent.destroy();
      await db.destroy();
    })());
  return { url: http.url, db, hub, log, stop };
}
