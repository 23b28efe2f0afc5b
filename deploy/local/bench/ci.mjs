// `node deploy/local/bench/ci.mjs` (part of `npm run bench`, BENCH_ONLY=ci): how long CI takes (issue 21): a fresh
// clone of this checkout's HEAD (committed work only) into a temporary folder, then `bash .ci/run` in it, as CI
// runs it: npm ci, build, typecheck, lint and `npm test`. Prints the whole time beside the goal (≤ 8 min) and the
// test steps' own timings, and exits 1 when CI fails or misses the goal. Takes as long as CI (about a quarter of
// an hour on 2 cores). KAFKA_BROKERS, when set, is the clone's broker too (else it starts its own, as CI does).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import * as infra from '../infra.mjs';
import { exitByGoals, missGoal, verdict } from './service.mjs';

const GOAL_SECONDS = 8 * 60;
const log = (...a) => console.log('[bench ci]', ...a);

const dir = mkdtempSync(path.join(tmpdir(), 'caravan-bench-ci-'));
const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
  cwd: infra.root,
  encoding: 'utf8',
}).trim();
execFileSync('git', ['clone', '-q', infra.root, dir]);
const loadBefore = loadavg()[0];
log(
  `fresh clone of ${head} in ${dir}; bash .ci/run (load average ${loadBefore.toFixed(1)}, ${cpus().length} cores)`,
);

const started = Date.now();
let output = '';
const code = await new Promise((resolve) => {
  const child = spawn('bash', ['.ci/run'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr])
    stream.on('data', (chunk) => {
      output += chunk;
      // the test steps and the counts, not the whole log
      for (const line of String(chunk).split('\n'))
        if (/^\[ci\]|^\[test\] (timings|[a-z0-9-]+:)|^tests: /.test(line)) log(line);
    });
  child.on('close', resolve);
});
const seconds = (Date.now() - started) / 1000;
if (code !== 0) {
  missGoal();
  console.log(output.slice(-4000));
}
rmSync(dir, { recursive: true, force: true });

console.log(
  `\nfresh-clone bash .ci/run   ${seconds.toFixed(0)} s (${(seconds / 60).toFixed(1)} min)   exit ${code}   goal ≤ ${GOAL_SECONDS} s (8 min)   ${verdict(code === 0 && seconds <= GOAL_SECONDS)}`,
);
exitByGoals();
