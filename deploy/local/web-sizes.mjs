// The front end's weight, next to its goals (issue 8; the login page's ≤ 150 KB gzip from issue 21):
//   - from the built dist folders: each remoteEntry.js and every app's JS/CSS, gzip and brotli;
//   - in headless Chromium as a user: the login page's JS as served (bytes on the wire), then the
//     admin's cold session through the clients, wallets and countries screens (every JS/CSS file).
// The browser part runs against WEB_SIZES_URL (a running `npm start`, e.g. http://127.0.0.1:33080) or,
// without it, starts its own system on ports +22000 (WEB_SIZES_PORT_OFFSET, else BENCH_PORT_OFFSET) with its
// own database (WEB_SIZES_DATABASE) and stops it after.
//   node deploy/local/web-sizes.mjs [--static]   (--static: the dist folders only, no browser)
import { startSystemProcess } from './system.mjs';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
export const WEB_APPS = ['shell', 'mf-orders', 'mf-wallet', 'mf-directories'];

export const GOALS = {
  loginJsGzip: 150 * 1024,
  remoteEntryGzip: 15 * 1024,
};

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const verdict = (value, goal) => `${value <= goal ? 'ok  ' : 'OVER'} goal ≤ ${kb(goal)}`;

export const gzipSize = (buf) => gzipSync(buf, { level: 9 }).length;
export const brotliSize = (buf) =>
  brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

/** A built file's sizes: raw, and gzip / brotli as written next to it by the build (or computed). */
export function fileSizes(file) {
  const raw = readFileSync(file);
  const pre = (ext) => (existsSync(file + ext) ? readFileSync(file + ext).length : null);
  return { raw: raw.length, gzip: pre('.gz') ?? gzipSize(raw), br: pre('.br') ?? brotliSize(raw) };
}

/** Each app's remoteEntry.js and its JS/CSS totals, from its dist folder. */
export function distSizes(apps = WEB_APPS) {
  return apps
    .filter((app) => existsSync(path.join(root, app, 'dist')))
    .map((app) => {
      const dist = path.join(root, app, 'dist');
      const files = readdirSync(dist).filter((f) => /\.(js|css)$/.test(f));
      const total = { js: { raw: 0, gzip: 0, files: 0 }, css: { raw: 0, gzip: 0, files: 0 } };
      for (const f of files) {
        const s = fileSizes(path.join(dist, f));
        const t = f.endsWith('.js') ? total.js : total.css;
        t.raw += s.raw;
        t.gzip += s.gzip;
        t.files += 1;
      }
      const entry = path.join(dist, 'remoteEntry.js');
      return { app, remoteEntry: existsSync(entry) ? fileSizes(entry) : null, total };
    });
}

export function printRemoteEntries(sizes) {
  for (const { app, remoteEntry } of sizes)
    if (remoteEntry && app !== 'shell')
      console.log(
        `  ${`${app} remoteEntry.js`.padEnd(32)} ${kb(remoteEntry.raw).padStart(9)} raw ${kb(remoteEntry.gzip).padStart(9)} gzip ${kb(remoteEntry.br).padStart(9)} br   ${verdict(remoteEntry.gzip, GOALS.remoteEntryGzip)}`,
      );
}

function printDist(sizes) {
  console.log('\nbuilt files (dist)');
  printRemoteEntries(sizes);
  for (const { app, total } of sizes)
    console.log(
      `  ${`${app} all JS (${total.js.files} files)`.padEnd(32)} ${kb(total.js.raw).padStart(9)} raw ${kb(total.js.gzip).padStart(9)} gzip;  CSS ${kb(total.css.raw)} raw ${kb(total.css.gzip)} gzip (written, not all loaded)`,
    );
}

/** Every JS/CSS response a page receives: its URL, encoding, bytes on the wire and gzip size. */
function recordAssets(page) {
  const assets = [];
  page.on('requestfinished', async (request) => {
    const url = request.url();
    if (!/\.(js|css)(\?|$)/.test(new URL(url).pathname)) return;
    const response = await request.response();
    if (!response) return;
    const [sizes, body, headers] = await Promise.all([
      request.sizes(),
      response.body().catch(() => Buffer.alloc(0)),
      response.allHeaders(),
    ]);
    assets.push({
      url,
      kind: url.split('?')[0].endsWith('.css') ? 'css' : 'js',
      encoding: headers['content-encoding'] ?? 'identity',
      wire: sizes.responseBodySize,
      raw: body.length,
      gzip: gzipSize(body),
    });
  });
  return assets;
}

const sum = (list, key) => list.reduce((a, x) => a + x[key], 0);
const byKind = (assets, kind) => assets.filter((a) => a.kind === kind);

