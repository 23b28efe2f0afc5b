import { REMOTE_NAMES, type RemoteManifest, type RemoteName, type Reply } from '@caravan/contracts';
import type { RemoteRoute } from '@caravan/ui-kit';
import { initHost } from '@caravan/mf-kit/host';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';

export type LoadedRemote =
  | { name: RemoteName; status: 'ready'; routes: RemoteRoute[] }
  | { name: RemoteName; status: 'failed'; routes: [] };

const LOAD_TIMEOUT_MS = 15_000;

const withTimeout = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms)),
  ]);

/**
 * Finds the remotes at run time (GET /api/remotes), registers them and loads each one's `./routes`.
 * A remote that fails is reported as failed; the others load regardless.
 */
export async function loadRemotes(): Promise<LoadedRemote[]> {
  initHost('shell');
  let manifest: RemoteManifest = [];
  try {
    const reply = (await (await fetch('/api/remotes')).json()) as Reply<RemoteManifest>;
    if (reply.ok) manifest = reply.result;
  } catch {
    /* every remote is shown as unavailable below */
  }
  registerRemotes(manifest.map((r) => ({ name: r.name, entry: r.entry })));
  return Promise.all(
    REMOTE_NAMES.map(async (name): Promise<LoadedRemote> => {
      if (!manifest.some((r) => r.name === name)) return { name, status: 'failed', routes: [] };
      try {
        const module = await withTimeout(
          loadRemote<{ default: RemoteRoute[] }>(`${name}/routes`),
          LOAD_TIMEOUT_MS,
        );
        if (!module || !Array.isArray(module.default)) throw new Error('no routes exposed');
        return { name, status: 'ready', routes: module.default };
      } catch (error) {
        console.error(`remote ${name} failed to load`, error);
        return { name, status: 'failed', routes: [] };
      }
    }),
  );
}
