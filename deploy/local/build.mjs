// Builds what is out of date. Each build's output is keyed by a hash of what that build reads (its
// sources, the shared libraries it compiles, the lockfile and the build's own configuration): the key
// is written once the build succeeded, and a build whose inputs hash to the written key is skipped.
//   server: the packages of tsconfig.build.json (tsc -b); key in node_modules/.cache/caravan-build
//           `npm start` transpiles them with SWC instead (no type check, a second instead of ~30 CPU-seconds;
//           its own key, server-swc.key) and leaves the type check to tsc -b after the start (ADR 0032)
//   web:    the shell and each remote (webpack, deploy/local/build-web.mjs); key in <app>/dist
// Hashing every input file (a few MB) takes a fraction of a second; mtimes are not trusted (a checkout
// or a copy changes them without changing a byte).
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const WEB_APPS = ['shell', 'mf-orders', 'mf-wallet', 'mf-directories'];
const keyDir = path.join(root, 'node_modules/.cache/caravan-build');
const serverKeyFile = path.join(keyDir, 'server.key');
const swcKeyFile = path.join(keyDir, 'server-swc.key');
const require = createRequire(import.meta.url);
const tsc = path.join(root, 'node_modules/.bin/tsc');

/** The packages tsc -b builds, in tsconfig.build.json's order. */
export const SERVER_PROJECTS = JSON.parse(
  readFileSync(path.join(root, 'tsconfig.build.json'), 'utf8'),
).references.map((r) => r.path);

/** Never read by a build: outputs, installed packages, and the tests every tsconfig and bundle leaves out. */
const NOT_INPUT_DIRS = new Set(['dist', 'node_modules', 'test', 'coverage', 'test-results']);
const NOT_INPUT_FILE = /\.test\.tsx?$|^\./;

/** What the build of the server packages reads. */
const serverInputs = () => [
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'tsconfig.build.json',
  ...SERVER_PROJECTS,
];

/** What a web app's build reads: its folder, the libraries it bundles from source, mf-kit's config. */
const webInputs = (app) => [
  'package.json',
  'package-lock.json',
  app,
  'libs/ui-kit',
  'libs/slots',
  'libs/contracts',
  'libs/mf-kit',
];

function collectFiles(relative, into) {
  const full = path.join(root, relative);
  if (!existsSync(full)) return;
  const entries = readdirSync(full, { withFileTypes: true });
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = path.join(relative, entry.name);
    if (entry.isDirectory()) {
      if (!NOT_INPUT_DIRS.has(entry.name) && !entry.name.startsWith('.')) collectFiles(rel, into);
    } else if (!NOT_INPUT_FILE.test(entry.name)) into.push(rel);
  }
}

const digests = new Map();
/** A file's own hash, once per process (the lockfile is an input of every build). */
function fileDigest(file) {
  if (!digests.has(file))
    digests.set(
      file,
      createHash('sha256')
        .update(readFileSync(path.join(root, file)))
        .digest('hex'),
    );
  return digests.get(file);
}

/** sha256 over each input file's path and content, the folders walked in name order. */
export function inputsKey(inputs, salt = '') {
  const hash = createHash('sha256').update(`${salt}\0${process.version}\0`);
  for (const input of inputs) {
    const files = [];
    if (statSync(path.join(root, input), { throwIfNoEntry: false })?.isFile()) files.push(input);
    else collectFiles(input, files);
    for (const file of files) hash.update(`${file}\0${fileDigest(file)}\0`);
  }
  return hash.digest('hex');
}

const readKey = (file) => (existsSync(file) ? readFileSync(file, 'utf8').trim() : null);

// --- the server packages -------------------------------------------------------------------------

/** Whether tsc's outputs are those of the current sources: the key matches and every package's build is there. */
function serverStatus() {
  const key = inputsKey(serverInputs(), 'tsc');
  const built = SERVER_PROJECTS.every((p) => existsSync(path.join(root, p, 'dist/.tsbuildinfo')));
  return { key, fresh: built && readKey(serverKeyFile) === key };
}

function writeServerKey(key) {
  mkdirSync(keyDir, { recursive: true });
  writeFileSync(serverKeyFile, key);
}

/**
 * What tsc -b would write, without the type check: each package's sources (its tsconfig's include,
 * tests left out) transpiled one file at a time by SWC to CommonJS ES2022 under its outDir, as tsc lays
 * them out (rootDir). The sources are `isolatedModules`, so one file at a time means the same code.
 */
