import { renderInWorld, USERS } from '@caravan/ui-kit/testing';
import { screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { Layout } from './layout/Layout';
import type { LoadedRemote } from './remotes';
import {
  readRemoteBuild,
  refusalLines,
  versionConflicts,
  type HostShared,
  type Refusal,
} from './remoteVersions';

/** The shell as it runs: ui-kit 1.2.0 accepted by ^1.2.0, react 19.3.1 by ^19.2.0. */
const HOST: HostShared = {
  '@caravan/ui-kit': { version: '1.2.0', requiredVersion: '^1.2.0' },
  react: { version: '19.3.1', requiredVersion: '^19.2.0' },
  '@caravan/slots': { version: '1.0.0', requiredVersion: false },
};

/** An mf-manifest.json as the remote's build writes it (its shared singletons with import: false). */
const manifest = (shared: Record<string, [version: string, required: string]>, version = '1.4.0') => ({
  id: 'mf_wallet',
  name: 'mf_wallet',
  metaData: { buildInfo: { buildVersion: version, buildName: '@caravan/mf-wallet' } },
  shared: Object.entries(shared).map(([name, [v, requiredVersion]]) => ({
    id: `mf_wallet:${name}`,
    name,
    version: v,
    singleton: true,
    requiredVersion,
  })),
  exposes: [],
});
const build = (...args: Parameters<typeof manifest>) => readRemoteBuild(manifest(...args))!;

describe('a remote build against the shell', () => {
  it('reads the version and the singletons a build was made with from its manifest', () => {
    expect(build({ react: ['19.3.1', '^19.2.0'] })).toEqual({
      name: 'mf-wallet',
      version: '1.4.0',
      shared: [{ name: 'react', version: '19.3.1', requiredVersion: '^19.2.0' }],
    });
    expect(readRemoteBuild({ error: 'not found' })).toBeNull();
    expect(readRemoteBuild('<html>')).toBeNull();
  });

  it('fits when every singleton it was built with is in the range the shell accepts', () => {
    const fits = build({ '@caravan/ui-kit': ['1.2.5', '^1.2.0'], react: ['19.2.0', '^19.2.0'] });
    expect(versionConflicts(fits, HOST)).toEqual([]);
  });

  it('is refused when built against a ui-kit outside the range the shell accepts', () => {
    const newer = build({ '@caravan/ui-kit': ['2.0.0', '^2.0.0'], react: ['19.3.1', '^19.2.0'] });
    expect(versionConflicts(newer, HOST)).toEqual([
      { kind: 'built', package: '@caravan/ui-kit', built: '2.0.0', accepted: '^1.2.0' },
    ]);
  });

  it("is refused when it needs a newer copy than the shell's, even inside the shell's range", () => {
    const needsNewer = build({ '@caravan/ui-kit': ['1.3.0', '^1.3.0'] });
    expect(versionConflicts(needsNewer, HOST)).toEqual([
      { kind: 'needs', package: '@caravan/ui-kit', needs: '^1.3.0', provided: '1.2.0' },
    ]);
  });

  it("takes the caret range of the shell's own version where the shell declares none", () => {
    expect(versionConflicts(build({ '@caravan/slots': ['1.1.0', '^1.1.0'] }), HOST)).toEqual([
      { kind: 'needs', package: '@caravan/slots', needs: '^1.1.0', provided: '1.0.0' },
    ]);
    expect(versionConflicts(build({ '@caravan/slots': ['2.0.0', '^2.0.0'] }), HOST)).toEqual([
      { kind: 'built', package: '@caravan/slots', built: '2.0.0', accepted: '^1.0.0' },
    ]);
  });

  it('is refused when it wants a singleton the shell does not provide', () => {
    expect(versionConflicts(build({ zustand: ['5.0.0', '^5.0.0'] }), HOST)).toEqual([
      { kind: 'unknown', package: 'zustand' },
    ]);
  });

  it('is refused when configuration pins another version than the one its address serves', () => {
    expect(versionConflicts(build({}, '1.4.0'), HOST, '1.3.0')).toEqual([
      { kind: 'pinned', pinned: '1.3.0', found: '1.4.0' },
    ]);
    expect(versionConflicts(build({}, '1.3.0'), HOST, '1.3.0')).toEqual([]);
  });
});

describe('a refused remote in the shell', () => {
  const refusal: Refusal = {
    remote: 'mf-wallet',
    version: '1.4.0',
    conflicts: [{ kind: 'built', package: '@caravan/ui-kit', built: '2.0.0', accepted: '^1.2.0' }],
  };
  const ordersPage = () => <h1>Заказы клиентов</h1>;
  const remotes: LoadedRemote[] = [
    {
      name: 'mf_orders',
      status: 'ready',
      routes: [{ path: 'client_order', label: 'menu.orders', roles: [], Component: ordersPage }],
    },
    { name: 'mf_wallet', status: 'refused', routes: [], refusal },
    { name: 'mf_directories', status: 'failed', routes: [] },
  ];
  const renderShell = (url: string) =>
    renderInWorld(
      <Layout user={USERS.admin} remotes={remotes} onExit={() => {}} onUserChanged={() => {}} />,
      { url, path: '/*', answers: { notification_list: () => ({ items: [], total: 0 }) } },
    );

  afterEach(() => i18next.changeLanguage('ru'));

  it("shows the placeholder naming the remote and the conflict in the remote's area, in Russian", async () => {
    renderShell('/wallet');
    expect(
      await screen.findByText('Раздел «кошельки» не подключён: его версия несовместима с приложением'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('mf-wallet 1.4.0 собран с @caravan/ui-kit 2.0.0, а приложение принимает ^1.2.0'),
    ).toBeInTheDocument();
    const menu = screen.getByRole('navigation', { name: 'меню' });
    expect(within(menu).getByText('кошельки: недоступно')).toBeInTheDocument();
  });

  it('keeps the other remotes working', async () => {
    renderShell('/client_order');
    expect(await screen.findByRole('heading', { name: 'Заказы клиентов' })).toBeInTheDocument();
  });

  it('says it in English when switched', async () => {
    await i18next.changeLanguage('en');
    renderShell('/fin_operation');
    expect(
      await screen.findByText(
        'The “wallets” section is not loaded: its version does not fit the application',
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText('mf-wallet 1.4.0 is built with @caravan/ui-kit 2.0.0; the application accepts ^1.2.0'),
    ).toBeInTheDocument();
  });

  it('words every kind of conflict without internal names', () => {
    const t = i18next.t.bind(i18next);
    const lines = refusalLines(t, {
      remote: 'mf-wallet',
      version: '1.4.0',
      conflicts: [
        { kind: 'needs', package: '@caravan/ui-kit', needs: '^1.3.0', provided: '1.2.0' },
        { kind: 'unknown', package: 'zustand' },
        { kind: 'pinned', pinned: '1.3.0', found: '1.4.0' },
      ],
    });
    expect(lines).toEqual([
      'mf-wallet 1.4.0 требует @caravan/ui-kit ^1.3.0, а в приложении 1.2.0',
      'mf-wallet 1.4.0 требует zustand, которого в приложении нет',
      'mf-wallet: в настройках закреплена версия 1.3.0, а по её адресу лежит 1.4.0',
    ]);
  });
});
