import type { MenuFolder, Role } from '@caravan/contracts';
import type { ComponentType } from 'react';

/** What a remote's `./routes` exposes: its pages with their menu entries and required roles. */
export type RemoteRoute = {
  path: string;
  /** Side-menu label; routes without one are reachable but not listed (e.g. `/{entity}/{id}`). */
  label?: string;
  folder?: MenuFolder;
  /** Empty: everyone; otherwise any of these roles (spec §6). */
  roles: Role[];
  icon?: string;
  Component: ComponentType;
};

/** The one module every remote exposes; the shell loads it as `<remote>/routes`. */
export const REMOTE_ROUTES_MODULE = './routes';

/** The shape of that module: its default export lists the remote's pages. */
export type RemoteRoutesModule = { default: RemoteRoute[] };

const isRoute = (value: unknown): value is RemoteRoute => {
  if (typeof value !== 'object' || value === null) return false;
  const route = value as Record<string, unknown>;
  return (
    typeof route.path === 'string' &&
    Array.isArray(route.roles) &&
    (typeof route.Component === 'function' ||
      (typeof route.Component === 'object' && route.Component !== null))
  );
};

/**
 * Whether a loaded module keeps the contract: a remote built against another idea of it (an old
 * build, a wrong file at its address) is told apart before the shell draws its menu from it.
 */
export function isRemoteRoutesModule(module: unknown): module is RemoteRoutesModule {
  if (typeof module !== 'object' || module === null) return false;
  const routes = (module as { default?: unknown }).default;
  return Array.isArray(routes) && routes.every(isRoute);
}
