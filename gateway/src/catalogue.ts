import type { CatalogueItem } from '@caravan/contracts';

/** The public sample catalogue shown to visitors (spec §1, §3: id, img, title, manufacturer, brand, quality, price in ¥). */

const ITEMS: [string, string, string, string, string][] = [
  [
    'Беспроводные наушники TWS с шумоподавлением',
    'Shenzhen Kinglucky Electronics',
    'Baseus',
    'оригинал',
    '189.00',
  ],
  ['Портативный аккумулятор 20000 мА·ч', 'Shenzhen Anker Innovations', 'Anker', 'оригинал', '159.00'],
  ['Умные часы с пульсометром', 'Huami (Anhui)', 'Amazfit', 'оригинал', '399.00'],
  ['Кроссовки беговые сетчатые', 'Fujian Jinjiang Shoes', 'Li-Ning', 'оригинал', '329.00'],
  ['Рюкзак городской водоотталкивающий', 'Guangzhou Bange Bags', 'Bange', 'оригинал', '145.00'],
  ['Набор силиконовых форм для выпечки', 'Yangjiang Kitchenware', 'Lekue-style', 'OEM', '38.50'],
  ['Светодиодная лента RGB 10 м', 'Zhongshan Lighting', 'Yeelight', 'оригинал', '89.90'],
  ['Механическая клавиатура 87 клавиш', 'Dongguan Keyboard Tech', 'Royal Kludge', 'оригинал', '219.00'],
  ['Игровая мышь 26000 DPI', 'Shenzhen Rapoo Technology', 'Rapoo', 'оригинал', '129.00'],
  ['Пуховик женский удлинённый', 'Zhejiang Bosideng', 'Bosideng', 'оригинал', '899.00'],
  ['Чайный набор из исинской глины', 'Yixing Zisha Workshop', 'Yixing', 'ручная работа', '268.00'],
  ['Пылесос-робот с лидаром', 'Beijing Roborock Technology', 'Roborock', 'оригинал', '1599.00'],
  ['Электрическая зубная щётка', 'Shanghai Soocas', 'Soocas', 'оригинал', '119.00'],
  ['Органайзер для косметики акриловый', 'Yiwu Home Products', 'без бренда', 'стандарт', '26.80'],
  ['Детский конструктор 1200 деталей', 'Guangdong Qman Toys', 'Qman', 'оригинал', '176.00'],
  ['Зарядное устройство GaN 65 Вт', 'Shenzhen Ugreen Group', 'Ugreen', 'оригинал', '99.00'],
  ['Постельное бельё сатин, евро', 'Nantong Home Textile', 'Luolai', 'оригинал', '358.00'],
  ['Термокружка 500 мл', 'Zhejiang Haers Vacuum', 'Haers', 'оригинал', '59.00'],
  ['Складной электросамокат', 'Segway-Ninebot (Changzhou)', 'Ninebot', 'оригинал', '2399.00'],
  ['Экшн-камера 4K', 'Shenzhen Insta360', 'Insta360', 'оригинал', '1899.00'],
  ['Автомобильный видеорегистратор', 'Shanghai 70mai', '70mai', 'оригинал', '299.00'],
  ['Шёлковый платок 90×90', 'Hangzhou Silk Factory', 'Wensli', 'оригинал', '210.00'],
  ['Набор отвёрток прецизионных 24 в 1', 'Shanghai Wowstick', 'Wowstick', 'оригинал', '79.00'],
  ['Фитнес-коврик TPE 6 мм', 'Yiwu Sports Goods', 'Keep', 'оригинал', '68.00'],
  ['Настольная лампа с беспроводной зарядкой', 'Guangdong Opple Lighting', 'Opple', 'оригинал', '139.00'],
];

const COLORS = ['#c87619', '#2d72d2', '#238551', '#cd4246', '#7961db', '#0d8050', '#d1980b'];

/** A small generated picture per item (the sample has no photo rights to ship). */
function picture(id: number, title: string) {
  const color = COLORS[id % COLORS.length];
  const letter = title.trim()[0] ?? '?';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96"><rect width="96" height="96" rx="12" fill="${color}"/><text x="48" y="62" font-size="44" font-family="sans-serif" fill="#fff" text-anchor="middle">${letter}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

export const CATALOGUE: CatalogueItem[] = ITEMS.map(([title, manufacturer, brand, quality, price], i) => ({
  id: i + 1,
  img: picture(i + 1, title),
  title,
  manufacturer,
  brand,
  quality,
  price,
}));
