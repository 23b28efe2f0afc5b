import { REMOTE_NAMES, type RemoteManifest, type RemoteName, type Reply } from '@caravan/contracts';
import { initHost, SHARED_VERSIONS } from '@caravan/mf-kit/host';
import { isRemoteRoutesModule, REMOTE_ROUTES_MODULE, type RemoteRoute } from '@caravan/slots';
import { loadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import { readRemoteBuild, versionConflicts, type Refusal } from './remoteVersions';

export type LoadedRemote =
  | { name: RemoteName; status: 'ready'; routes: RemoteRoute[] }
  | { name: RemoteName; status: 'failed'; routes: [] }
  | { name: RemoteName; status: 'refused'; routes: []; refusal: Refusal };

const LOAD_TIMEOUT_MS = 15_000;

const withTimeout = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms)),
  ]);

/**
 * The manifests the shell has checked, handed to the federation runtime instead of a second fetch:
 * what loads is what was checked, even while the remote's files are being replaced.
 */
const checked = new Map<string, unknown>();
let pluginRegistered = false;
function serveCheckedManifests() {
  if (pluginRegistered) return;
  pluginRegistered = true;
  registerPlugins([
    {
      name: 'caravan-checked-manifests',
      fetch(url: string) {
        if (!checked.has(url)) return undefined;
        return Promise.resolve(
          new Response(JSON.stringify(checked.get(url)), { headers: { 'content-type': 'application/json' } }),
        );
      },
    },
  ]);
}

/** One remote: its manifest read and checked against the shell's versions, then its routes loaded. */
async function loadOne(name: RemoteName, at: RemoteManifest[number]): Promise<LoadedRemote> {
  const manifest: unknown = await (await fetch(at.entry, { cache: 'no-cache' })).json();
  const build = readRemoteBuild(manifest);
  if (!build) throw new Error('not a federation manifest');
  const conflicts = versionConflicts(build, SHARED_VERSIONS, at.version);
  if (conflicts.length > 0) {
    console.error(`remote ${name} ${build.version} refused`, conflicts);
    return {
      name,
      status: 'refused',
      routes: [],
      refusal: { remote: build.name, version: build.version, conflicts },
    };
  }
  checked.set(at.entry, manifest);
  registerRemotes([{ name, entry: at.entry }]);
  const module = await loadRemote(`${name}/${REMOTE_ROUTES_MODULE.slice(2)}`);
  if (!isRemoteRoutesModule(module)) throw new Error('no routes exposed');
  return { name, status: 'ready', routes: module.default };
}

/**
 * Finds the remotes at run time (GET /api/remotes) and loads each one's `./routes`, unless its build
 * does not fit the shell. A remote that fails or is refused is reported so; the others load regardless.
 */
export async function loadRemotes(): Promise<LoadedRemote[]> {
  initHost('shell');
  serveCheckedManifests();
  let manifest: RemoteManifest = [];
  try {
    const reply = (await (await fetch('/api/remotes')).json()) as Reply<RemoteManifest>;
    if (reply.ok) manifest = reply.result;
  } catch {
    /* every remote is shown as unavailable below */
  }
  return Promise.all(
    REMOTE_NAMES.map(async (name): Promise<LoadedRemote> => {
      const at = manifest.find((r) => r.name === name);
      if (!at) return { name, status: 'failed', routes: [] };
      try {
        return await withTimeout(loadOne(name, at), LOAD_TIMEOUT_MS);
      } catch (error) {
        console.error(`remote ${name} failed to load`, error);
        return { name, status: 'failed', routes: [] };
      }
    }),
  );
}