function printAssets(title, assets) {
  const js = byKind(assets, 'js');
  const css = byKind(assets, 'css');
  const encodings = [...new Set(assets.map((a) => a.encoding))].join(', ');
  console.log(`  ${title}`);
  console.log(
    `    JS:  ${String(js.length).padStart(3)} files  ${kb(sum(js, 'wire')).padStart(9)} as served  ${kb(sum(js, 'gzip')).padStart(9)} gzip  ${kb(sum(js, 'raw')).padStart(9)} raw`,
  );
  console.log(
    `    CSS: ${String(css.length).padStart(3)} files  ${kb(sum(css, 'wire')).padStart(9)} as served  ${kb(sum(css, 'gzip')).padStart(9)} gzip  ${kb(sum(css, 'raw')).padStart(9)} raw   (encodings: ${encodings})`,
  );
}

async function login(page) {
  await page.getByLabel('email').fill('admin@caravan.local');
  await page.getByLabel('пароль').fill(process.env.ADMIN_PASSWORD ?? 'caravan-admin');
  await page.getByRole('button', { name: 'войти' }).click();
  await page.getByRole('navigation', { name: 'меню' }).waitFor();
}

async function openScreen(page, menuText, heading) {
  await page.getByRole('navigation', { name: 'меню' }).getByText(menuText, { exact: true }).click();
  await page.getByRole('heading', { name: heading }).waitFor();
  await page.waitForLoadState('networkidle');
}

/** The login page cold, then the admin's session through a screen of each remote. */
export async function measureInBrowser(baseUrl) {
  const { chromium } = require('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    const context = await browser.newContext({ locale: 'ru-RU' });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('response', (r) => r.status() >= 400 && errors.push(`${r.status()} ${r.url()}`));
    const assets = recordAssets(page);
    await page.goto(baseUrl, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'войти' }).waitFor();
    const loginAssets = [...assets];
    await login(page);
    await openScreen(page, 'клиенты', 'Клиенты');
    await openScreen(page, 'кошельки', 'Кошельки');
    await openScreen(page, 'страны', 'Страны');
    const remoteEntries = assets.filter((a) => a.url.endsWith('/remoteEntry.js'));
    return { login: loginAssets, session: [...assets], remoteEntries, errors };
  } finally {
    await browser.close();
  }
}

function printBrowser(baseUrl, m) {
  const loginJs = byKind(m.login, 'js');
  const loginJsServed = sum(loginJs, 'wire');
  console.log(`\nin Chromium (${baseUrl}), cold cache`);
  printAssets('login page', m.login);
  console.log(
    `    initial JS on the login page: ${kb(loginJsServed)} as served, ${kb(sum(loginJs, 'gzip'))} gzip   ${verdict(sum(loginJs, 'gzip'), GOALS.loginJsGzip)}`,
  );
  printAssets(
    'admin session: login page + clients, wallets, countries (total JS/CSS of a cold visit)',
    m.session,
  );
  for (const e of m.remoteEntries)
    console.log(
      `    ${new URL(e.url).host.padEnd(18)} remoteEntry.js  ${kb(e.wire).padStart(9)} as served (${e.encoding})  ${kb(e.gzip).padStart(9)} gzip   ${verdict(e.gzip, GOALS.remoteEntryGzip)}`,
    );
  if (m.errors.length) console.log(`  errors in the page:\n    ${m.errors.join('\n    ')}`);
  const largestEntry = Math.max(...m.remoteEntries.map((e) => e.gzip));
  console.log(
    `\n  summary: login page JS ${kb(loginJsServed)} as served (${kb(sum(loginJs, 'gzip'))} gzip, goal ≤ ${kb(GOALS.loginJsGzip)}), ${loginJs.length} files; largest remoteEntry ${kb(largestEntry)} gzip (goal ≤ ${kb(GOALS.remoteEntryGzip)}); cold admin session ${kb(sum(byKind(m.session, 'js'), 'wire') + sum(byKind(m.session, 'css'), 'wire'))} JS+CSS as served`,
  );
}

/** A whole system with web on ports +22000 or BENCH_PORT_OFFSET (its own database), for the browser part. */
const startSystem = () =>
  startSystemProcess({
    offset: Number(process.env.WEB_SIZES_PORT_OFFSET ?? process.env.BENCH_PORT_OFFSET ?? 22000),
    database: process.env.WEB_SIZES_DATABASE ?? 'caravan_websizes',
    prefix: 'websizes',
  });

/** The whole report; returns the figures (the bench prints them too). */
export async function webSizes({ browser = true } = {}) {
  let system = null;
  try {
    let baseUrl = process.env.WEB_SIZES_URL;
    if (browser && !baseUrl) {
      system = await startSystem(); // builds what is stale first
      baseUrl = system.baseUrl;
    }
    const dist = distSizes();
    console.log('\nfront-end weight');
    printDist(dist);
    if (!browser) return { dist };
    const measured = await measureInBrowser(baseUrl);
    printBrowser(baseUrl, measured);
    return { dist, ...measured };
  } finally {
    await system?.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await webSizes({ browser: !process.argv.includes('--static') });
}
