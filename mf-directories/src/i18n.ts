import { addTranslations } from '@caravan/ui-kit';

/** Menu entries and page titles of the directories, and the calculator's texts. */
const TITLES = {
  country: ['страны', 'Страны', 'countries', 'Countries'],
  city: ['города', 'Города', 'cities', 'Cities'],
  currency: ['валюты', 'Валюты', 'currencies', 'Currencies'],
  logistic_product_type: ['типы товаров', 'Типы товаров', 'product types', 'Product types'],
  package_description: ['упаковка', 'Упаковка', 'packages', 'Packages'],
  legal_entity: ['юрлица', 'Юрлица', 'legal entities', 'Legal entities'],
  bank_account: ['банковские счета', 'Банковские счета', 'bank accounts', 'Bank accounts'],
  exchange_rate: ['курсы валют', 'Курсы валют', 'exchange rates', 'Exchange rates'],
  operator: ['операторы', 'Операторы', 'operators', 'Operators'],
  warehouse_point: ['склады', 'Склады', 'warehouses', 'Warehouses'],
  warehouse_point_contact: [
    'контакты складов',
    'Контакты складов',
    'warehouse contacts',
    'Warehouse contacts',
  ],
  operator_warehouse_point_link: [
    'склады операторов',
    'Склады операторов',
    'operator warehouses',
    'Operator warehouses',
  ],
  logistic_route: ['тарифы', 'Тарифы', 'tariffs', 'Tariffs'],
  logistic_route_logistic_product_type_link: [
    'типы товаров тарифов',
    'Типы товаров тарифов',
    'tariff product types',
    'Tariff product types',
  ],
  logistic_route_warehouse_point_link: [
    'склады тарифов',
    'Склады тарифов',
    'tariff warehouses',
    'Tariff warehouses',
  ],
  extra_service: ['доп. услуги', 'Доп. услуги', 'extra services', 'Extra services'],
  operator_user_link: [
    'пользователи операторов',
    'Пользователи операторов',
    'operator users',
    'Operator users',
  ],
  client_user_link: ['пользователи клиентов', 'Пользователи клиентов', 'client users', 'Client users'],
  calculator: ['калькулятор', 'Калькулятор тарифов', 'calculator', 'Tariff calculator'],
} as const;

const pick = (i: 0 | 1 | 2 | 3) => Object.fromEntries(Object.entries(TITLES).map(([k, v]) => [k, v[i]]));

addTranslations('ru', {
  menu: pick(0),
  pages: pick(1),
  calculator: {
    from: 'откуда (город в Китае)',
    to: 'склад прибытия',
    productType: 'тип товара',
    weight: 'вес, кг',
    volume: 'объём, м³',
    calculate: 'рассчитать',
    route: 'тариф',
    operator: 'оператор',
    days: 'срок',
    daysRange: '{{from}}–{{to}} дн.',
    density: 'плотность, кг/м³',
    rate: 'ставка',
    commission: 'комиссия за выкуп',
    price: 'стоимость',
    perKg: 'кг',
    perM3: 'м³',
  },
});
addTranslations('en', {
  menu: pick(2),
  pages: pick(3),
  calculator: {
    from: 'from (a city in China)',
    to: 'arrival warehouse',
    productType: 'product type',
    weight: 'weight, kg',
    volume: 'volume, m³',
    calculate: 'calculate',
    route: 'tariff',
    operator: 'operator',
    days: 'days',
    daysRange: '{{from}}–{{to}} days',
    density: 'density, kg/m³',
    rate: 'rate',
    commission: 'buyout commission',
    price: 'price',
    perKg: 'kg',
    perM3: 'm³',
  },
});
