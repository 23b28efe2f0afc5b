// `npm test`: build, infrastructure, then unit, integration (real PostgreSQL + Kafka) and e2e (Chromium)
// tests. Ends with one line "tests: N passed, N failed".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { buildIfStale } from './build.mjs';
import * as infra from './infra.mjs';

const root = infra.root;
const cache = path.join(root, 'node_modules/.cache/caravan-test');
mkdirSync(cache, { recursive: true });
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const t0 = Date.now();
const timings = {};

function step(name, command, args, env = {}) {
  const started = Date.now();
  console.log(`\n[test] ${name}: ${[path.basename(command), ...args].join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  timings[name] = ((Date.now() - started) / 1000).toFixed(1);
  return result.status === 0;
}

const jestCounts = (file) => {
  if (!existsSync(file)) return { passed: 0, failed: 1 };
  const r = JSON.parse(readFileSync(file, 'utf8'));
  return { passed: r.numPassedTests, failed: r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0) };
};
const playwrightCounts = (file) => {
  if (!existsSync(file)) return { passed: 0, failed: 1 };
  const s = JSON.parse(readFileSync(file, 'utf8')).stats;
  return { passed: s.expected, failed: s.unexpected + s.flaky };
};

const only = process.argv.slice(2);
const want = (name) => only.length === 0 || only.includes(name);
let ok = true;

buildIfStale();
const kafkaWasRunning =
  Boolean(process.env.KAFKA_BROKERS) ||
  spawnSync(path.join(root, 'deploy/local/kafka/kafka.sh'), ['status'], {
    env: { ...process.env, ...infra.localKafka().env },
  }).status === 0;
const brokers = infra.ensureKafka();

// One remote's and one service's team ship alone (ADR 0034): their packages' own `npm test`, run by lerna with
// only their dependencies. The unit step leaves these packages out, so no test runs twice.
const SLICES = ['@caravan/mf-wallet', '@caravan/svc-payments'];
const scoped = SLICES.flatMap((name) => ['--scope', name]).concat('--include-dependencies');
// lerna runs its tasks through Nx: no daemon left behind, and its files in this checkout even in a git worktree
const nx = { NX_DAEMON: 'false', NX_CACHE_DIRECTORY: path.join(root, 'node_modules/.cache/nx') };

/** The folders of the slices' packages: the two packages and every package they depend on. */
function slicedFolders() {
  const listed = spawnSync(bin('lerna'), ['ls', '--all', ...scoped, '--json', '--loglevel', 'silent'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...nx },
  });
  return JSON.parse(listed.stdout || '[]').map((p) => p.location);
}

/** Runs the slices; each package's jest run appends its counts to a file (deploy/local/jest-counts.js). */
function runSlices() {
  const out = path.join(cache, 'slices.ndjson');
  rmSync(out, { force: true });
  const passed = step('slices', bin('lerna'), ['run', 'test', ...scoped, '--no-sort'], {
    ...nx,
    CARAVAN_TEST_COUNTS: out,
  });
  const runs = existsSync(out) ? readFileSync(out, 'utf8').split('\n').filter(Boolean) : [];
  return { passed, counts: runs.length ? runs.map((line) => JSON.parse(line)) : [{ passed: 0, failed: 1 }] };
}

/** The integration files run side by side (docs/adr/0037); more than two only queue for this machine's 2 cores. */
const INTEGRATION_WORKERS = 2;
/** The unit files: one per core. */
const UNIT_WORKERS = 2;

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const counts = [];
if (want('unit')) {
  const sliced = slicedFolders();
  const slices = runSlices();
  ok = slices.passed && sliced.length > 0 && ok;
  counts.push(...slices.counts);

  const out = path.join(cache, 'unit.json');
  const leftOut = ['/node_modules/', ...sliced.map((dir) => `^${escapeRegExp(dir)}/`)];
  ok =
    step('unit', bin('jest'), [
      '--selectProjects',
      'unit',
      'web',
      // jest's default on 2 cores is one worker; these tests are CPU-bound and share nothing (80 s → 47 s)
      `--maxWorkers=${UNIT_WORKERS}`,
      '--testPathIgnorePatterns',
      ...leftOut,
      '--json',
      `--outputFile=${out}`,
    ]) && ok;
  counts.push(jestCounts(out));
}
if (want('integration')) {
  const out = path.join(cache, 'integration.json');
  // Two files at a time, each worker on its own databases, topics and test ports (docs/adr/0037): half the
  // suite's time is spent waiting on deliveries and timers. --forceExit only guards CI against a leaked handle.
  const workers = `--maxWorkers=${INTEGRATION_WORKERS}`;
  ok =
    step(
      'integration',
      bin('jest'),
      ['--selectProjects', 'integration', workers, '--forceExit', '--json', `--outputFile=${out}`],
      { KAFKA_BROKERS: brokers },
    ) && ok;
  counts.push(jestCounts(out));
}
if (want('e2e')) {
  ok =
    step('e2e', bin('playwright'), ['test', '-c', 'e2e/playwright.config.ts'], { KAFKA_BROKERS: brokers }) &&
    ok;
  counts.push(playwrightCounts(path.join(root, 'e2e/test-results/results.json')));
}
if (!kafkaWasRunning) infra.stopKafka();

const total = counts.reduce((a, c) => ({ passed: a.passed + c.passed, failed: a.failed + c.failed }), {
  passed: 0,
  failed: 0,
});
console.log(
  `\n[test] timings (s): ${JSON.stringify(timings)}, total ${((Date.now() - t0) / 1000).toFixed(1)}s`,
);
console.log(`tests: ${total.passed} passed, ${total.failed} failed`);
process.exit(ok && total.failed === 0 && total.passed > 0 ? 0 : 1);
