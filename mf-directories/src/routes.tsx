import type { RemoteRoute } from '@caravan/ui-kit';
import { lazy } from 'react';

/** The directory screens this remote serves; more directories arrive with the directories work. */
const routes: RemoteRoute[] = [
  {
    path: 'country',
    label: 'страны',
    folder: 'directories',
    roles: ['admin'],
    icon: 'globe',
    Component: lazy(() => import('./pages/country/CountryListPage')),
  },
];
export default routes;
