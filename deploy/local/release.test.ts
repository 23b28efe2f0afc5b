import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * `npm run release -- <package>` releases one package alone (docs/adr/0034). It runs in a copy of the
 * repository's files (a git repository of its own, node_modules linked), so the repository is never touched.
 */
const root = path.resolve(__dirname, '../..');
let copy = '';
let nx = ''; // lerna's Nx keeps its files here, not in the copy nor in the linked node_modules
const git = (...args: string[]) => execFileSync('git', args, { cwd: copy, encoding: 'utf8' });
const readJson = (file: string) => JSON.parse(readFileSync(path.join(copy, file), 'utf8'));

function release(...args: string[]) {
  return spawnSync('node', ['deploy/local/release.mjs', ...args], {
    cwd: copy,
    encoding: 'utf8',
    env: { ...process.env, NX_DAEMON: 'false', NX_CACHE_DIRECTORY: nx, NX_WORKSPACE_DATA_DIRECTORY: nx },
  });
}

/** Commits `file` with one more line, as a team's change. */
function change(file: string, subject: string) {
  const at = path.join(copy, file);
  writeFileSync(at, `${readFileSync(at, 'utf8')}\n// ${subject}\n`);
  commit(subject, file);
}
const commit = (subject: string, ...files: string[]) => {
  git('add', ...files);
  git('-c', 'user.name=release test', '-c', 'user.email=release@caravan.test', 'commit', '-q', '-m', subject);
};

beforeAll(() => {
  copy = mkdtempSync(path.join(os.tmpdir(), 'caravan-release-'));
  nx = mkdtempSync(path.join(os.tmpdir(), 'caravan-release-nx-'));
  // the working tree as it is (committed or not), without what git ignores
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  for (const file of listed.split('\0').filter((f) => f && existsSync(path.join(root, f)))) {
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    cpSync(path.join(root, file), path.join(copy, file));
  }
  symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'));
  git('init', '-q');
  commit('the repository', '-A');
  change('libs/mf-kit/shared.js', 'mf-kit: a change its team ships');
  change('mf-wallet/src/index.ts', 'mf-wallet: a change of another team');
});
afterAll(() => {
  for (const dir of [copy, nx]) if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a patch of mf-kit changes its version, its changelog and the lockfile entry, and packs its tarball', () => {
  const dependentsBefore = ['shell', 'mf-wallet'].map((d) => readJson(`${d}/package.json`));
  const result = release('mf-kit', 'patch');
  expect(result.status).toBe(0);
  expect(result.stdout).toContain(
    '[release] @caravan/mf-kit 0.1.0 → 0.1.1: deploy/release/caravan-mf-kit-0.1.1.tgz',
  );

  // only the package's files and its lockfile entry: its dependents (shell, remotes) keep version and range
  expect(git('status', '--porcelain').split('\n').filter(Boolean).sort()).toEqual([
    ' M libs/mf-kit/CHANGELOG.md',
    ' M libs/mf-kit/package.json',
    ' M package-lock.json',
  ]);
  expect(git('diff', '--numstat', 'package-lock.json')).toMatch(/^1\t1\tpackage-lock.json/);
  expect(readJson('package-lock.json').packages['libs/mf-kit'].version).toBe('0.1.1');
  expect(readJson('libs/mf-kit/package.json').version).toBe('0.1.1');
  expect(['shell', 'mf-wallet'].map((d) => readJson(`${d}/package.json`))).toEqual(dependentsBefore);

  const changelog = readFileSync(path.join(copy, 'libs/mf-kit/CHANGELOG.md'), 'utf8');
  expect(changelog).toMatch(
    /^# Changelog — @caravan\/mf-kit\n\n## 0\.1\.1 — \d{4}-\d\d-\d\d\n\n- mf-kit: a change its team ships\n\n## 0\.1\.0\n/,
  );

  const tarball = path.join(copy, 'deploy/release/caravan-mf-kit-0.1.1.tgz');
  const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean);
  expect(files).toEqual(
    expect.arrayContaining([
      'package/package.json',
      'package/CHANGELOG.md',
      'package/index.js',
      'package/shared.js',
    ]),
  );
  expect(files.filter((f) => f.endsWith('.test.ts'))).toEqual([]);
  const packed = JSON.parse(
    execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
  );
  expect(packed.version).toBe('0.1.1');
});

test('a version outside the range the remotes declare is refused, naming them, and changes nothing', () => {
  const status = git('status', '--porcelain');
  const result = release('ui-kit', 'minor', '--no-build');
  expect(result.status).toBe(1);
  expect(result.stderr).toContain('@caravan/ui-kit 0.2.0 is outside the range its dependents declare');
  expect(result.stderr).toContain('@caravan/mf-wallet wants ^0.1.0');
  expect(git('status', '--porcelain')).toBe(status);
});
