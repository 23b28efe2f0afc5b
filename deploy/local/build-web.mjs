// Builds the shell and the three remotes with webpack, two at a time (the machines have 2 cores), and
// prints the size of each remoteEntry.js built.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { distSizes, printRemoteEntries } from './web-sizes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const apps = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['shell', 'mf-orders', 'mf-wallet', 'mf-directories'];
const concurrency = Number(process.env.WEB_BUILD_CONCURRENCY ?? 2);
const webpack = path.join(root, 'node_modules/.bin/webpack');

function build(app) {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(webpack, ['--mode', 'production'], {
      cwd: path.join(root, app),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => {
      const seconds = ((Date.now() - t0) / 1000).toFixed(1);
      if (code === 0 && !/ERROR in/.test(output)) {
        console.log(`[build-web] ${app} built in ${seconds}s`);
        resolve();
      } else {
        console.error(output);
        reject(new Error(`${app} failed to build`));
      }
    });
  });
}

const queue = [...apps];
const t0 = Date.now();
await Promise.all(
  Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
    while (queue.length) await build(queue.shift());
  }),
);
console.log(`[build-web] all built in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
printRemoteEntries(distSizes(apps));
