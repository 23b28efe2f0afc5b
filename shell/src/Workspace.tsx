import { NonIdealState, Spinner } from '@blueprintjs/core';
import type { CurrentUser } from '@caravan/contracts';
import { createAppStore, setCurrentUser } from '@caravan/ui-kit';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Provider, useDispatch } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import { Layout } from './layout/Layout';
import { loadRemotes, type LoadedRemote } from './remotes';

/**
 * The signed-in part of the shell, loaded only once a user is working: the store, the router, the
 * remotes and the layout. The login page needs none of them (and stays light).
 */
const store = createAppStore();
let remotesOnce: Promise<LoadedRemote[]> | null = null;

type Props = { user: CurrentUser; onExit(): void; onUserChanged(user: CurrentUser): void };

export default function Workspace(props: Props) {
  return (
    <Provider store={store}>
      <BrowserRouter>
        <SignedIn {...props} />
      </BrowserRouter>
    </Provider>
  );
}

function SignedIn({ user, onExit, onUserChanged }: Props) {
  const { t } = useTranslation();
  const dispatch = useDispatch();
  const [remotes, setRemotes] = useState<LoadedRemote[] | null>(null);
  // remotes read the signed-in user from the store (what to show to whom)
  useEffect(() => {
    dispatch(setCurrentUser(user));
  }, [dispatch, user]);
  useEffect(() => () => void dispatch(setCurrentUser(null)), [dispatch]);
  useEffect(() => {
    void (remotesOnce ??= loadRemotes()).then(setRemotes);
  }, []);

  return remotes ? (
    <Layout user={user} remotes={remotes} onExit={onExit} onUserChanged={onUserChanged} />
  ) : (
    <NonIdealState icon={<Spinner />} title={t('common.loadingSections')} />
  );
}
