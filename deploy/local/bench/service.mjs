// One service process for a bench part, on its own database and port: the database recreated, Kafka
// reused when something answers on 127.0.0.1:9092 (else started, and stopped again afterwards), the
// service's topics under a prefix of this run (deleted afterwards); resolves once /readyz answers.
// Calls go straight at the service's POST /rpc with an identity signed as the gateway would sign it.
// The caller builds first (buildIfStale): the kit and the contracts are read from their dist.
//
//   const svc = await startBenchService({ service: 'svc-orders', database: 'caravan_bench_x', port });
//   const admin = signIdentity(1, ['admin']);
//   const { ms, result } = await rpc(svc.base, admin, 'client_order_list', {});
//   await svc.stop();
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as infra from '../infra.mjs';

const root = infra.root;
const require = createRequire(import.meta.url);
const kit = () => require(path.join(root, 'libs/service-kit/dist/index.js'));
const contracts = () => require(path.join(root, 'libs/contracts/dist/index.js'));

const kafkaAnswers = () =>
  fetch('http://127.0.0.1:9092').then(
    () => true,
    (e) => e?.cause?.code !== 'ECONNREFUSED',
  );

/** Polls `check` until it holds; gives up when the process exits first or after `ms`. */
async function untilReady(check, exited, name, ms = 120_000) {
  let gone = null;
  exited.then((how) => (gone = how));
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (gone) throw new Error(`${name} exited before it was ready (${JSON.stringify(gone)})`);
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${name} did not become ready`);
}

/**
 * Starts `service` (its dist/src/main.js, or `entry`: another build to measure) with PORT `port` on a
 * fresh `database`. `env` adds to the service's environment (LOG_LEVEL=error, SEED_DEMO=false unless
 * given); `nodeArgs` go before the entry (e.g. --cpu-prof); `logs: true` shows the service's log
 * (stdout: an error reply's cause), else only its stderr. Returns its base URL, DATABASE_URL, pid and
 * stop() (the service, its topics, Kafka if this started it, an embedded PostgreSQL if infra started one).
 */
export async function startBenchService({
  service,
  database,
  port,
  topicPrefix = `${database}-`,
  entry,
  env = {},
  nodeArgs = [],
  logs = false,
}) {
  const kafkaWasRunning = Boolean(process.env.KAFKA_BROKERS) || (await kafkaAnswers());
  const databaseUrl = await infra.ensurePostgres(database, { fresh: true });
  const kafkaBrokers = infra.ensureKafka();
  const prefix = `${topicPrefix}${Date.now()}-`;
  const child = spawn(
    process.execPath,
    [...nodeArgs, entry ?? path.join(root, service, 'dist/src/main.js')],
    {
      cwd: root,
      stdio: ['ignore', logs ? 'inherit' : 'ignore', 'inherit'],
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        KAFKA_BROKERS: kafkaBrokers,
        KAFKA_TOPIC_PREFIX: prefix,
        PORT: String(port),
        SEED_DEMO: 'false',
        LOG_LEVEL: 'error',
        ...env,
      },
    },
  );
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const base = `http://127.0.0.1:${port}`;
  let stopping = null;
  const stop = () =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await infra.deleteTopics(kafkaBrokers, prefix).catch(() => {});
      if (!kafkaWasRunning) infra.stopKafka();
      await infra.stopPostgres();
    })());
  try {
    await untilReady(async () => (await fetch(`${base}/readyz`)).ok, exited, service);
  } catch (err) {
    await stop();
    throw err;
  }
  return { base, databaseUrl, kafkaBrokers, topicPrefix: prefix, pid: child.pid, exited, stop };
}

/** The identity header's value for a user with `roles` (and client_ids / operator_ids in `more`). */
export function signIdentity(userId, roles, more = {}, ttlSeconds = 3600) {
  const k = kit();
  return k.signIdentity(
    {
      user_id: userId,
      fullname: 'bench',
      roles,
      state: 'working',
      client_ids: [],
      operator_ids: [],
      ...more,
    },
    process.env.IDENTITY_TOKEN_SECRET ?? k.DEV_IDENTITY_SECRET,
    ttlSeconds,
  );
}

/** The identity header's name (contracts' IDENTITY_HEADER). */
export const identityHeader = () => contracts().IDENTITY_HEADER;

/** One POST /rpc as `identity` (a signed header value); a refusal throws. Returns the time taken and the result. */
export async function rpc(base, identity, method, params) {
  const t = performance.now();
  const res = await fetch(`${base}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [identityHeader()]: identity },
    body: JSON.stringify({ method, params }),
  });
  const body = await res.json();
  if (!body.ok) throw new Error(`${method} ${JSON.stringify(params).slice(0, 200)}: ${body.message}`);
  return { ms: performance.now() - t, result: body.result };
}

/** A process's peak resident memory so far (VmHWM), in MB; null where /proc has no such field. */
export function peakRssMb(pid) {
  const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : null;
}

/** CPU time (user + system) a process has used so far, in ms; null where /proc has no such process. */
export function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // after the command's ')': state is field 3, utime and stime fields 14 and 15, in ticks of 1/100 s
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** The value at percentile `p` of ascending `sorted` samples. */
export const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

let missed = false;
/** A goal's word beside its figure, 'ok' or 'MISSED'; a miss makes the bench end with 1 (exitByGoals). */
export function verdict(ok) {
  if (!ok) missed = true;
  return ok ? 'ok' : 'MISSED';
}
/** The bench failed without a figure (an error): it ends with 1. */
export function missGoal() {
  missed = true;
}
/** Ends the bench: 1 after a missed goal or an error, else 0. */
export const exitByGoals = () => process.exit(missed ? 1 : 0);
/** A count with thousands separated (9,000). */
export const thousands = (n) => Math.round(n).toLocaleString('en-US');
/** p50, p95, median and worst of a list of samples (ms). */
export function summary(samples) {
  const s = [...samples].sort((a, b) => a - b);
  return {
    p50: percentile(s, 50),
    p95: percentile(s, 95),
    median: percentile(s, 50),
    worst: s[s.length - 1],
  };
}

/** A process's CPU time so far (user + system), in seconds; 0 when it is gone. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The system's processes by name (its gateway and services under start.mjs) and the database's backends. */
export async function systemProcesses(rootPid, db) {
  const parents = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const named = [];
  for (const [pid] of parents) {
    let p = pid;
    while (p && p !== rootPid) p = parents.get(p);
    if (!p) continue;
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const name = /(gateway|svc-[a-z]+)\/dist\/src\/main\.js/.exec(cmd)?.[1];
    if (name) named.push({ name, pids: [pid] });
  }
  const { rows } = await db.query('select pid from pg_stat_activity where datname = current_database()');
  named.push({ name: 'postgres', pids: rows.map((r) => r.pid) });
  named.push({ name: 'this bench', pids: [process.pid] });
  return named;
}

/** CPU seconds each of the system's processes spends while `work` runs (a backend born meanwhile counts whole). */
export async function cpuDuring(processes, work) {
  const snapshot = async () => {
    const cpu = new Map();
    for (const p of await processes())
      for (const pid of p.pids) cpu.set(pid, { name: p.name, s: cpuSeconds(pid) });
    return cpu;
  };
  const before = await snapshot();
  const t0 = performance.now();
  const result = await work();
  const seconds = (performance.now() - t0) / 1000;
  const used = new Map();
  for (const [pid, { name, s: now }] of await snapshot())
    used.set(name, (used.get(name) ?? 0) + now - (before.get(pid)?.s ?? 0));
  return { result, seconds, used: [...used].sort((a, b) => b[1] - a[1]) };
}
