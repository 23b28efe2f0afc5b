// `npm run release -- <package> [patch|minor|major] [--no-build]`: releases one package alone (ADR 0034).
// lerna bumps its version (lerna.json: only the packages named by --force-publish, no tag, no commit, no push),
// the package's CHANGELOG.md gets the entry, and `npm pack` writes its tarball to deploy/release/.
// The files it changes (the package's package.json and CHANGELOG.md, package-lock.json) are the team's to commit.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
// lerna's own semver: the one that computes the bump below
const semver = createRequire(createRequire(import.meta.url).resolve('lerna'))('semver');
const BUMPS = ['patch', 'minor', 'major'];

function fail(message) {
  console.error(`[release] ${message}`);
  process.exit(1);
}

// lerna runs through Nx: no daemon left behind, and its files in this checkout even in a git worktree
const env = {
  ...process.env,
  NX_DAEMON: 'false',
  NX_CACHE_DIRECTORY: process.env.NX_CACHE_DIRECTORY ?? path.join(root, 'node_modules/.cache/nx'),
};
const run = (command, args, options = {}) =>
  execFileSync(command, args, {
    cwd: root,
    encoding: 'utf8',
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
    ...options,
  });

/** Every package lerna knows (lerna.json's "packages"), with its folder and manifest. */
function packages() {
  const listed = JSON.parse(run(bin('lerna'), ['ls', '--all', '--json', '--loglevel', 'silent']));
  return listed.map((p) => ({
    name: p.name,
    dir: path.relative(root, p.location),
    manifest: JSON.parse(readFileSync(path.join(p.location, 'package.json'), 'utf8')),
  }));
}

/** The packages whose declared range for `name` does not accept `version`: they would have to be released too. */
function dependentsLeftBehind(all, name, version) {
  return all.flatMap((p) => {
    const range = p.manifest.dependencies?.[name] ?? p.manifest.devDependencies?.[name];
    return range && !semver.satisfies(version, range) ? [`${p.name} wants ${range}`] : [];
  });
}

/** The subjects of the commits that touched the package since its changelog last changed (its last release). */
function changesSinceLastRelease(dir) {
  const changelog = path.join(dir, 'CHANGELOG.md');
  const last = run('git', ['log', '-1', '--format=%H', '--', changelog]).trim();
  const range = last ? [`${last}..HEAD`] : [];
  const subjects = run('git', ['log', '--format=%s', ...range, '--', dir])
    .split('\n')
    .filter(Boolean);
  return subjects.length ? subjects : ['no commits touched the package since the last release'];
}

function writeChangelog(pkg, version, lines) {
  const file = path.join(root, pkg.dir, 'CHANGELOG.md');
  const title = `# Changelog — ${pkg.name}\n`;
  const before = existsSync(file) ? readFileSync(file, 'utf8').replace(title, '').replace(/^\n+/, '') : '';
  const date = new Date().toISOString().slice(0, 10);
  const entry = `## ${version} — ${date}\n\n${lines.map((l) => `- ${l}`).join('\n')}\n`;
  writeFileSync(file, `${title}\n${entry}${before ? `\n${before}` : ''}`);
}

const args = process.argv.slice(2);
const build = !args.includes('--no-build');
const [wanted, bump = 'patch'] = args.filter((a) => !a.startsWith('--'));
if (!wanted) fail('which package? npm run release -- <package> [patch|minor|major] [--no-build]');
if (!BUMPS.includes(bump)) fail(`the bump is one of ${BUMPS.join(', ')}, not '${bump}'`);

const all = packages();
const pkg = all.find((p) => p.name === wanted || p.name === `@caravan/${wanted}` || p.dir === wanted);
if (!pkg) fail(`no package '${wanted}': ${all.map((p) => p.name).join(', ')}`);
const version = semver.inc(pkg.manifest.version, bump);
const behind = dependentsLeftBehind(all, pkg.name, version);
if (behind.length)
  fail(
    `${pkg.name} ${version} is outside the range its dependents declare (${behind.join('; ')}): ` +
      `raise their ranges and release them with it (npx lerna version ${bump} --force-publish ${pkg.name},<dependent>…)`,
  );

const lines = changesSinceLastRelease(pkg.dir);
run(bin('lerna'), ['version', bump, '--yes', '--force-publish', pkg.name, '--loglevel', 'warn'], {
  stdio: 'inherit',
});
writeChangelog(pkg, version, lines);
if (build) run('npm', ['run', 'build', '--if-present', '-w', pkg.name], { stdio: 'inherit' });
const out = path.join(root, 'deploy/release');
mkdirSync(out, { recursive: true });
const [packed] = JSON.parse(run('npm', ['pack', '-w', pkg.name, '--json', '--pack-destination', out]));
console.log(
  `[release] ${pkg.name} ${pkg.manifest.version} → ${version}: ${path.relative(root, path.join(out, packed.filename))}`,
);