async function transpileServer() {
  const swc = require('@swc/core');
  const options = {
    jsc: {
      parser: { syntax: 'typescript' },
      target: 'es2022',
      keepClassNames: true,
      transform: { useDefineForClassFields: true },
    },
    // nodenext keeps import() in CommonJS output; so does this
    module: { type: 'commonjs', ignoreDynamic: true },
  };
  const jobs = [];
  for (const project of SERVER_PROJECTS) {
    const config = JSON.parse(readFileSync(path.join(root, project, 'tsconfig.json'), 'utf8'));
    const rootDir = path.join(root, project, config.compilerOptions.rootDir ?? '.');
    const outDir = path.join(root, project, config.compilerOptions.outDir ?? 'dist');
    const files = [];
    for (const dir of config.include) collectFiles(path.join(project, dir), files);
    for (const file of files.filter((f) => /\.ts$/.test(f) && !/\.(d|testkit)\.ts$/.test(f))) {
      const source = path.join(root, file);
      const target = path.join(outDir, path.relative(rootDir, source)).replace(/\.ts$/, '.js');
      jobs.push(
        swc.transformFile(source, options).then(async ({ code }) => {
          await mkdir(path.dirname(target), { recursive: true });
          await writeFile(target, code);
        }),
      );
    }
  }
  await Promise.all(jobs);
  return jobs.length;
}

/**
 * The server packages for `npm start`, by SWC when stale (tsc's key or SWC's matching is fresh);
 * resolves with the seconds it took, or 0 when nothing changed.
 */
export async function buildServer({ log = console.log } = {}) {
  const { key, fresh } = serverStatus();
  if ((fresh || readKey(swcKeyFile) === key) && existsSync(openApiFile)) return 0;
  const t0 = performance.now();
  rmSync(serverKeyFile, { force: true });
  rmSync(swcKeyFile, { force: true });
  const files = await transpileServer();
  writeOpenApi();
  mkdirSync(keyDir, { recursive: true });
  writeFileSync(swcKeyFile, key);
  const seconds = (performance.now() - t0) / 1000;
  log(`server packages built (SWC, ${files} files, no type check) in ${seconds.toFixed(1)}s`);
  return seconds;
}

let typeCheck = null;
export const stopTypeCheck = () => typeCheck?.kill('SIGTERM');

/**
 * The type check `npm start` skipped: tsc -b at a low priority once the start is done; its errors are
 * printed, the running services keep the transpiled code (the same JavaScript tsc writes).
 */
export async function typeCheckServer({ log = console.log } = {}) {
  const { key, fresh } = serverStatus();
  if (fresh) return;
  const t0 = performance.now();
  const code = await new Promise((resolve) => {
    typeCheck = spawn('nice', ['-n', '10', tsc, '-b', 'tsconfig.build.json'], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    typeCheck.on('error', () => resolve(-1));
    typeCheck.on('exit', resolve);
  });
  if (typeCheck.signalCode) return; // stopped with the start
  if (code !== 0)
    return log(`type check (tsc -b) failed (exit ${code}): the services run the transpiled code`);
  if (serverStatus().key !== key) return; // a source changed meanwhile: the next start checks again
  writeServerKey(key);
  log(`type check (tsc -b) passed in ${((performance.now() - t0) / 1000).toFixed(1)}s`);
}

/** The OpenAPI document the gateway serves, from the contracts as built (docs/adr/0026); after every tsc run. */
const openApiFile = path.join(root, 'gateway/dist/openapi.json');
function writeOpenApi() {
  execFileSync('node', [path.join(root, 'gateway/dist/src/openapi/write.js')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

// --- the web apps --------------------------------------------------------------------------------

const webKeyFile = (app) => path.join(root, app, 'dist/.inputs-key');
/** The file each app's build writes last: the shell's page, a remote's manifest. */
const webOutput = (app) =>
  path.join(root, app, app === 'shell' ? 'dist/index.html' : 'dist/mf-manifest.json');

/** The key of an app's current sources (to write once its build succeeded). */
export const webKey = (app) => inputsKey(webInputs(app), 'webpack production');

/** Records that `app`'s dist was built from the inputs that hashed to `key`. */
export function writeWebKey(app, key) {
  writeFileSync(webKeyFile(app), key);
}

/** The apps whose dist is missing or was built from other inputs, each with its current key. */
export function staleWebApps(apps = WEB_APPS) {
  return apps
    .map((app) => ({ app, key: webKey(app) }))
    .filter(({ app, key }) => !existsSync(webOutput(app)) || readKey(webKeyFile(app)) !== key);
}

// --- both ----------------------------------------------------------------------------------------

/**
 * Synchronous, for the scripts that need the build before anything else (tests, benchmarks).
 * `web: false` builds the server side only.
 */
export function buildIfStale({ web = true } = {}) {
  const server = serverStatus();
  if (!server.fresh) {
    rmSync(serverKeyFile, { force: true });
    rmSync(swcKeyFile, { force: true });
    execFileSync(tsc, ['-b', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
    writeOpenApi();
    writeServerKey(server.key);
  } else if (!existsSync(openApiFile)) writeOpenApi();
  if (!web) return;
  const stale = staleWebApps().map((s) => s.app);
  if (stale.length)
    execFileSync('node', [path.join(root, 'deploy/local/build-web.mjs'), ...stale], {
      cwd: root,
      stdio: 'inherit',
    });
}
