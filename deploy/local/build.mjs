// Builds what is out of date: the server packages (tsc -b is incremental) and any web app whose
// sources, or the shared front-end libraries, changed since its last build.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WEB_APPS = ['shell', 'mf-orders', 'mf-wallet', 'mf-directories'];

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** `web: false` builds the server side only (the benchmark needs no browser code). */
export function buildIfStale({ web = true } = {}) {
  execFileSync(path.join(root, 'node_modules/.bin/tsc'), ['-b', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (!web) return;
  const shared = Math.max(
    ...['libs/ui-kit/src', 'libs/contracts/src', 'libs/mf-kit'].map((d) => newestMtime(path.join(root, d))),
  );
  const stale = WEB_APPS.filter((app) => {
    // the shell's page, a remote's entry: the last files each build writes
    const built = path.join(root, app, app === 'shell' ? 'dist/index.html' : 'dist/mf-manifest.json');
    return (
      !existsSync(built) ||
      statSync(built).mtimeMs < Math.max(shared, newestMtime(path.join(root, app, 'src')))
    );
  });
  if (stale.length)
    execFileSync('node', [path.join(root, 'deploy/local/build-web.mjs'), ...stale], {
      cwd: root,
      stdio: 'inherit',
    });
}
