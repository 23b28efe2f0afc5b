import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ADMIN, expect, login, test } from './support';

/**
 * Ship one remote, nothing else (issue 20, docs/adr/0035-ship-one-remote.md): mf-wallet is rebuilt aside
 * with a new version and only its origin's files are replaced, under the running system; the open shell
 * shows the new version after a reload, and putting the files back rolls it back. A wallet built
 * against an incompatible ui-kit is refused with its area's placeholder while the rest works.
 * The original files are put back after the spec, whatever happened (the other specs use them).
 */
const root = path.resolve(__dirname, '..');
const walletDir = path.join(root, 'mf-wallet');
const served = path.join(walletDir, 'dist'); // what start.mjs serves on mf-wallet's origin
const kept = path.join(walletDir, '.dist-before-ship-e2e'); // a dot folder: no build input, never served
const webpack = path.join(root, 'node_modules/.bin/webpack');

const versionOf = (pkg: string) =>
  (JSON.parse(readFileSync(path.join(root, pkg, 'package.json'), 'utf8')) as { version: string }).version;
const nextPatch = (version: string) =>
  version.replace(/^(\d+)\.(\d+)\.(\d+).*$/, (_, a, b, c) => `${a}.${b}.${Number(c) + 1}`);
const nextMajor = (version: string) => `${Number(version.split('.')[0]) + 1}.0.0`;

const current = versionOf('mf-wallet');
const shipped = nextPatch(current);
const incompatibleUiKit = nextMajor(versionOf('libs/ui-kit'));
let out = '';
const builds = { shipped: '', incompatible: '' };

/** mf-wallet's production build into `dir`, as a team would build a release (libs/mf-kit). */
async function buildWallet(dir: string, env: Record<string, string>) {
  await promisify(execFile)(webpack, ['--mode', 'production'], {
    cwd: walletDir,
    env: { ...process.env, CARAVAN_WEB_OUT: dir, ...env },
    maxBuffer: 16 * 1024 * 1024,
  });
  expect(existsSync(path.join(dir, 'mf-manifest.json'))).toBe(true);
}

/** Replaces only mf-wallet's served files (the originals kept aside once). */
function ship(build: string) {
  if (existsSync(kept)) rmSync(served, { recursive: true, force: true });
  else renameSync(served, kept);
  cpSync(build, served, { recursive: true });
}

/** Puts the original files back (also those of a run that died before it could). */
function rollBack() {
  if (!existsSync(kept)) return;
  rmSync(served, { recursive: true, force: true });
  renameSync(kept, served);
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(300_000); // two webpack builds of the remote, ≈ 15 s each on an idle machine
  rollBack();
  out = mkdtempSync(path.join(tmpdir(), 'caravan-ship-'));
  builds.shipped = path.join(out, 'shipped');
  builds.incompatible = path.join(out, 'incompatible');
  await buildWallet(builds.shipped, { MF_BUILD_VERSION: shipped });
  await buildWallet(builds.incompatible, {
    MF_BUILD_VERSION: shipped,
    MF_SHARED_VERSIONS: `@caravan/ui-kit=${incompatibleUiKit}`,
  });
});

test.afterAll(() => {
  rollBack();
  if (out) rmSync(out, { recursive: true, force: true });
});

test('a new mf-wallet replaces the old one on its own origin; the open shell shows it after a reload', async ({
  page,
}) => {
  await login(page, ADMIN);
  await page.goto('/wallet');
  await expect(page.getByRole('heading', { name: 'Кошельки' })).toBeVisible();
  await expect(page.getByText(`модуль кошельков, версия ${current}`)).toBeVisible();

  ship(builds.shipped);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Кошельки' })).toBeVisible();
  await expect(page.getByText(`модуль кошельков, версия ${shipped}`)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('wallet-shipped.png') });
  // the other remotes were not touched
  await page.getByRole('navigation', { name: 'меню' }).getByText('страны').click();
  await expect(page.getByRole('heading', { name: 'Страны' })).toBeVisible();

  rollBack();
  await page.goto('/wallet');
  await expect(page.getByText(`модуль кошельков, версия ${current}`)).toBeVisible();
});

test('a wallet built against an incompatible ui-kit is refused with a placeholder; the rest works', async ({
  page,
}) => {
  ship(builds.incompatible);
  await login(page, ADMIN);
  const menu = page.getByRole('navigation', { name: 'меню' });
  await expect(menu.getByText('кошельки: недоступно')).toBeVisible();

  await page.goto('/wallet');
  await expect(
    page.getByText('Раздел «кошельки» не подключён: его версия несовместима с приложением'),
  ).toBeVisible();
  await expect(
    page.getByText(
      new RegExp(
        `^mf-wallet ${shipped} собран с @caravan/ui-kit ${incompatibleUiKit}, а приложение принимает `,
      ),
    ),
  ).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('wallet-refused.png') });

  await menu.getByText('клиенты').click();
  await expect(page.getByRole('heading', { name: 'Клиенты' })).toBeVisible();
  await menu.getByText('страны').click();
  await expect(page.getByRole('heading', { name: 'Страны' })).toBeVisible();

  rollBack();
  await page.goto('/wallet');
  await expect(page.getByRole('heading', { name: 'Кошельки' })).toBeVisible();
});
