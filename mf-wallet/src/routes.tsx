import { addTranslations, type RemoteRoute } from '@caravan/ui-kit';
import { lazy } from 'react';

/** Wallet screens; the header widget and payment dialogs arrive with the payments work. */
addTranslations('ru', {
  menu: { wallet: 'кошельки' },
  pages: { wallet: 'Кошельки' },
  walletLive: {
    toast: 'кошелёк «{{title}}» обновлён: {{amount}}',
    updated: 'обновлено: «{{title}}», баланс {{amount}}',
  },
});
addTranslations('en', {
  menu: { wallet: 'wallets' },
  pages: { wallet: 'Wallets' },
  walletLive: {
    toast: 'wallet “{{title}}” updated: {{amount}}',
    updated: 'updated: “{{title}}”, balance {{amount}}',
  },
});

const routes: RemoteRoute[] = [
  {
    path: 'wallet',
    label: 'menu.wallet',
    folder: 'admin',
    roles: ['admin'],
    icon: 'bank-account',
    Component: lazy(() => import('./pages/wallet/WalletScreens')),
  },
];
export default routes;
