import { addTranslations, type RemoteRoute } from '@caravan/ui-kit';
import { lazy } from 'react';

/** The directory screens this remote serves; more directories arrive with the directories work. */
addTranslations('ru', { menu: { country: 'страны' }, pages: { country: 'Страны' } });
addTranslations('en', { menu: { country: 'countries' }, pages: { country: 'Countries' } });

const routes: RemoteRoute[] = [
  {
    path: 'country',
    label: 'menu.country',
    folder: 'directories',
    roles: ['admin'],
    icon: 'globe',
    Component: lazy(() => import('./pages/country/CountryListPage')),
  },
];
export default routes;
