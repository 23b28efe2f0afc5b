import { addTranslations, type RemoteRoute } from '@caravan/ui-kit';
import { lazy } from 'react';

/** Order-side screens; orders and positions arrive with the orders work. */
addTranslations('ru', {
  menu: { client: 'клиенты', provider: 'поставщики' },
  pages: { client: 'Клиенты', provider: 'Поставщики' },
  clientTypes: { self: 'физлицо', company: 'компания' },
});
addTranslations('en', {
  menu: { client: 'clients', provider: 'providers' },
  pages: { client: 'Clients', provider: 'Providers' },
  clientTypes: { self: 'individual', company: 'company' },
});

const screen = (name: 'client' | 'provider') =>
  lazy(() => import('./screens').then((m) => ({ default: m.screens[name] })));

const routes: RemoteRoute[] = [
  {
    path: 'client',
    label: 'menu.client',
    folder: 'client',
    roles: ['admin', 'client'],
    icon: 'people',
    Component: screen('client'),
  },
  {
    path: 'provider',
    label: 'menu.provider',
    folder: 'client',
    roles: ['admin', 'client'],
    icon: 'shop',
    Component: screen('provider'),
  },
];
export default routes;
