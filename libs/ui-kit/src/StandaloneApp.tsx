import type { RemoteRoute } from '@caravan/slots';
import { Alignment, Card, Navbar, NavbarGroup, NavbarHeading } from '@blueprintjs/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Provider } from 'react-redux';
import { BrowserRouter, NavLink, Route, Routes } from 'react-router-dom';
import { getAuthToken } from './auth';
import { LoginForm } from './components/LoginForm';
import { createAppStore } from './store';

/**
 * A remote on its own dev server, for its team: a minimal frame with login (through the dev server's
 * /api proxy to a running gateway) and the remote's own routes. The real frame is the shell.
 */
export function StandaloneApp({ title, routes }: { title: string; routes: RemoteRoute[] }) {
  const { t } = useTranslation();
  const store = useMemo(() => createAppStore(), []);
  const [token, setToken] = useState(getAuthToken());
  return (
    <Provider store={store}>
      <BrowserRouter>
        <Navbar>
          <NavbarGroup align={Alignment.LEFT}>
            <NavbarHeading>Caravan · {title} (standalone)</NavbarHeading>
            {routes
              .filter((r) => r.label)
              .map((r) => (
                <NavLink key={r.path} to={`/${r.path}`} className="bp6-button bp6-minimal">
                  {t(r.label!)}
                </NavLink>
              ))}
          </NavbarGroup>
        </Navbar>
        <main style={{ padding: 16 }}>
          {token ? (
            <Routes>
              {routes.map((r) => (
                <Route key={r.path} path={`/${r.path}`} element={<r.Component />} />
              ))}
              <Route
                path="*"
                element={
                  <p>
                    {title}: {t('common.chooseSection')}
                  </p>
                }
              />
            </Routes>
          ) : (
            <Card style={{ maxWidth: 360, margin: '40px auto' }}>
              <LoginForm onLoggedIn={() => setToken(getAuthToken())} />
            </Card>
          )}
        </main>
      </BrowserRouter>
    </Provider>
  );
}
