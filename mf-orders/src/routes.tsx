import type { RemoteRoute } from '@caravan/ui-kit';
import { lazy } from 'react';

/** Order-side screens; orders and positions arrive with the orders work. */
const routes: RemoteRoute[] = [
  {
    path: 'client',
    label: 'клиенты',
    folder: 'client',
    roles: ['admin', 'client'],
    icon: 'people',
    Component: lazy(() => import('./pages/client/ClientListPage')),
  },
];
export default routes;
