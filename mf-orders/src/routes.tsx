import { addTranslations, type RemoteRoute } from '@caravan/ui-kit';
import { lazy } from 'react';

/** Order-side screens: orders and their positions, clients and providers. */
addTranslations('ru', {
  menu: {
    client: 'клиенты',
    provider: 'поставщики',
    client_order: 'заказы',
    client_order_position: 'позиции в заказах',
  },
  pages: {
    client: 'Клиенты',
    provider: 'Поставщики',
    client_order: 'Заказы',
    client_order_position: 'Позиции в заказах',
  },
  clientTypes: { self: 'физлицо', company: 'компания' },
  orders: {
    move: {
      created: 'сформировать заказ',
      buyout_waiting: 'ожидает оплаты',
      sent_to_ru: 'отправлен в РФ',
      sent_to_door: 'отправлен по адресу',
      client_received: 'вручён получателю',
      client_confirmed: 'принят получателем',
    },
    moveTitle: 'этап заказа',
    buyoutWaitingConfirm: 'клиент получит заказ к оплате; цены зафиксируются по текущему курсу.',
    stageArrived: 'этап заказа: {{stage}}',
    copy: 'скопировать',
    copied: 'скопировано',
    prices: 'цены',
    productDue: 'к оплате за товар',
    deliveryDue: 'к оплате за доставку',
    noDelivery: 'данные доставки не выбраны',
    positions: 'позиции',
    addPosition: 'добавить позицию',
    photo: 'фото',
    unitWeight: 'вес ед., кг',
    calculatedWeight: 'расчётный вес, кг',
    sumCny: 'сумма, ¥',
    pricePerUnit: 'выкуп + доставка за ед., ₽',
    pricePerKg: 'цена за кг, ₽',
    positionCount_one: '{{count}} позиция',
    positionCount_few: '{{count}} позиции',
    positionCount_many: '{{count}} позиций',
    positionCount_other: '{{count}} позиции',
    deletePositionConfirm: 'удалить позицию «{{title}}»?',
    previousSettings: 'как в прошлом заказе',
    defaultSettings: 'настройки оператора',
    toOrder: 'заказ {{title}}',
    salePricesHint: 'без НДС · НДС, % · с НДС: одно пересчитывает другое',
  },
});
addTranslations('en', {
  menu: {
    client: 'clients',
    provider: 'providers',
    client_order: 'orders',
    client_order_position: 'order positions',
  },
  pages: {
    client: 'Clients',
    provider: 'Providers',
    client_order: 'Orders',
    client_order_position: 'Order positions',
  },
  clientTypes: { self: 'individual', company: 'company' },
  orders: {
    move: {
      created: 'place the order',
      buyout_waiting: 'awaiting payment',
      sent_to_ru: 'sent to Russia',
      sent_to_door: 'sent to the address',
      client_received: 'handed to the recipient',
      client_confirmed: 'accepted by the recipient',
    },
    moveTitle: 'order stage',
    buyoutWaitingConfirm: 'the client will be asked to pay; prices are fixed at the current rate.',
    stageArrived: 'order stage: {{stage}}',
    copy: 'copy',
    copied: 'copied',
    prices: 'prices',
    productDue: 'due for goods',
    deliveryDue: 'due for delivery',
    noDelivery: 'no delivery data chosen',
    positions: 'positions',
    addPosition: 'add a position',
    photo: 'photo',
    unitWeight: 'unit weight, kg',
    calculatedWeight: 'calculated weight, kg',
    sumCny: 'sum, ¥',
    pricePerUnit: 'buyout + delivery per unit, ₽',
    pricePerKg: 'price per kg, ₽',
    positionCount_one: '{{count}} position',
    positionCount_other: '{{count}} positions',
    deletePositionConfirm: 'delete the position “{{title}}”?',
    previousSettings: 'as in the previous order',
    defaultSettings: "operator's settings",
    toOrder: 'order {{title}}',
    salePricesHint: 'without VAT · VAT, % · with VAT: each recalculates the other',
  },
});

type ScreenName = 'client' | 'provider' | 'client_order' | 'client_order_position';
const screen = (name: ScreenName) =>
  lazy(() => import('./screens').then((m) => ({ default: m.screens[name] })));

const routes: RemoteRoute[] = [
  {
    path: 'client_order',
    label: 'menu.client_order',
    folder: 'client',
    roles: ['admin', 'operator', 'client'],
    icon: 'shopping-cart',
    Component: screen('client_order'),
  },
  {
    path: 'client_order_position',
    label: 'menu.client_order_position',
    folder: 'client',
    roles: ['admin', 'operator', 'client'],
    icon: 'box',
    Component: screen('client_order_position'),
  },
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
