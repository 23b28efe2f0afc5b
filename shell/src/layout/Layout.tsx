import {
  Alignment,
  Button,
  Drawer,
  Menu,
  MenuDivider,
  MenuItem,
  Navbar,
  NavbarDivider,
  NavbarGroup,
  NavbarHeading,
  PopoverNext,
  Spinner,
  Switch,
  type IconName,
} from '@blueprintjs/core';
import { REMOTES, type CurrentUser } from '@caravan/contracts';
import { isAdmin } from './menu';
import { Slot } from '@caravan/slots';
import { changeLanguage, RemoteBoundary, RemotePlaceholder } from '@caravan/ui-kit';
import { Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { HomePage } from '../pages/HomePage';
import { NotFoundPage } from '../pages/NotFoundPage';
import { ProfilePage } from '../pages/ProfilePage';
import { UserPage } from '../pages/users/UserPage';
import { UsersPage } from '../pages/users/UsersPage';
import type { LoadedRemote } from '../remotes';
import { refusalLines } from '../remoteVersions';
import { isDarkMode, setDarkMode } from '../session';
import { Crumbs } from './Crumbs';
import { PHONE_QUERY, useMediaQuery } from './useMediaQuery';
import { Logo } from './Logo';
import { NotificationCenter } from './Notifications';
import { allowed, buildMenu, entryText, groupByFolder } from './menu';

type Props = {
  user: CurrentUser;
  remotes: LoadedRemote[];
  onExit(): void;
  onUserChanged(user: CurrentUser): void;
};

/** Header, side menu, notification drawer and the routed area where the remotes render. */
export function Layout({ user, remotes, onExit, onUserChanged }: Props) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const phone = useMediaQuery(PHONE_QUERY);
  // wide screens: the side menu is open unless hidden; phones: a drawer, closed until asked for
  const [menuOpen, setMenuOpen] = useState(true);
  const [drawerMenuOpen, setDrawerMenuOpen] = useState(false);
  const [dark, setDark] = useState(isDarkMode(user.id));
  const entries = useMemo(() => buildMenu(user, remotes), [user, remotes]);
  const { top, folders } = groupByFolder(entries);
  const isClient = user.role.includes('client');

  const toggleDark = () => {
    setDarkMode(user.id, !dark);
    setDark(!dark);
  };
  const item = (e: (typeof entries)[number]) => (
    <MenuItem
      key={e.path}
      icon={e.icon as IconName}
      text={entryText(t, e)}
      disabled={e.disabled}
      active={location.pathname === `/${e.path}` || location.pathname.startsWith(`/${e.path}/`)}
      onClick={() => {
        setDrawerMenuOpen(false);
        navigate(`/${e.path}`);
      }}
    />
  );
  const sideMenu = (
    <nav className="caravan-side-menu" aria-label={t('layout.menu')}>
      <Menu>
        {top.map(item)}
        {folders.map((f) => (
          <div key={f.folder}>
            <MenuDivider title={t(f.label)} />
            {f.entries.map(item)}
          </div>
        ))}
      </Menu>
    </nav>
  );

  return (
    <div className={phone ? 'caravan-app caravan-phone' : 'caravan-app'}>
      <Navbar fixedToTop={false} className="caravan-header">
        <NavbarGroup align={Alignment.LEFT}>
          <Button
            variant="minimal"
            icon="menu"
            aria-label={t('layout.menu')}
            aria-expanded={phone ? drawerMenuOpen : menuOpen}
            onClick={() => (phone ? setDrawerMenuOpen((o) => !o) : setMenuOpen((o) => !o))}
          />
          <NavbarHeading>
            <Link to="/" className="caravan-brand">
              <Logo /> {!phone && t('app.name')}
            </Link>
          </NavbarHeading>
        </NavbarGroup>
        <NavbarGroup align={Alignment.RIGHT}>
          {isClient && (
            <div className="caravan-wallet-slot" data-slot="wallet-widget" aria-label={t('layout.wallet')}>
              <Slot name="wallet-widget" />
            </div>
          )}
          <NotificationCenter user={user} />
          <NavbarDivider />
          <PopoverNext
            placement="bottom-end"
            content={
              <Menu>
                <MenuDivider title={user.fullname} />
                <MenuItem icon="edit" text={t('layout.profile')} onClick={() => navigate('/profile')} />
                <MenuItem
                  icon="translate"
                  text={i18n.language === 'ru' ? 'English' : 'Русский'}
                  onClick={() => {
                    void changeLanguage(i18n.language === 'ru' ? 'en' : 'ru');
                  }}
                />
                <MenuItem
                  icon="moon"
                  text={
                    <Switch
                      checked={dark}
                      label={t('layout.darkMode')}
                      onChange={toggleDark}
                      style={{ margin: 0 }}
                    />
                  }
                  shouldDismissPopover={false}
                />
                <MenuItem icon="log-out" text={t('layout.exit')} onClick={onExit} />
              </Menu>
            }
          >
            <Button
              variant="minimal"
              icon="user"
              endIcon="caret-down"
              text={phone ? undefined : user.fullname}
              aria-label={user.fullname}
            />
          </PopoverNext>
        </NavbarGroup>
      </Navbar>
      <div className="caravan-body">
        {!phone && menuOpen && sideMenu}
        <main className="caravan-main">
          <Crumbs entries={entries} />
          <Routes>
            <Route path="/" element={<HomePage user={user} entries={entries} />} />
            <Route
              path="/profile"
              element={<ProfilePage user={user} onExit={onExit} onSaved={onUserChanged} />}
            />
            {isAdmin(user) && <Route path="/users" element={<UsersPage />} />}
            {isAdmin(user) && <Route path="/users/:id" element={<UserPage />} />}
            {remotes.flatMap((remote) =>
              remote.status === 'ready'
                ? remote.routes
                    // one route per path: a remote may list a path twice for different roles (mf-wallet's
                    // /wallet for admins in their folder, for clients without a menu entry)
                    .filter(
                      (r, i, all) =>
                        allowed(user, r.roles) &&
                        all.findIndex((o) => o.path === r.path && allowed(user, o.roles)) === i,
                    )
                    .map((r) => (
                      <Route
                        key={r.path}
                        path={`/${r.path}/*`}
                        element={
                          <RemoteBoundary title={t(`remotes.${remote.name}`)}>
                            <Suspense fallback={<Spinner />}>
                              <r.Component />
                            </Suspense>
                          </RemoteBoundary>
                        }
                      />
                    ))
                : REMOTES[remote.name].routes.map((path) => (
                    <Route
                      key={path}
                      path={`/${path}/*`}
                      element={
                        <RemotePlaceholder
                          title={t(`remotes.${remote.name}`)}
                          reasons={remote.status === 'refused' ? refusalLines(t, remote.refusal) : undefined}
                        />
                      }
                    />
                  )),
            )}
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
        </main>
      </div>
      {phone && (
        <Drawer
          isOpen={drawerMenuOpen}
          onClose={() => setDrawerMenuOpen(false)}
          position="left"
          size="80%"
          className="caravan-menu-drawer"
        >
          {sideMenu}
        </Drawer>
      )}
    </div>
  );
}
