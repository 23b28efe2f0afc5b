import { loadGatewayConfig } from './config';
import { remoteManifest } from './remotes';

/** /api/remotes as configuration makes it (docs/adr/0035-ship-one-remote.md). */
describe('the remotes manifest', () => {
  it("points at each remote's current release at the root of its origin", () => {
    const config = loadGatewayConfig({ REMOTE_URL_MF_WALLET: 'https://wallet.caravan.example.ru/' });
    expect(remoteManifest(config)).toEqual([
      { name: 'mf_orders', entry: 'http://127.0.0.1:8081/mf-manifest.json' },
      { name: 'mf_wallet', entry: 'https://wallet.caravan.example.ru/mf-manifest.json' },
      { name: 'mf_directories', entry: 'http://127.0.0.1:8083/mf-manifest.json' },
    ]);
  });

  it('pins one remote to a release folder of its origin and names the version the shell must find there', () => {
    const config = loadGatewayConfig({
      REMOTE_URL_MF_WALLET: 'https://wallet.caravan.example.ru',
      REMOTE_MF_WALLET_VERSION: '1.2.0',
    });
    const [orders, wallet] = remoteManifest(config);
    expect(wallet).toEqual({
      name: 'mf_wallet',
      entry: 'https://wallet.caravan.example.ru/1.2.0/mf-manifest.json',
      version: '1.2.0',
    });
    expect(orders).toEqual({ name: 'mf_orders', entry: 'http://127.0.0.1:8081/mf-manifest.json' });
  });

  it('refuses a pin that is not a version (it becomes a path on the origin)', () => {
    expect(() => loadGatewayConfig({ REMOTE_MF_WALLET_VERSION: '../admin' })).toThrow(
      /REMOTE_MF_WALLET_VERSION/,
    );
  });
});
