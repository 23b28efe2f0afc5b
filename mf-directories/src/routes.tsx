import type { Role } from '@caravan/contracts';
import type { RemoteRoute } from '@caravan/slots';
import { lazy } from 'react';
import './i18n';
import type { ScreenName } from './screens';

/** Every screen of this remote comes from one lazily loaded chunk. */
const screen = (name: ScreenName) =>
  lazy(() => import('./screens').then((m) => ({ default: m.screens[name] })));

const ADMIN: Role[] = ['admin'];
const STAFF: Role[] = ['admin', 'operator'];

type Entry = Omit<RemoteRoute, 'Component' | 'path'> & { path: ScreenName | 'logistic_route/widget' };

/**
 * Menu folders per spec §2: 'client' (calculator), 'operators' (operator, warehouse_point, logistic_route,
 * extra_service), 'directories' (admin), 'admin' (warehouse_point_contact). Routes without a label are
 * reachable (links, item pages) but not in the menu; their roles are what the services let through.
 */
const ENTRIES: Entry[] = [
  {
    path: 'logistic_route/widget',
    label: 'menu.calculator',
    folder: 'client',
    roles: ['admin', 'client'],
    icon: 'calculator',
  },
  { path: 'operator', label: 'menu.operator', folder: 'operators', roles: STAFF, icon: 'office' },
  { path: 'warehouse_point', label: 'menu.warehouse_point', folder: 'operators', roles: STAFF, icon: 'home' },
  { path: 'logistic_route', label: 'menu.logistic_route', folder: 'operators', roles: STAFF, icon: 'route' },
  { path: 'extra_service', label: 'menu.extra_service', folder: 'operators', roles: STAFF, icon: 'box' },
  {
    path: 'legal_entity',
    label: 'menu.legal_entity',
    folder: 'directories',
    roles: STAFF,
    icon: 'briefcase',
  },
  {
    path: 'bank_account',
    label: 'menu.bank_account',
    folder: 'directories',
    roles: STAFF,
    icon: 'bank-account',
  },
  {
    path: 'exchange_rate',
    label: 'menu.exchange_rate',
    folder: 'directories',
    roles: STAFF,
    icon: 'exchange',
  },
  { path: 'country', label: 'menu.country', folder: 'directories', roles: ADMIN, icon: 'globe' },
  { path: 'city', label: 'menu.city', folder: 'directories', roles: ADMIN, icon: 'map-marker' },
  { path: 'currency', label: 'menu.currency', folder: 'directories', roles: ADMIN, icon: 'dollar' },
  {
    path: 'logistic_product_type',
    label: 'menu.logistic_product_type',
    folder: 'directories',
    roles: ADMIN,
    icon: 'tag',
  },
  {
    path: 'package_description',
    label: 'menu.package_description',
    folder: 'directories',
    roles: ADMIN,
    icon: 'cube',
  },
  {
    path: 'warehouse_point_contact',
    label: 'menu.warehouse_point_contact',
    folder: 'admin',
    roles: ADMIN,
    icon: 'phone',
  },
  { path: 'operator_warehouse_point_link', roles: STAFF },
  { path: 'logistic_route_logistic_product_type_link', roles: STAFF },
  { path: 'logistic_route_warehouse_point_link', roles: STAFF },
  { path: 'operator_user_link', roles: ADMIN },
  { path: 'client_user_link', roles: ADMIN },
];

const routes: RemoteRoute[] = ENTRIES.map((e) => ({
  ...e,
  Component: screen(e.path === 'logistic_route/widget' ? 'calculator' : e.path),
}));
export default routes;
