import { NonIdealState, Spinner } from '@blueprintjs/core';
import type { CurrentUser } from '@caravan/contracts';
import { clearAuthToken, setCurrentUser, UNAUTHORIZED_EVENT } from '@caravan/ui-kit';
import { useDispatch } from 'react-redux';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { Layout } from './layout/Layout';
import { CheckUserEmailPage, RecoverPasswordPage } from './pages/auth/LinkPages';
import { LoginPage } from './pages/LoginPage';
import { StatePage } from './pages/StatePage';
import { loadRemotes, type LoadedRemote } from './remotes';
import { applyDarkMode, checkStoredSession, isDarkMode, logout } from './session';
import { installFavicon } from './favicon';

installFavicon();

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
  const { pathname } = useLocation();
  if (pathname === '/check_user_email') return <CheckUserEmailPage />;
  if (pathname === '/email_auth_recover_password') return <RecoverPasswordPage />;
  return <SessionApp />;
}

function SessionApp() {
  const { t } = useTranslation();
  const [session, setSession] = useState<Session>({ status: 'checking' });
  const [remotes, setRemotes] = useState<LoadedRemote[] | null>(null);

  useEffect(() => {
    void checkStoredSession().then((user) => setSession(sessionOf(user)));
    const onUnauthorized = () => {
      clearAuthToken();
      setSession({ status: 'anonymous' });
    };
    window.addEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
    return () => window.removeEventListener(UNAUTHORIZED_EVENT, onUnauthorized);
  }, []);

  const dispatch = useDispatch();
  const working = session.status === 'working';
  // remotes read the signed-in user from the store (what to show to whom)
  useEffect(() => {
    dispatch(setCurrentUser(session.status === 'working' ? session.user : null));
  }, [dispatch, session]);
  useEffect(() => {
    if (working && !remotes) void loadRemotes().then(setRemotes);
  }, [working, remotes]);
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
      return remotes ? (
        <Layout
          user={session.user}
          remotes={remotes}
          onExit={exit}
          onUserChanged={(user) => setSession({ status: 'working', user })}
        />
      ) : (
        <NonIdealState icon={<Spinner />} title={t('common.loadingSections')} />
      );
  }
}
