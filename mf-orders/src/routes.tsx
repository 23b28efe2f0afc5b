import { addTranslations, type RemoteRoute } from '@caravan/ui-kit';
import { lazy } from 'react';

/** Order-side screens; orders and positions arrive with the orders work. */
addTranslations('ru', {
  menu: { client: 'клиенты' },
  pages: { client: 'Клиенты' },
  clientTypes: { self: 'физлицо', company: 'компания' },
});
addTranslations('en', {
  menu: { client: 'clients' },
  pages: { client: 'Clients' },
  clientTypes: { self: 'individual', company: 'company' },
});

const routes: RemoteRoute[] = [
  {
    path: 'client',
    label: 'menu.client',
    folder: 'client',
    roles: ['admin', 'client'],
    icon: 'people',
    Component: lazy(() => import('./pages/client/ClientListPage')),
  },
];
export default routes;
