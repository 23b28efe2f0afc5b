import type { RemoteRoute } from '@caravan/ui-kit';
import { lazy } from 'react';

/** Wallet screens; the header widget and payment dialogs arrive with the payments work. */
const routes: RemoteRoute[] = [
  {
    path: 'wallet',
    label: 'кошельки',
    folder: 'admin',
    roles: ['admin'],
    icon: 'bank-account',
    Component: lazy(() => import('./pages/wallet/WalletListPage')),
  },
];
export default routes;
