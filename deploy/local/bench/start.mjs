// `node deploy/local/bench/start.mjs` (part of `npm run bench`, BENCH_ONLY=start): how long `npm start`
// takes until the system is ready (issue 21): it printed its banner (the services and the gateway are
// ready), the gateway's /api/readyz answers and the login page is served with every script it names.
// Two starts on a fresh database each (ports +24000, its own database and topic prefix):
//   first:  fresh-clone-like, every build output and build cache removed (tsc outputs, web dists,
//           webpack's cache, the input keys of deploy/local/build.mjs)
//   second: nothing changed since the first
//   BENCH_START_PORT_OFFSET  its ports (default BENCH_PORT_OFFSET, else 24000)
//   BENCH_START_ONLY=second  measures the second start only (keeps what is built)
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import * as infra from '../infra.mjs';

const root = infra.root;
const offset = Number(process.env.BENCH_START_PORT_OFFSET ?? process.env.BENCH_PORT_OFFSET ?? 24000);
const baseUrl = `http://127.0.0.1:${8080 + offset}`;
const database = process.env.BENCH_START_DATABASE ?? 'caravan_bench_start';
const topicPrefix = `bench-start-${Date.now()}-`;
const GOALS = { first: 35, second: 15 };
const WEB_APPS = ['shell', 'mf-orders', 'mf-wallet', 'mf-directories'];
const log = (...a) => console.log('[bench start]', ...a);

/** What a fresh clone does not have: every build output and cache (sources and node_modules stay). */
function removeBuildOutputs() {
  execFileSync(path.join(root, 'node_modules/.bin/tsc'), ['-b', 'tsconfig.build.json', '--clean'], {
    cwd: root,
    stdio: 'inherit',
  });
  for (const dir of [
    ...WEB_APPS.map((app) => path.join(app, 'dist')),
    'libs/contracts/dist',
    'libs/service-kit/dist',
    'node_modules/.cache/webpack',
    'node_modules/.cache/caravan-build', // the tsc and SWC keys
  ])
    rmSync(path.join(root, dir), { recursive: true, force: true });
}

async function ok(url) {
  try {
    const res = await fetch(url);
    return res.ok ? res : null;
  } catch {
    return null;
  }
}

/** Ready: the gateway's readiness and the login page, its HTML and every script it loads. */
async function loginPageServed() {
  if (!(await ok(`${baseUrl}/api/readyz`))) return false;
  const page = await ok(`${baseUrl}/`);
  if (!page) return false;
  const html = await page.text();
  const scripts = [...html.matchAll(/<script[^>]*\ssrc=["']?([^"'\s>]+)/g)].map((m) => m[1]);
  if (!scripts.length) return false;
  const served = await Promise.all(scripts.map((src) => ok(new URL(src, baseUrl).toString())));
  return served.every(Boolean);
}

const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/**
 * The CPU seconds a process group has used so far: its live processes' own time and that of the
 * children they have waited for (tsc and webpack once they exited). Independent of the machine's
 * load, unlike the wall time (the machine is shared).
 */
function groupCpuSeconds(pgid) {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // after the command's ')': state ppid pgrp … utime(14) stime(15) cutime(16) cstime(17), 1-based
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) !== pgid) continue;
    ticks += [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
  }
  return ticks / TICKS;
}

/**
 * `npm start` on a fresh database until ready; then, once its remotes are built too (they may finish
 * after the banner, docs/adr/0032: the next start must find nothing to build), Ctrl-C as a developer
 * would. Returns seconds.
 */
async function timeStart() {
  const t0 = performance.now();
  const child = spawn('npm', ['start'], {
    cwd: root,
    detached: true, // its own process group: npm, node and the services stop together
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      CARAVAN_PORT_OFFSET: String(offset),
      CARAVAN_DATABASE: database,
      CARAVAN_FRESH_DB: '1',
      CARAVAN_KEEP_KAFKA: '1',
      KAFKA_TOPIC_PREFIX: topicPrefix,
      LOG_LEVEL: 'error',
    },
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let seconds = null;
  let cpu = null;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited before it was ready:\n${output}`);
      // the banner: the services are ready too (the gateway answers before them)
      if (/Caravan is running/.test(output) && (await loginPageServed())) {
        seconds = (performance.now() - t0) / 1000;
        cpu = groupCpuSeconds(child.pid);
        break;
      }
      if (performance.now() - t0 > 600_000)
        throw new Error(`npm start not ready after 10 minutes:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    while (!/web apps all built/.test(output) && child.exitCode === null)
      await new Promise((r) => setTimeout(r, 200));
  } finally {
    if (child.exitCode === null) process.kill(-child.pid, 'SIGINT');
    await exited;
  }
  const printed = /ready in ([\d.]+)s/.exec(output)?.[1];
  const builds = output
    .split('\n')
    .filter((l) => /^\[(build-web|start|infra)\]/.test(l))
    .map((l) => `    ${l}`);
  if (builds.length) console.log(builds.join('\n'));
  log(
    `ready after ${seconds.toFixed(1)}s, ${cpu.toFixed(1)} CPU-seconds${printed ? ` (npm start printed: ready in ${printed}s)` : ''}`,
  );
  return { seconds, cpu };
}

const row = (name, { seconds, cpu }, goal) =>
  console.log(
    `${name.padEnd(50)} ${seconds.toFixed(1).padStart(6)} s   goal ≤ ${goal} s   ${seconds <= goal ? 'ok    ' : 'MISSED'}  (${cpu.toFixed(1)} CPU-seconds on ${cpus().length} cores)`,
  );

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
log(`${cpus().length} cores, load average ${load()}`);
const results = [];
if (process.env.BENCH_START_ONLY !== 'second') {
  removeBuildOutputs();
  log('first start (build outputs and caches removed)…');
  results.push(['npm start ready, first start (fresh-clone-like)', await timeStart(), GOALS.first]);
  log(`load average ${load()}`);
}
log('second start (nothing changed)…');
results.push(['npm start ready, second start (nothing changed)', await timeStart(), GOALS.second]);
log(`load average ${load()}`);
await infra.deleteTopics(process.env.KAFKA_BROKERS ?? `127.0.0.1:${infra.localKafka().port}`, topicPrefix);

console.log('');
for (const [name, measured, goal] of results) row(name, measured, goal);
process.exit(results.every(([, m, goal]) => m.seconds <= goal) ? 0 : 1);
