import { WALLET_MESSAGES } from '@caravan/contracts';
import { provideSlot, type RemoteRoute } from '@caravan/slots';
import { addTranslations } from '@caravan/ui-kit';
import { lazy } from 'react';

/**
 * Wallet screens, and the pieces other parts show: the wallet widget in the shell's header and the order
 * payment dialog on the order card (ui-kit slots, docs/adr/0012-payments.md), loaded when first shown.
 */
provideSlot(
  'wallet-widget',
  lazy(() => import('./widget/WalletWidget')),
);
provideSlot(
  'order-payment',
  lazy(() => import('./payment/PaymentDialog')),
);

addTranslations('ru', {
  menu: {
    wallet: 'кошельки',
    fin_operation: 'финансовые операции',
    myFinOperations: 'операции по кошелькам',
  },
  pages: { wallet: 'Кошельки', fin_operation: 'Финансовые операции' },
  walletLive: {
    toast: 'кошелёк «{{title}}» обновлён: {{amount}}',
    updated: 'обновлено: «{{title}}», баланс {{amount}}',
  },
  walletModule: { version: 'модуль кошельков, версия {{version}}' },
  wallets: {
    balance: 'баланс',
    close: 'закрыть',
    copy: 'скопировать',
    copied: 'скопировано в буфер обмена',
    noWallets: 'нет кошельков',
    default: 'по умолчанию',
    inWidget: 'в виджете',
    all: 'все кошельки',
    operations: 'операции по кошелькам',
    makeDefault: 'сделать основным (автосписание)',
    madeDefault: 'кошелёк «{{title}}» теперь основной',
    turnDefaultOff: 'отключить автосписание (основной: нет)',
    defaultOff: 'автосписание отключено: основного кошелька нет',
    defaultRoubleOnly: 'основным может быть только рублёвый кошелёк',
    showInWidget: 'показывать в виджете',
    delete: 'удалить',
    deleteOnlyEmpty: WALLET_MESSAGES.fundedDelete,
    deleteConfirm: 'Удалить кошелёк «{{title}}»?',
    deleted: 'кошелёк «{{title}}» удалён',
    due: 'к оплате: {{amount}}',
    methods: { img: 'QR-код СБП', link: 'ссылка СБП', card: 'карта' },
    topUp: {
      action: 'пополнить',
      title: 'пополнение кошелька «{{title}}»',
      method: 'способ пополнения',
      fromWallet: 'с другого кошелька',
      amount: 'сумма, {{symbol}}',
      withFee: 'к оплате с комиссией: {{amount}} (комиссия {{fee}})',
      sender: 'с какого кошелька',
      noSenders: 'у клиента нет других кошельков в этой валюте',
      comment: 'комментарий',
      test: 'тест',
      submit: 'пополнить',
      closeWaiting: 'закрыть',
      error: 'ошибка',
      errorDescription: 'описание ошибки:',
      scanQr: 'отсканируйте QR-код в приложении банка',
      cardOpened: 'страница оплаты картой открыта в новой вкладке',
      openPayPage: 'открыть страницу оплаты',
      waiting: 'ожидаем оплату…',
      toPay: 'к оплате: {{amount}}',
    },
    writeOff: {
      action: 'оплатить заказы',
      title: 'оплата заказов из кошелька',
      payFrom: 'кошелёк',
      perPage: 'строк на странице',
      nothingDue: 'нет заказов к оплате',
      selectPage: 'выбрать все заказы страницы',
      order: 'заказ',
      stage: 'этап',
      productDue: 'товар',
      deliveryDue: 'доставка',
      due: 'к оплате',
      prev: 'предыдущая страница',
      next: 'следующая страница',
      page: 'страница {{page}} из {{pages}}',
      totalDue: 'всего к оплате: {{amount}}, заказов: {{count}}',
      selected: 'выбрано заказов: {{count}}, на сумму {{amount}}',
      shortfall: 'не хватает: {{amount}}',
      progress: 'оплата заказа {{n}} из {{count}}: «{{title}}»',
      failed: 'заказ «{{title}}»:',
      pay: 'оплатить {{amount}}',
      done: 'готово',
    },
  },
});
addTranslations('en', {
  menu: { wallet: 'wallets', fin_operation: 'financial operations' },
  pages: { wallet: 'Wallets', fin_operation: 'Financial operations' },
  walletLive: {
    toast: 'wallet “{{title}}” updated: {{amount}}',
    updated: 'updated: “{{title}}”, balance {{amount}}',
  },
  walletModule: { version: 'wallets module, version {{version}}' },
  fields: {
    wallet_id: 'wallet',
    datetime: 'time',
    direction: 'direction',
    cause: 'reason',
    wallet_amount_before: 'balance before',
    wallet_amount_after: 'balance after',
    sender_id: 'sender wallet',
    receiver_id: 'receiver wallet',
    test: 'test',
  },
  enums: {
    direction: { in: 'incoming', out: 'outgoing' },
    cause: {
      top_up: 'top-up',
      transfer: 'transfer between wallets',
      order_product: 'goods payment',
      order_delivery: 'delivery payment',
      write_off: 'write-off',
    },
    type: { img: 'SBP QR code', link: 'SBP link', card: 'card', wallet: 'wallet', manual: 'manual' },
  },
  wallets: {
    balance: 'balance',
    close: 'close',
    copy: 'copy',
    copied: 'copied to the clipboard',
    noWallets: 'no wallets',
    default: 'default',
    inWidget: 'in the widget',
    all: 'all wallets',
    operations: 'wallet operations',
    makeDefault: 'make default (auto-debit)',
    madeDefault: 'wallet “{{title}}” is now the default one',
    turnDefaultOff: 'turn auto-debit off (no default)',
    defaultOff: 'auto-debit is off: no default wallet',
    defaultRoubleOnly: 'only a rouble wallet can be the default one',
    showInWidget: 'show in the widget',
    delete: 'delete',
    deleteOnlyEmpty: 'only an empty wallet can be deleted: move its money to another wallet first',
    deleteConfirm: 'Delete the wallet “{{title}}”?',
    deleted: 'wallet “{{title}}” deleted',
    due: 'to pay: {{amount}}',
    methods: { img: 'SBP QR code', link: 'SBP link', card: 'card' },
    topUp: {
      action: 'top up',
      title: 'top-up of the wallet “{{title}}”',
      method: 'how to top up',
      fromWallet: 'from another wallet',
      amount: 'amount, {{symbol}}',
      withFee: 'to pay with the fee: {{amount}} (fee {{fee}})',
      sender: 'from which wallet',
      noSenders: 'the client has no other wallets in this currency',
      comment: 'comment',
      test: 'test',
      submit: 'top up',
      closeWaiting: 'close',
      error: 'error',
      errorDescription: 'error description:',
      scanQr: 'scan the QR code in your bank app',
      cardOpened: 'the card payment page has opened in a new tab',
      openPayPage: 'open the payment page',
      waiting: 'waiting for the payment…',
      toPay: 'to pay: {{amount}}',
    },
    writeOff: {
      action: 'pay orders',
      title: 'paying orders from the wallet',
      payFrom: 'wallet',
      perPage: 'rows per page',
      nothingDue: 'no orders to pay',
      selectPage: 'select every order of the page',
      order: 'order',
      stage: 'stage',
      productDue: 'goods',
      deliveryDue: 'delivery',
      due: 'to pay',
      prev: 'previous page',
      next: 'next page',
      page: 'page {{page}} of {{pages}}',
      totalDue: 'to pay in all: {{amount}}, orders: {{count}}',
      selected: 'orders selected: {{count}}, for {{amount}}',
      shortfall: 'missing: {{amount}}',
      progress: 'paying order {{n}} of {{count}}: “{{title}}”',
      failed: 'order “{{title}}”:',
      pay: 'pay {{amount}}',
      done: 'done',
    },
  },
});

const WalletScreens = lazy(() => import('./pages/wallet/WalletScreens'));
const FinOperationScreens = lazy(() => import('./finOperations/FinOperationScreens'));

/**
 * Admins find wallets and the ledger in the 'admin' folder (spec §2). Clients reach their own wallets
 * and, like operators, the movements of the wallets they may see (the service scopes the rows) by
 * these paths without a side-menu entry — the spec's menu of a client and an operator stays as it is;
 * the widget's menu leads a client there.
 */
const routes: RemoteRoute[] = [
  {
    path: 'wallet',
    label: 'menu.wallet',
    folder: 'admin',
    roles: ['admin'],
    icon: 'bank-account',
    Component: WalletScreens,
  },
  { path: 'wallet', roles: ['client'], Component: WalletScreens },
  {
    path: 'fin_operation',
    label: 'menu.fin_operation',
    folder: 'admin',
    roles: ['admin'],
    icon: 'exchange',
    Component: FinOperationScreens,
  },
  { path: 'fin_operation', roles: ['client', 'operator'], Component: FinOperationScreens },
];
export default routes;
