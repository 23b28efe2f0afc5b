import type { Role } from './roles';

/**
 * The Module Federation remotes and the top-level routes each one serves (their names are i18n keys
 * `remotes.<name>`). The shell uses it to show a
 * placeholder in a remote's area (its menu entries and routes) when that remote cannot be loaded.
 */
export const REMOTES = {
  mf_orders: {
    routes: [
      'client_order',
      'client_order_position',
      'client',
      'provider',
      'notification',
      'task',
      'client_order_report',
    ],
  },
  mf_wallet: { routes: ['wallet', 'fin_operation'] },
  mf_directories: {
    routes: [
      'country',
      'city',
      'currency',
      'legal_entity',
      'bank_account',
      'exchange_rate',
      'logistic_product_type',
      'package_description',
      'operator',
      'warehouse_point',
      'warehouse_point_contact',
      'operator_warehouse_point_link',
      'logistic_route',
      'logistic_route_logistic_product_type_link',
      'logistic_route_warehouse_point_link',
      'extra_service',
      'operator_user_link',
      'client_user_link',
    ],
  },
} as const;
export type RemoteName = keyof typeof REMOTES;
export const REMOTE_NAMES = Object.keys(REMOTES) as RemoteName[];

/**
 * GET /api/remotes answer: where each remote's manifest is, decided by configuration at run time.
 * `version`: the version configuration pins (its entry is that version's folder on the remote's
 * origin); the shell refuses a remote whose build says another (docs/adr/0035-ship-one-remote.md).
 */
export type RemoteManifest = { name: RemoteName; entry: string; version?: string }[];

/** Side-menu folders of spec §2 with the roles that see them. */
export const MENU_FOLDERS = {
  client: { label: 'клиент', roles: ['admin', 'client'] },
  operators: { label: 'операторы', roles: ['admin', 'operator'] },
  directories: { label: 'справочники', roles: ['admin'] },
  admin: { label: 'админ', roles: ['admin'] },
} as const satisfies Record<string, { label: string; roles: readonly Role[] }>;
export type MenuFolder = keyof typeof MENU_FOLDERS;
