// Builds the shell and the three remotes with webpack, two at a time (the machines have 2 cores), and
// prints the size of each remoteEntry.js built. Each app's dist gets the key of the inputs it was
// built from (deploy/local/build.mjs), so that a start with nothing changed skips it.
//   node deploy/local/build-web.mjs [app…]   (default: all four)
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WEB_APPS, webKey, writeWebKey } from './build.mjs';
import { distSizes, printRemoteEntries } from './web-sizes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const webpack = path.join(root, 'node_modules/.bin/webpack');

const building = new Set();
/** Stops the builds under way (a start stopped before its remotes were built). */
export const stopWebBuilds = () => building.forEach((child) => child.kill('SIGTERM'));

/** One app's production build; `key`: its inputs' hash, taken before the build read them. */
function build(app, key, log) {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(webpack, ['--mode', 'production'], {
      cwd: path.join(root, app),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    building.add(child);
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      building.delete(child);
      const seconds = ((performance.now() - t0) / 1000).toFixed(1);
      if (code === 0 && !/ERROR in/.test(output)) {
        writeWebKey(app, key);
        log(`${app} built in ${seconds}s`);
        resolve();
      } else {
        console.error(output);
        reject(new Error(`${app} failed to build`));
      }
    });
  });
}

/** Builds `apps`, `concurrency` at a time; resolves with the seconds it took. */
export async function buildWebApps(
  apps = WEB_APPS,
  {
    concurrency = Number(process.env.WEB_BUILD_CONCURRENCY ?? 2),
    log = (...a) => console.log('[build-web]', ...a),
  } = {},
) {
  // the shell first: it is the longest, and the page everyone waits for
  const queue = [...apps]
    .sort((a, b) => (b === 'shell') - (a === 'shell'))
    .map((app) => ({ app, key: webKey(app) }));
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
      while (queue.length) {
        const { app, key } = queue.shift();
        await build(app, key, log);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  if (apps.length > 1) log(`${apps.join(', ')} built in ${seconds.toFixed(1)}s`);
  printRemoteEntries(distSizes(apps));
  return seconds;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildWebApps(process.argv.slice(2).length ? process.argv.slice(2) : WEB_APPS);
}
