import { NonIdealState, Spinner } from '@blueprintjs/core';
import type { CurrentUser } from '@caravan/contracts';
import { clearAuthToken, UNAUTHORIZED_EVENT } from '@caravan/ui-kit';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoginPage } from './pages/LoginPage';
import { StatePage } from './pages/StatePage';
import { applyDarkMode, checkStoredSession, isDarkMode, logout } from './session';
import { installFavicon } from './favicon';

installFavicon();

// Loaded when needed, so the login page carries neither the router, the store nor the remotes.
const Workspace = lazy(() => import('./Workspace'));
const MailedLinks = lazy(() => import('./MailedLinks'));
const MAILED_LINK_PATHS = ['/check_user_email', '/email_auth_recover_password'];

type Session =
  | { status: 'checking' }
  | { status: 'anonymous' }
  | { status: 'blocked'; user: CurrentUser }
  | { status: 'working'; user: CurrentUser };

const sessionOf = (user: CurrentUser | null): Session => {
  if (!user) return { status: 'anonymous' };
  if (user.options.state === 'working') return { status: 'working', user };
  clearAuthToken(); // spec §2: the waiting and blocked pages both clear the stored token
  return { status: 'blocked', user };
};

/** The mailed links render without the login page and without a session (spec §2). */
export function App() {
  const [onLinkPage, setOnLinkPage] = useState(() => MAILED_LINK_PATHS.includes(window.location.pathname));
  const leaveLinkPage = useCallback(() => setOnLinkPage(false), []);
  if (!onLinkPage) return <SessionApp />;
  return (
    <Suspense fallback={<Spinner className="caravan-center" />}>
      <MailedLinks onLeave={leaveLinkPage} />
    </Suspense>
  );
}

function SessionApp() {
  const { t } = useTranslation();
  const [session, setSession] = useState<Session>({ status: 'checking' });

  useEffect(() => {
    void checkStoredSession().then((user) => setSession(sessionOf(user)));
    const onUnauthorized = () => {
      clearAuthToken();
      setSession({ status: 'anonymous' });
    };
    window.addEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
    return () => window.removeEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
  }, []);

  useEffect(() => {
    applyDarkMode(session.status === 'working' && isDarkMode(session.user.id));
  }, [session]);

  const exit = useCallback(() => {
    void logout().then(() => setSession({ status: 'anonymous' }));
  }, []);

  switch (session.status) {
    case 'checking':
      return <Spinner className="caravan-center" />;
    case 'anonymous':
      return <LoginPage onLoggedIn={(user) => setSession(sessionOf(user))} />;
    case 'blocked':
      return (
        <StatePage
          state={session.user.options.state as 'fired' | 'waiting_auth'}
          onBack={() => setSession({ status: 'anonymous' })}
        />
      );
    case 'working':
      return (
        <Suspense fallback={<NonIdealState icon={<Spinner />} title={t('common.loadingSections')} />}>
          <Workspace
            user={session.user}
            onExit={exit}
            onUserChanged={(user) => setSession({ status: 'working', user })}
          />
        </Suspense>
      );
  }
}
