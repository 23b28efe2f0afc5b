import type { RemoteManifest, RemoteName } from '@caravan/contracts';
import type { GatewayConfig } from './config';

/**
 * GET /api/remotes: where the shell finds each remote, from configuration (docs/adr/0035-ship-one-remote.md).
 * A remote's origin serves its current release at its root and may keep earlier or later ones in
 * `/<version>/` folders; `REMOTE_<NAME>_VERSION` pins one of those, and the shell refuses a build
 * whose manifest says another. Unpinned, the root is used: shipping is replacing its files, and so
 * is rolling back; pinned, rolling back is pointing the variable back.
 */
export function remoteManifest(config: GatewayConfig): RemoteManifest {
  const remotes: [RemoteName, string, string][] = [
    ['mf_orders', config.REMOTE_URL_MF_ORDERS, config.REMOTE_MF_ORDERS_VERSION],
    ['mf_wallet', config.REMOTE_URL_MF_WALLET, config.REMOTE_MF_WALLET_VERSION],
    ['mf_directories', config.REMOTE_URL_MF_DIRECTORIES, config.REMOTE_MF_DIRECTORIES_VERSION],
  ];
  return remotes.map(([name, url, version]) => {
    const origin = url.replace(/\/+$/, '');
    return version
      ? { name, entry: `${origin}/${version}/mf-manifest.json`, version }
      : { name, entry: `${origin}/mf-manifest.json` };
  });
}
