// `npm start`: infrastructure, build (only what changed: deploy/local/build.mjs), every service, the
// gateway with the shell, each remote on its own origin; prints the URL, the seconds it took to be
// ready and the demo logins; Ctrl-C stops everything.
//   CARAVAN_PORT_OFFSET  shifts every port, the local Kafka's included (the e2e run uses 10000)
// A service or the gateway that crashes is restarted with a growing pause (1 s doubling to 30 s), as
// an orchestrator would, and the restart is printed; the rest of the system keeps running.
//   CARAVAN_DATABASE     database name (default caravan); CARAVAN_FRESH_DB=1 recreates it
//   CARAVAN_NO_WEB=1     services and gateway only (no web build, no remotes, no shell)
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildServer, staleWebApps, stopTypeCheck, typeCheckServer } from './build.mjs';
import { buildWebApps, stopWebBuilds } from './build-web.mjs';
import * as infra from './infra.mjs';

const root = infra.root;
const require = createRequire(import.meta.url);
const offset = Number(process.env.CARAVAN_PORT_OFFSET ?? 0);
const PORTS = {
  gateway: 8080 + offset,
  orders: 4001 + offset,
  payments: 4002 + offset,
  carriers: 4003 + offset,
  acquirer: 4012 + offset,
  cdek: 4013 + offset,
  pec: 4014 + offset,
  jde: 4015 + offset,
  ozon: 4016 + offset,
  cnt: 4017 + offset,
  telegram: 4018 + offset,
  mf_orders: 8081 + offset,
  mf_wallet: 8082 + offset,
  mf_directories: 8083 + offset,
  smtp: 1025 + offset,
  mail: 1080 + offset,
};
const REMOTE_DIRS = { mf_orders: 'mf-orders', mf_wallet: 'mf-wallet', mf_directories: 'mf-directories' };
const log = (...a) => console.log('[start]', ...a);
const web = process.env.CARAVAN_NO_WEB !== '1';

