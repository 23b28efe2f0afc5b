import {
  MENU_FOLDERS,
  REMOTES,
  type CurrentUser,
  type MenuFolder,
  type RemoteName,
  type Role,
} from '@caravan/contracts';
import type { LoadedRemote } from '../remotes';

/** `label` is an i18n key; an unavailable remote's entry carries the remote to name it. */
export type MenuEntry = {
  path: string;
  label: string;
  remote?: RemoteName;
  folder?: MenuFolder;
  icon?: string;
  disabled?: boolean;
};

/** Empty role list: visible to all; otherwise any listed role (spec §6). */
export const allowed = (user: CurrentUser, roles: readonly Role[]) =>
  roles.length === 0 || roles.some((r) => user.role.includes(r));

/**
 * The side menu from the remotes' routes, filtered by the user's roles and the folder's roles. A remote
 * that failed to load or was refused shows one disabled entry, so its area says it is unavailable.
 */
export const isAdmin = (user: CurrentUser) => user.role.includes('admin');

/** Routes the shell itself serves (spec §2: users are admin only). */
const SHELL_ENTRIES: (MenuEntry & { roles: Role[] })[] = [
  { path: 'users', label: 'menu.users', folder: 'admin', icon: 'people', roles: ['admin'] },
];

export function buildMenu(user: CurrentUser, remotes: LoadedRemote[]): MenuEntry[] {
  const entries: MenuEntry[] = SHELL_ENTRIES.filter((e) => allowed(user, e.roles)).map(
    ({ roles: _roles, ...entry }) => entry,
  );
  for (const remote of remotes) {
    if (remote.status !== 'ready') {
      entries.push({
        path: REMOTES[remote.name].routes[0],
        label: 'remote.unavailableMenu',
        remote: remote.name,
        icon: 'offline',
        disabled: true,
      });
      continue;
    }
    for (const route of remote.routes) {
      if (!route.label || !allowed(user, route.roles)) continue;
      if (route.folder && !allowed(user, MENU_FOLDERS[route.folder].roles)) continue;
      entries.push({ path: route.path, label: route.label, folder: route.folder, icon: route.icon });
    }
  }
  return entries;
}

export function groupByFolder(entries: MenuEntry[]) {
  const top = entries.filter((e) => !e.folder);
  const folders = (Object.keys(MENU_FOLDERS) as MenuFolder[])
    .map((folder) => ({
      folder,
      label: `folders.${folder}`,
      entries: entries.filter((e) => e.folder === folder),
    }))
    .filter((f) => f.entries.length > 0);
  return { top, folders };
}

/** The visible text of a menu entry in the current language. */
export const entryText = (t: (key: string, options?: Record<string, unknown>) => string, entry: MenuEntry) =>
  entry.remote ? t(entry.label, { title: t(`remotes.${entry.remote}`) }) : t(entry.label);
