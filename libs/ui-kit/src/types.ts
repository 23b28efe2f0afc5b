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