// svc-* and the gateway run supervised: a crash restarts that one with backoff (libs/service-kit supervisor)
let supervisor = null;
function run(name, script, env) {
  supervisor ??= new (require(path.join(root, 'libs/service-kit/dist/supervisor.js')).Supervisor)();
  return supervisor.run(name, () => {
    const child = spawn(process.execPath, [script], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const prefix = (chunk) =>
      chunk
        .toString()
        .split('\n')
        .filter(Boolean)
        .map((line) => `[${name}] ${line}`)
        .join('\n');
    child.stdout.on('data', (d) => process.stdout.write(prefix(d) + '\n'));
    child.stderr.on('data', (d) => process.stderr.write(prefix(d) + '\n'));
    return child;
  });
}

async function waitFor(url, what, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${what} not ready after ${timeoutMs / 1000}s (${url})`);
}

/**
 * Each remote from its own origin, with CORS (the shell fetches the manifest across origins), served
 * as the gateway serves the shell: the build's .br/.gz by Accept-Encoding, hashed names cached a year.
 * Its current build (<app>/dist) at the root; releases kept aside (<app>/releases/<version>) at
 * /<version>/, for REMOTE_MF_*_VERSION to pin (docs/adr/0035-ship-one-remote.md).
 */
function serveRemotes() {
  const express = require(path.join(root, 'node_modules/express'));
  const { serveBuiltFiles } = require(path.join(root, 'gateway/dist/src/static.js'));
  return Object.entries(REMOTE_DIRS).map(([name, dir]) => {
    const app = express();
    app.disable('x-powered-by');
    app.use((_req, res, next) => {
      res.setHeader('Access-Control-Allow-Origin', '*');
      next();
    });
    app.use(serveBuiltFiles(path.join(root, dir, 'dist')));
    app.use(serveBuiltFiles(path.join(root, dir, 'releases')));
    return app.listen(PORTS[name], '127.0.0.1');
  });
}

let stopping = false;
let kafkaWasRunning = true;
let servers = [];
async function stop(code = 0) {
  if (stopping) {
    // a second Ctrl-C while stopping: leave at once rather than be ignored
    log('stopping now');
    process.exit(code || 130);
  }
  stopping = true;
  log('stopping…');
  stopWebBuilds();
  stopTypeCheck();
  await supervisor?.stop();
  servers.forEach((s) => s.close());
  await mailCatcher?.close();
  if (!kafkaWasRunning && !process.env.CARAVAN_KEEP_KAFKA) infra.stopKafka();
  await infra.stopPostgres();
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

const publicUrl = process.env.PUBLIC_URL ?? `http://127.0.0.1:${PORTS.gateway}`;
// svc-payments: the acquirer posts its callbacks to the gateway's public URL; without MODULBANK_URL the
// built-in sandbox bank (its payer page) listens on its own port
// svc-carriers: without a vendor's URL its sandbox (a page that moves parcels along) listens on its own port;
// CDEK's webhooks and 17TRACK's pushes come to the gateway's public URL
const CARRIER_SANDBOXES = ['cdek', 'pec', 'jde', 'ozon', 'cnt'];

const at = () => `${(performance.now() / 1000).toFixed(1)}s`; // since this process started
const database = process.env.CARAVAN_DATABASE ?? 'caravan';
const topicPrefix = process.env.KAFKA_TOPIC_PREFIX ?? '';
// Mail: SMTP_URL if set; else the local catcher (real SMTP), whose inbox is readable over HTTP.
let mailCatcher = null;
let remotesBuilt = Promise.resolve(0);

/**
 * What can run at once does (docs/adr/0032): the server packages (SWC when stale), PostgreSQL and Kafka
 * side by side; the services and the gateway as soon as those are there; the shell built first and alone
 * (it is the page everyone waits for), the remotes after it, while the system starts. Ready: the services and the gateway answer and the login page is served.
 * The remotes may still be building then (they are needed after login): their servers serve whatever is
 * built, and a line says when they are all there.
 */
async function startAll() {
  const serverBuilt = buildServer({ log });
  const stale = web ? staleWebApps().map((s) => s.app) : [];
  if (web) log(stale.length ? `building ${stale.join(', ')}` : 'web apps unchanged since their build');
  const shellBuilt = stale.includes('shell') ? buildWebApps(['shell']) : Promise.resolve(0);
  const remotes = stale.filter((app) => app !== 'shell');
  remotesBuilt = shellBuilt.then(() => (remotes.length ? buildWebApps(remotes) : 0));
  remotesBuilt.catch(() => {}); // awaited below; a failure stops the start there
  kafkaWasRunning = process.env.KAFKA_BROKERS
    ? true
    : await fetch(`http://127.0.0.1:${infra.localKafka().port}`).then(
        () => true,
        (e) => e?.cause?.code !== 'ECONNREFUSED',
      );
  if (!process.env.SMTP_URL) {
    const { startMailCatcher } = require('./mail-catcher.js');
    mailCatcher = await startMailCatcher({ smtpPort: PORTS.smtp, httpPort: PORTS.mail });
  }
  // the services and the gateway create the topics themselves (service-kit, built above)
  const [{ DATABASE_URL, KAFKA_BROKERS }, buildSeconds] = await Promise.all([
    infra.up(database, { fresh: process.env.CARAVAN_FRESH_DB === '1', topicPrefix, topics: false }),
    serverBuilt,
  ]);
  if (!buildSeconds) log('server packages unchanged since their build');
  if (web) servers = serveRemotes(); // gateway/dist's static server: after the server build
  log(`PostgreSQL and Kafka ready, services starting at ${at()}`);
  const common = {
    DATABASE_URL,
    KAFKA_BROKERS,
    KAFKA_TOPIC_PREFIX: topicPrefix,
    SEED_DEMO: process.env.SEED_DEMO ?? 'true',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  };
  for (const name of SERVICES) runService(name, common);
  const servicesReady = Promise.all(
    // they start while webpack takes the cores: a longer wait than the gateway's
    SERVICES.map((n) => waitFor(`http://127.0.0.1:${PORTS[n]}/readyz`, `svc-${n}`, 300_000)),
  ).then(() => log(`services ready at ${at()}`));
  runGateway(common); // it serves the shell's files once they are built
  await Promise.all([
    servicesReady,
    waitFor(`http://127.0.0.1:${PORTS.gateway}/api/healthz`, 'gateway'),
    shellBuilt,
  ]);
}

const SERVICES = ['orders', 'payments', 'carriers'];

/** svc-<name>; without TELEGRAM_BOT_TOKEN svc-orders runs the built-in Bot API sandbox (its page shows what each chat got). */
function runService(name, common) {
  const extra = {
    orders: {
      TELEGRAM_SANDBOX_PORT: String(PORTS.telegram),
      // notification mail (docs/adr/0028): the same SMTP as the gateway's; its links lead to the gateway
      PUBLIC_URL: publicUrl,
      SMTP_URL: process.env.SMTP_URL ?? mailCatcher.smtpUrl,
    },
    payments: { PUBLIC_URL: publicUrl, ACQUIRER_SANDBOX_PORT: String(PORTS.acquirer) },
    carriers: {
      PUBLIC_URL: publicUrl,
      ...Object.fromEntries(
        CARRIER_SANDBOXES.map((v) => [`${v.toUpperCase()}_SANDBOX_PORT`, String(PORTS[v])]),
      ),
    },
  };
  run(`svc-${name}`, `svc-${name}/dist/src/main.js`, {
    ...common,
    ...extra[name],
    PORT: String(PORTS[name]),
  });
}

function runGateway(common) {
  run('gateway', 'gateway/dist/src/main.js', {
    ...common,
    PORT: String(PORTS.gateway),
    SHELL_DIST: web ? path.join(root, 'shell/dist') : '',
    PUBLIC_URL: publicUrl,
    SMTP_URL: process.env.SMTP_URL ?? mailCatcher.smtpUrl,
    SERVICE_URL_ORDERS: `http://127.0.0.1:${PORTS.orders}`,
    SERVICE_URL_PAYMENTS: `http://127.0.0.1:${PORTS.payments}`,
    SERVICE_URL_CARRIERS: `http://127.0.0.1:${PORTS.carriers}`,
    REMOTE_URL_MF_ORDERS: process.env.REMOTE_URL_MF_ORDERS ?? `http://127.0.0.1:${PORTS.mf_orders}`,
    REMOTE_URL_MF_WALLET: process.env.REMOTE_URL_MF_WALLET ?? `http://127.0.0.1:${PORTS.mf_wallet}`,
    REMOTE_URL_MF_DIRECTORIES:
      process.env.REMOTE_URL_MF_DIRECTORIES ?? `http://127.0.0.1:${PORTS.mf_directories}`,
  });
}

/** After the banner: the remotes still building, then the type check the SWC build skipped. */
async function afterReady() {
  try {
    if ((await Promise.race([remotesBuilt, 'building'])) === 'building')
      log('the remotes are still building: the screens after login come once they are built');
    await remotesBuilt;
    if (web) log(`web apps all built at ${at()}`); // system.mjs and the e2e run wait for this line
  } catch (err) {
    if (stopping) return; // the build stopped with the start
    console.error('[start] failed:', err instanceof Error ? err.message : err);
    return stop(1);
  }
  if (!stopping) await typeCheckServer({ log });
}

try {
  await startAll();
} catch (err) {
  console.error('[start] failed:', err instanceof Error ? err.message : err);
  await stop(1);
}

console.log(`
  Caravan is running (ready in ${at()}): http://127.0.0.1:${PORTS.gateway}

  demo logins (password ${process.env.DEMO_PASSWORD ?? 'caravan123'} unless noted):
    admin     admin@caravan.local   (password ${process.env.ADMIN_PASSWORD ?? 'caravan-admin'})
    operator  operator@caravan.local  (operator «Восточный экспресс»)
    operator  operator2@caravan.local (operator «Шёлковый путь»)
    client    client@caravan.local    (client «ООО «Ромашка»»)
    client    client2@caravan.local   (client «ИП Соколов»)
    client    client3@caravan.local   (client «Анна Петрова»)
    waiting   waiting@caravan.local   (not yet approved)

  remotes: mf-orders :${PORTS.mf_orders}  mf-wallet :${PORTS.mf_wallet}  mf-directories :${PORTS.mf_directories}
  bank:    ${process.env.MODULBANK_URL ? `acquiring at ${process.env.MODULBANK_URL}` : `the sandbox bank's payer pages at http://127.0.0.1:${PORTS.acquirer}/pay/… (opened from the top-up and payment dialogs)`}
  carriers: ${CARRIER_SANDBOXES.map((v) =>
    process.env[`${v.toUpperCase()}_URL`]
      ? `${v} at ${process.env[`${v.toUpperCase()}_URL`]}`
      : `${v} sandbox http://127.0.0.1:${PORTS[v]}/`,
  ).join(', ')}
  telegram: ${process.env.TELEGRAM_BOT_TOKEN ? `the bot at ${process.env.TELEGRAM_API_ROOT || 'https://api.telegram.org'}` : `the Bot API sandbox http://127.0.0.1:${PORTS.telegram}/ (what each chat received; write to the bot there)`}
  mail:    ${mailCatcher ? `caught by the local catcher, read them at ${mailCatcher.httpUrl}/messages` : `sent through ${process.env.SMTP_URL}`}
  Ctrl-C stops everything.
`);
void afterReady();
