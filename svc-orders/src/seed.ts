import { randomUUID } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import {
  clientOrder,
  clientOrderPosition,
  CURRENCY,
  dec,
  decFormat,
  decMul,
  derivedPrices,
  ORDER_STAGES,
  orderStageFromPositions,
  POSITION_STAGES,
  productPaymentStateByPaid,
  quoteDensityTable,
  type Attachment,
  type BuyoutType,
  type DeliveryData,
  type DeliveryType,
  type DensityRow,
  type ExchangeRateRow,
  type OrderStage,
  type OrderState,
  type OrderWarning,
  type PositionStage,
  type ReceiveRow,
  type ServicePricing,
} from '@caravan/contracts';
import { publishSeeded, type Db, type ServiceKit } from '@caravan/service-kit';

/** Demo data: clients with their providers, then orders of theirs in every stage. */
export async function seed(kit: ServiceKit) {
  await seedClients(kit);
  await seedOrders(kit);
}

/** Demo clients (ids 1–3 are linked to the demo client users by the gateway seed) and their providers. */
async function seedClients(kit: ServiceKit) {
  const { db, log } = kit;
  const [{ n }] = (await db('client').count({ n: '*' })) as [{ n: string }];
  if (Number(n) === 0)
    await db('client').insert([
      { title: 'ООО «Ромашка»', type: 'company' },
      { title: 'ИП Соколов', type: 'self' },
      { title: 'Анна Петрова', type: 'self' },
    ]);
  const [{ providers }] = (await db('provider').count({ providers: '*' })) as [{ providers: string }];
  if (Number(providers) > 0) return;
  await db.transaction(async (trx) => {
    await trx('client')
      .where({ id: 1 })
      .update({
        legal_entity_id: '{2}',
        delivery_data_list: JSON.stringify([
          {
            title: 'Офис на Тверской',
            transport_company: 'cdek',
            type: 'pvz',
            city: 'Москва',
            address: 'г Москва, ул Тверская, д 7',
            delivery_point_code: 'MSK123',
            contact_name: 'Ирина Смирнова',
            contact_phone: '+79161112233',
          },
        ]),
      });
    await trx('client')
      .where({ id: 2 })
      .update({
        legal_entity_id: '{3}',
        delivery_data_list: JSON.stringify([
          {
            title: 'Склад в Подольске',
            transport_company: 'pec',
            type: 'address',
            city: 'Подольск',
            address: 'Московская обл, г Подольск, ул Комсомольская, д 1',
            delivery_point_code: '',
            contact_name: 'Пётр Соколов',
            contact_phone: '+79264445566',
          },
        ]),
      });
    await trx('client')
      .where({ id: 3 })
      .update({
        delivery_data_list: JSON.stringify([
          {
            title: 'Дом',
            transport_company: 'ozon',
            type: 'pvz',
            city: 'Новосибирск',
            address: '',
            delivery_point_code: 'NSK-0456',
            contact_name: 'Анна Петрова',
            contact_phone: '+79137778899',
          },
        ]),
      });
    await trx('provider').insert([
      {
        title: 'Синьхуэй, одежда',
        name_str: 'Guangzhou Xinhui Garments',
        client_id: 1,
        shop_link: 'https://xinhui.1688.com',
        warehouse_point_id: '{5}',
        comment: 'отгрузка 3–5 дней',
      },
      {
        title: 'Yiwu Toys',
        name_str: 'Yiwu Happy Toys Co.',
        client_id: 1,
        shop_link: 'https://happytoys.en.alibaba.com',
        warehouse_point_id: '{}',
      },
      {
        title: 'Шэньчжэнь, электроника',
        name_str: 'Shenzhen Bright Electronics',
        client_id: 2,
        shop_link: 'https://bright-sz.1688.com',
        warehouse_point_id: '{}',
      },
    ]);
    // svc-payments keeps the clients (their legal entities: invoices)
    await publishSeeded(kit, trx, ['client']);
  });
  log.info('demo clients and providers seeded');
}

// ─── demo orders ──────────────────────────────────────────────────────────────────────────────────

/**
 * What the demo orders rely on from the other services' demo seeds (svc-carriers: operators, their
 * client lists and warehouses, routes with their product types and density tables, packages;
 * svc-payments: exchange rates). Their ids are fixed there; the replicas are not here yet when this
 * seed runs (it runs before the Kafka consumers start), so they are restated, and every demo order is
 * checked against them before anything is written.
 */
const OPERATORS: Record<
  number,
  { identifiers: Record<number, string>; consolidation: number; arrival: number }
> = {
  1: { identifiers: { 1: 'VE-001', 2: 'VE-002' }, consolidation: 1, arrival: 3 },
  2: { identifiers: { 2: 'SW-17', 3: 'SW-18' }, consolidation: 2, arrival: 4 },
};

type DemoRoute = {
  operator: number;
  types: number[];
  transitDays: number;
  code: string;
  table: DensityRow[];
  /** logistic_route.buyout_commission, % (svc-carriers' seed) */
  buyoutCommission: string;
};
const ROUTES: Record<number, DemoRoute> = {
  1: {
    operator: 1,
    types: [1, 3, 4, 6],
    transitDays: 21,
    code: 'TR',
    buyoutCommission: '3.00',
    table: [
      { density_from: '0', density_to: '100', price: '280', unit: 'm3' },
      { density_from: '100', density_to: '200', price: '3.10', unit: 'kg' },
      { density_from: '200', density_to: '300', price: '2.80', unit: 'kg' },
      { density_from: '300', density_to: '400', price: '2.60', unit: 'kg' },
      { density_from: '400', density_to: null, price: '2.40', unit: 'kg' },
    ],
  },
  2: {
    operator: 1,
    types: [1, 2, 5],
    transitDays: 8,
    code: 'AV',
    buyoutCommission: '3.00',
    table: [
      { density_from: '0', density_to: '167', price: '1400', unit: 'm3' },
      { density_from: '167', density_to: null, price: '8.50', unit: 'kg' },
    ],
  },
  3: {
    operator: 2,
    types: [1, 3, 4, 6],
    transitDays: 30,
    code: 'RW',
    buyoutCommission: '2.50',
    table: [
      { density_from: '0', density_to: '100', price: '230', unit: 'm3' },
      { density_from: '100', density_to: '200', price: '2.50', unit: 'kg' },
      { density_from: '200', density_to: null, price: '2.20', unit: 'kg' },
    ],
  },
};

/**
 * The package the demo orders use: operator 1's wooden crate at its consolidation warehouse, ¥ per m³
 * of the order. (Its bag-and-tape package, a fixed ¥15, is not used by the demo orders.)
 */
const PACKAGES: Record<number, ServicePricing & { operator: number }> = {
  2: { operator: 1, client_price_from: '150.00', client_price_currency_id: 1, unit: 'm3' },
};

const DAY_MS = 86_400_000;
/** The day `days` before today as 'YYYY-MM-DD' (negative: after today). */
const isoDay = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);

/**
 * A demo exchange rate as svc-payments' demo seed writes it: a week per operator (ids 1–7 general,
 * 8–14 operator 1, 15–21 operator 2), the last of each week today's, the same figures for everyone.
 */
function demoRate(operatorId: number, daysAgo: number): ExchangeRateRow {
  const step = 6 - daysAgo;
  const cny = 11.05 + step * 0.02;
  const usd = 80.4 + step * 0.15;
  return {
    id: operatorId * 7 + 1 + step,
    date: isoDay(daysAgo),
    operator_id: operatorId,
    client_sell_rate_cny: (cny * 1.045).toFixed(4),
    client_sell_rate_usd: (usd * 1.04).toFixed(4),
  };
}

type Picture = keyof typeof PICTURES;

type DemoPosition = {
  title: string;
  /** the shop's own (Chinese) name */
  original: string;
  link: string;
  /** ¥ per unit */
  price: string;
  amount: number;
  /** kg per unit */
  weight: string;
  waybill?: string;
  /** default: the picture of the order's product type; null: no photo (the position's warning shows) */
  picture?: Picture | null;
  /** the client's provider, by its name_str */
  provider?: string;
  /** default: the stage the order's stage puts its positions in (POSITION_STAGE_OF) */
  stage?: PositionStage;
  /** bought out only partly (buyout_done_part) */
  partly?: boolean;
};

type DemoOrder = {
  title: string;
  client: number;
  operator: number;
  route: number;
  /** the product type of every position (an order has one, and its route carries it) */
  type: number;
  stage: OrderStage;
  /** created this many days ago; the later steps follow (timeline) */
  days: number;
  buyout?: BuyoutType;
  delivery?: DeliveryType;
  state?: OrderState;
  package?: number;
  /** m³ measured at the consolidation warehouse */
  volume?: string;
  /** ₽, the Russian carrier's price to the door */
  doorPrice?: string;
  carrierNumber?: string;
  carrierState?: string;
  /** ₽ paid for the goods so far while the order waits for payment */
  productPaid?: string;
  description?: string;
  comment?: string;
  warning?: Omit<OrderWarning, 'datetime'>;
  positions: DemoPosition[];
};

const offer = (id: string) => `https://detail.1688.com/offer/${id}.html`;
const taobao = (id: string) => `https://item.taobao.com/item.htm?id=${id}`;

/** ~15 orders of the three demo clients with both demo operators, in every order stage. */
const DEMO_ORDERS: DemoOrder[] = [
  {
    title: 'Игрушки к Новому году',
    client: 1,
    operator: 1,
    route: 1,
    type: 4,
    stage: 'draft',
    days: 1,
    package: 2,
    description: 'к 1 декабря, упаковать каждую игрушку отдельно',
    positions: [
      {
        title: 'Конструктор магнитный, 64 детали',
        original: '磁力片积木 64片',
        link: offer('712398456021'),
        price: '38.50',
        amount: 40,
        weight: '0.900',
        provider: 'Yiwu Happy Toys Co.',
      },
      {
        title: 'Мягкая игрушка «Панда», 30 см',
        original: '熊猫毛绒玩具 30厘米',
        link: taobao('734120985512'),
        price: '22.00',
        amount: 60,
        weight: '0.350',
        picture: null,
      },
    ],
  },
  {
    title: 'Платья на лето',
    client: 3,
    operator: 2,
    route: 3,
    type: 1,
    stage: 'draft',
    days: 0,
    buyout: 'self',
    positions: [
      {
        title: 'Платье льняное, размер M',
        original: '亚麻连衣裙 M码',
        link: taobao('698451230764'),
        price: '129.00',
        amount: 2,
        weight: '0.300',
        waybill: 'YT7456123098745',
      },
      {
        title: 'Сарафан хлопковый',
        original: '纯棉吊带裙',
        link: taobao('701236548812'),
        price: '89.00',
        amount: 1,
        weight: '0.250',
        waybill: 'YT7456123098745',
      },
    ],
  },
  {
    title: 'Посуда и текстиль для кухни',
    client: 3,
    operator: 2,
    route: 3,
    type: 3,
    stage: 'created',
    days: 2,
    positions: [
      {
        title: 'Набор керамических тарелок, 6 шт.',
        original: '陶瓷餐盘套装 6件',
        link: offer('658741239065'),
        price: '45.00',
        amount: 4,
        weight: '2.400',
      },
      {
        title: 'Полотенца кухонные, хлопок, 5 шт.',
        original: '纯棉厨房毛巾 5条装',
        link: taobao('687412035541'),
        price: '19.90',
        amount: 6,
        weight: '0.400',
        stage: 'created',
      },
      {
        title: 'Кружка с крышкой, 400 мл',
        original: '带盖马克杯 400ml',
        link: offer('640125896347'),
        price: '12.50',
        amount: 10,
        weight: '0.380',
      },
    ],
  },
  {
    title: 'Запчасти Haval, самовыкуп',
    client: 2,
    operator: 1,
    route: 1,
    type: 6,
    stage: 'created',
    days: 1,
    buyout: 'self',
    comment: 'оплачено поставщику напрямую, трек SF',
    positions: [
      {
        title: 'Колодки тормозные передние Haval H6',
        original: '哈弗H6 前刹车片',
        link: taobao('675523014896'),
        price: '168.00',
        amount: 4,
        weight: '1.600',
        waybill: 'SF1402938475612',
        stage: 'created',
      },
      {
        title: 'Фильтр салонный угольный',
        original: '活性炭空调滤芯',
        link: taobao('662014578930'),
        price: '24.00',
        amount: 10,
        weight: '0.200',
        waybill: 'SF1402938475612',
        picture: null,
      },
    ],
  },
  {
    title: 'Текстиль для дома',
    client: 1,
    operator: 1,
    route: 1,
    type: 3,
    stage: 'buyout_waiting',
    days: 3,
    positions: [
      {
        title: 'Плед флисовый 150×200',
        original: '法兰绒毛毯 150x200',
        link: offer('627845120397'),
        price: '35.00',
        amount: 20,
        weight: '0.900',
      },
      {
        title: 'Подушка декоративная 45×45',
        original: '抱枕 45x45',
        link: offer('639120457781'),
        price: '18.00',
        amount: 30,
        weight: '0.450',
      },
      {
        title: 'Шторы блэкаут, 2 полотна',
        original: '遮光窗帘 2片装',
        link: taobao('709845123370'),
        price: '79.00',
        amount: 8,
        weight: '1.800',
      },
    ],
  },
  {
    title: 'Спецодежда для склада',
    client: 2,
    operator: 2,
    route: 3,
    type: 1,
    stage: 'buyout_waiting',
    days: 2,
    productPaid: '5000.00',
    comment: 'остаток оплаты после выкупа перчаток',
    positions: [
      {
        title: 'Перчатки рабочие нитриловые, 12 пар',
        original: '丁腈劳保手套 12双',
        link: offer('601478523690'),
        price: '28.00',
        amount: 50,
        weight: '0.500',
        stage: 'buyout_done',
      },
      {
        title: 'Жилет сигнальный светоотражающий',
        original: '反光背心',
        link: offer('614785203369'),
        price: '8.50',
        amount: 100,
        weight: '0.120',
        picture: 'hoodie',
      },
    ],
  },
  {
    title: 'Электроника: аудио и зарядки',
    client: 2,
    operator: 1,
    route: 2,
    type: 2,
    stage: 'buyout_done',
    days: 4,
    package: 2,
    description: 'power bank: у поставщика осталось 20 из 30 шт., выкуплено частично',
    positions: [
      {
        title: 'Наушники беспроводные TWS',
        original: '无线蓝牙耳机 TWS',
        link: offer('683014725591'),
        price: '45.00',
        amount: 50,
        weight: '0.080',
        provider: 'Shenzhen Bright Electronics',
      },
      {
        title: 'Кабель USB-C, 1 м, в оплётке',
        original: 'USB-C 编织数据线 1米',
        link: offer('683014725602'),
        price: '6.80',
        amount: 200,
        weight: '0.040',
        provider: 'Shenzhen Bright Electronics',
      },
      {
        title: 'Power bank 20 000 мА·ч',
        original: '充电宝 20000毫安',
        link: offer('692230147785'),
        price: '58.00',
        amount: 20,
        weight: '0.420',
        partly: true,
      },
      {
        title: 'Умные часы, силиконовый ремешок',
        original: '智能手表 硅胶表带',
        link: taobao('715230148896'),
        price: '95.00',
        amount: 15,
        weight: '0.120',
        waybill: 'SF1320457896021',
        stage: 'warehouse_waiting',
      },
    ],
  },
  {
    title: 'Осенняя коллекция',
    client: 1,
    operator: 1,
    route: 1,
    type: 1,
    stage: 'warehouse_waiting',
    days: 8,
    warning: {
      category_ru: 'склад консолидации',
      type_ru: 'задержка поставщика',
      message: 'худи и джинсы ещё не пришли на склад: поставщик перенёс отправку на 3 дня',
    },
    positions: [
      {
        title: 'Худи оверсайз, футер трёхнитка',
        original: '三线卫衣 宽松款',
        link: offer('654123987740'),
        price: '68.00',
        amount: 40,
        weight: '0.550',
        waybill: 'SF1298374650192',
        picture: 'hoodie',
        provider: 'Guangzhou Xinhui Garments',
      },
      {
        title: 'Джинсы мужские прямые',
        original: '男士直筒牛仔裤',
        link: offer('661230458872'),
        price: '72.00',
        amount: 30,
        weight: '0.650',
        waybill: '75381920463512',
      },
      {
        title: 'Футболка базовая, хлопок 180 г',
        original: '纯棉基础款T恤 180克',
        link: offer('654123987755'),
        price: '19.50',
        amount: 100,
        weight: '0.200',
        waybill: 'SF1298374650201',
        provider: 'Guangzhou Xinhui Garments',
        stage: 'warehouse_received',
      },
      {
        title: 'Кроссовки беговые',
        original: '跑步鞋 透气',
        link: taobao('720145698832'),
        price: '115.00',
        amount: 20,
        weight: '0.800',
        waybill: 'YT2384756019283',
        stage: 'warehouse_received',
      },
      {
        title: 'Носки хлопковые, 10 пар',
        original: '纯棉袜子 10双装',
        link: 'wechat: sockfactory_zj',
        price: '25.00',
        amount: 30,
        weight: '0.500',
        waybill: 'JT5012345678901',
      },
    ],
  },
  {
    title: 'Игрушки для развивающего центра',
    client: 3,
    operator: 2,
    route: 3,
    type: 4,
    stage: 'warehouse_waiting',
    days: 5,
    buyout: 'self',
    positions: [
      {
        title: 'Развивающий коврик для малыша',
        original: '婴儿爬行垫',
        link: taobao('689741230056'),
        price: '69.00',
        amount: 1,
        weight: '1.200',
        waybill: 'YT9081726354019',
      },
      {
        title: 'Набор кубиков-сортеров',
        original: '形状分类积木',
        link: taobao('690123457789'),
        price: '35.00',
        amount: 2,
        weight: '0.500',
        waybill: '78345612098341',
      },
    ],
  },
  {
    title: 'Автозапчасти для сервиса',
    client: 2,
    operator: 2,
    route: 3,
    type: 6,
    stage: 'warehouse_received',
    days: 10,
    delivery: 'to_ru',
    volume: '0.1500',
    comment: 'заберём сами со склада на Складочной',
    positions: [
      {
        title: 'Амортизатор передний газомасляный',
        original: '前减震器 油气',
        link: offer('645120378896'),
        price: '210.00',
        amount: 8,
        weight: '3.200',
        waybill: 'SF1187420365984',
      },
      {
        title: 'Свечи зажигания иридиевые, 4 шт.',
        original: '铱金火花塞 4支装',
        link: offer('645120379012'),
        price: '64.00',
        amount: 25,
        weight: '0.250',
        waybill: 'SF1187420365984',
      },
      {
        title: 'Лампы светодиодные H7, пара',
        original: 'LED大灯 H7 一对',
        link: taobao('702365418890'),
        price: '48.00',
        amount: 20,
        weight: '0.300',
        waybill: 'YT3012587469320',
      },
    ],
  },
  {
    title: 'Весенняя коллекция',
    client: 1,
    operator: 1,
    route: 1,
    type: 1,
    stage: 'sent_to_ru',
    days: 15,
    volume: '0.7000',
    positions: [
      {
        title: 'Ветровка женская с капюшоном',
        original: '女士连帽风衣',
        link: offer('634012578896'),
        price: '86.00',
        amount: 60,
        weight: '0.450',
        waybill: 'SF1045873269014',
        picture: 'hoodie',
        provider: 'Guangzhou Xinhui Garments',
      },
      {
        title: 'Брюки карго',
        original: '工装裤',
        link: offer('634012579011'),
        price: '59.00',
        amount: 80,
        weight: '0.550',
        waybill: 'SF1045873269014',
        provider: 'Guangzhou Xinhui Garments',
      },
      {
        title: 'Рубашка льняная мужская',
        original: '男士亚麻衬衫',
        link: offer('628745013364'),
        price: '48.00',
        amount: 50,
        weight: '0.300',
        waybill: '75310246987015',
      },
      {
        title: 'Кепка-бейсболка',
        original: '棒球帽',
        link: taobao('695874120036'),
        price: '15.00',
        amount: 120,
        weight: '0.100',
        waybill: 'YT1748520369541',
      },
      {
        title: 'Пижама шёлковая',
        original: '真丝睡衣套装',
        link: taobao('712036598874'),
        price: '99.00',
        amount: 30,
        weight: '0.350',
        waybill: 'YT1748520369558',
      },
      {
        title: 'Ремень кожаный',
        original: '真皮皮带',
        link: offer('619874520031'),
        price: '32.00',
        amount: 40,
        weight: '0.250',
        waybill: 'JT3014785236901',
      },
    ],
  },
  {
    title: 'Для дома',
    client: 3,
    operator: 2,
    route: 3,
    type: 3,
    stage: 'sent_to_door',
    days: 41,
    volume: '0.0300',
    doorPrice: '390.00',
    carrierNumber: '81234567-0031-1',
    carrierState: 'в пути',
    positions: [
      {
        title: 'Органайзер для косметики, акрил',
        original: '亚克力化妆品收纳盒',
        link: offer('603214785520'),
        price: '29.00',
        amount: 3,
        weight: '0.600',
        waybill: '77320145896321',
      },
      {
        title: 'Ночник-проектор «Звёздное небо»',
        original: '星空投影灯',
        link: taobao('684512307749'),
        price: '55.00',
        amount: 2,
        weight: '0.500',
        waybill: 'YT6630214785963',
      },
      {
        title: 'Набор ножей, 6 предметов',
        original: '不锈钢刀具 6件套',
        link: offer('611478520369'),
        price: '88.00',
        amount: 1,
        weight: '1.500',
        waybill: '77320145896321',
      },
    ],
  },
  {
    title: 'Экшн-камеры для проката',
    client: 2,
    operator: 1,
    route: 2,
    type: 2,
    stage: 'client_received',
    days: 24,
    package: 2,
    volume: '0.0300',
    doorPrice: '1450.00',
    carrierNumber: '2405180093',
    carrierState: 'выдан получателю',
    positions: [
      {
        title: 'Экшн-камера 4K с аквабоксом',
        original: '4K 运动相机 防水壳',
        link: offer('672014589963'),
        price: '260.00',
        amount: 20,
        weight: '0.300',
        waybill: 'SF1120365478920',
        provider: 'Shenzhen Bright Electronics',
      },
      {
        title: 'Карта памяти microSD 128 ГБ',
        original: 'microSD 存储卡 128GB',
        link: offer('672014590014'),
        price: '42.00',
        amount: 100,
        weight: '0.010',
        waybill: 'SF1120365478920',
        provider: 'Shenzhen Bright Electronics',
      },
    ],
  },
  {
    title: 'Игрушки, партия к лету',
    client: 1,
    operator: 1,
    route: 1,
    type: 4,
    stage: 'client_confirmed',
    state: 'done',
    days: 42,
    package: 2,
    volume: '0.4000',
    doorPrice: '850.00',
    carrierNumber: '1489326570',
    carrierState: 'вручен',
    positions: [
      {
        title: 'Машинка на радиоуправлении',
        original: '遥控越野车',
        link: offer('598741236650'),
        price: '75.00',
        amount: 24,
        weight: '0.700',
        waybill: 'SF1012478963052',
        provider: 'Yiwu Happy Toys Co.',
      },
      {
        title: 'Набор для творчества «Слайм»',
        original: '史莱姆套装',
        link: offer('598741237021'),
        price: '16.00',
        amount: 60,
        weight: '0.300',
        waybill: 'SF1012478963052',
        provider: 'Yiwu Happy Toys Co.',
      },
      {
        title: 'Пазл деревянный, 100 деталей',
        original: '木质拼图 100片',
        link: taobao('667412305589'),
        price: '12.00',
        amount: 50,
        weight: '0.250',
        waybill: 'YT0963214785201',
      },
      {
        title: 'Кукла шарнирная с нарядами',
        original: '关节娃娃 换装套装',
        link: offer('603698521147'),
        price: '39.00',
        amount: 30,
        weight: '0.350',
        waybill: 'JT2203698541207',
      },
    ],
  },
  {
    title: 'Зимние вещи',
    client: 3,
    operator: 2,
    route: 3,
    type: 1,
    stage: 'client_confirmed',
    state: 'done',
    days: 52,
    volume: '0.0120',
    doorPrice: '420.00',
    carrierNumber: '79345120-0012-1',
    carrierState: 'получен',
    positions: [
      {
        title: 'Пуховик женский укороченный',
        original: '女士短款羽绒服',
        link: taobao('652301478896'),
        price: '239.00',
        amount: 1,
        weight: '1.100',
        waybill: 'YT8520147963012',
        picture: 'hoodie',
      },
      {
        title: 'Шапка вязаная с помпоном',
        original: '针织毛线帽',
        link: taobao('640125874415'),
        price: '25.00',
        amount: 2,
        weight: '0.150',
        waybill: 'YT8520147963012',
      },
    ],
  },
];

const TYPE_PICTURE: Record<number, Picture> = { 1: 'tshirt', 2: 'phone', 3: 'mug', 4: 'bear', 6: 'gear' };

/** The stage a formed order's positions are in by default: forming sends them to verification, the rest follow the order. */
const POSITION_STAGE_OF: Record<OrderStage, PositionStage> = {
  draft: 'draft',
  created: 'verification',
  buyout_waiting: 'created',
  buyout_done: 'buyout_done',
  warehouse_waiting: 'warehouse_waiting',
  warehouse_received: 'warehouse_received',
  sent_to_ru: 'sent_to_ru',
  sent_to_door: 'sent_to_door',
  client_received: 'client_received',
  client_confirmed: 'client_confirmed',
};

const orderRank = (stage: OrderStage) => ORDER_STAGES.indexOf(stage);
const positionRank = (stage: PositionStage) => POSITION_STAGES.indexOf(stage);
const positionStage = (o: DemoOrder, p: DemoPosition) => p.stage ?? POSITION_STAGE_OF[o.stage];

/**
 * Do the positions' stages fit the order's, as the stage machines leave them (orderStages.ts)? Draft
 * positions in a draft, verified or not in a formed order, at least one not yet bought while the order
 * waits for payment; buyout_done … warehouse_received are the lowest position's stage
 * (orderStageFromPositions); from sent_to_ru on the order carries every position (positionMoveFor).
 */
function positionsFit(stage: OrderStage, stages: PositionStage[]) {
  if (stage === 'draft') return stages.every((s) => s === 'draft');
  if (stage === 'created') return stages.every((s) => s === 'verification' || s === 'created');
  if (stage === 'buyout_waiting')
    return (
      stages.every((s) => positionRank(s) >= positionRank('created')) &&
      orderStageFromPositions('buyout_waiting', stages) === null
    );
  if (orderRank(stage) <= orderRank('warehouse_received'))
    return orderStageFromPositions('buyout_waiting', stages) === stage;
  return stages.every((s) => s === stage);
}

/** A demo order that breaks a rule the services enforce is a mistake in this file: refuse to seed it. */
function checkDemoOrder(o: DemoOrder) {
  const problem = (() => {
    const route = ROUTES[o.route];
    if (!OPERATORS[o.operator]?.identifiers[o.client]) return 'the operator does not serve the client';
    if (route?.operator !== o.operator) return "the route is not the operator's";
    if (!route.types.includes(o.type)) return 'the route does not carry the product type';
    if (o.package && PACKAGES[o.package]?.operator !== o.operator) return "the package is not the operator's";
    if (o.positions.length < 1 || o.positions.length > 6) return 'an order has 1–6 positions';
    if (
      !positionsFit(
        o.stage,
        o.positions.map((p) => positionStage(o, p)),
      )
    )
      return 'the positions are not in the stages the order stage puts them in';
    const needWaybill = (p: DemoPosition) =>
      o.buyout === 'self' || positionRank(positionStage(o, p)) >= positionRank('warehouse_waiting');
    if (o.positions.some((p) => needWaybill(p) && !p.waybill)) return 'a position needs a waybill';
    // orderCreatedProblems: an order bought out by the operator is formed with a link and a photo on every position
    const formedByOperator = o.buyout !== 'self' && o.stage !== 'draft';
    if (formedByOperator && o.positions.some((p) => !p.link || p.picture === null))
      return 'a position of an order bought out by the operator needs a link and a photo';
    if (orderRank(o.stage) >= orderRank('warehouse_received') && !o.volume)
      return 'a measured order needs a volume';
    if (orderRank(o.stage) >= orderRank('sent_to_door') && !o.carrierNumber) return 'no carrier order number';
    return null;
  })();
  if (problem) throw new Error(`demo order «${o.title}»: ${problem}`);
}

/** When each step of an order happened, in days before today (clamped to today). */
function timeline(o: DemoOrder) {
  const at = (days: number) => Math.max(0, days);
  const arrived = o.days - 9 - ROUTES[o.route]!.transitDays;
  return {
    bought: at(o.days - 2),
    shipped: at(o.days - 3),
    /** the date the seller's parcel is expected at the consolidation warehouse (may be ahead) */
    expected: o.days - 6,
    received: at(o.days - 6),
    sentToRu: at(o.days - 9),
    arrived: at(arrived),
    sentToDoor: at(arrived - 1),
    delivered: at(arrived - 4),
    confirmed: at(arrived - 5),
  };
}
type Timeline = ReturnType<typeof timeline>;

/** Days ago of the order's last step: when it was last updated. */
function lastStep(o: DemoOrder, t: Timeline): number {
  const steps: [OrderStage, number][] = [
    ['client_confirmed', t.confirmed],
    ['client_received', t.delivered],
    ['sent_to_door', t.sentToDoor],
    ['sent_to_ru', t.sentToRu],
    ['warehouse_received', t.received],
    ['warehouse_waiting', t.shipped],
    ['buyout_done', t.bought],
  ];
  return steps.find(([stage]) => orderRank(o.stage) >= orderRank(stage))?.[1] ?? o.days;
}

/** The Chinese courier a waybill belongs to, by its number's form. */
const courierOf = (waybill: string) =>
  waybill.startsWith('SF')
    ? 'SF Express'
    : waybill.startsWith('YT')
      ? 'YTO Express'
      : waybill.startsWith('JT')
        ? 'J&T Express'
        : 'ZTO Express';

/** Boxes a received position came in: about 20 kg each. */
const boxesOf = (p: DemoPosition) => Math.max(1, Math.ceil((p.amount * Number(p.weight)) / 20));
/** ¥ the courier took to bring the boxes to the consolidation warehouse. */
const courierCost = (boxes: number) => `${boxes * 8}.00`;

type StoredPictures = Record<Picture, Attachment>;

/** A position's columns in its stage: what the steps behind it (checks, buyout, the warehouse) filled in. */
function positionRow(
  o: DemoOrder,
  p: DemoPosition,
  t: Timeline,
  pictures: StoredPictures,
  providerId: number | null,
) {
  const stage = positionStage(o, p);
  const past = (s: PositionStage) => positionRank(stage) >= positionRank(s);
  const buyout_state =
    o.buyout === 'self'
      ? stage === 'draft'
        ? 'not_done'
        : 'self'
      : past('buyout_done')
        ? p.partly
          ? 'done_part'
          : 'done'
        : 'not_done';
  const received = past('warehouse_received');
  const boxes = boxesOf(p);
  const picture = p.picture === undefined ? TYPE_PICTURE[o.type] : p.picture;
  const receipt: ReceiveRow = {
    id: 1,
    transporter: courierOf(p.waybill ?? ''),
    date: isoDay(t.received),
    amount: boxes,
    cost: courierCost(boxes),
    comment: boxes > 1 ? `${boxes} коробки, без повреждений` : 'без повреждений',
  };
  return clientOrderPosition.fields.parse({
    client_order_id: 1, // set when the order is stored
    title: p.title,
    title_original: p.original,
    title_ru: past('created') ? p.title : '',
    link: p.link,
    waybill: p.waybill ?? '',
    type_id: o.type,
    stage,
    buyout_state,
    price_cny: p.price,
    amount: String(p.amount),
    weight: p.weight,
    product_images: picture ? [pictures[picture]] : [],
    warehouse_images: received ? [pictures.box] : [],
    provider_id: providerId,
    consolidation_receive_table: received ? [receipt] : [],
    to_consolidation_warehouse_delivery_date: received
      ? isoDay(t.received)
      : past('warehouse_waiting')
        ? isoDay(t.expected)
        : null,
    to_consolidation_warehouse_delivery_price_cny: received ? courierCost(boxes) : null,
  });
}
type PositionRow = ReturnType<typeof positionRow>;

const sumOf = (values: (string | null)[]) => values.reduce((a, v) => a + (v === null ? 0n : dec(v)), 0n);

/**
 * The rate an order is priced at: from waiting for payment on the operator's rate of the day it was
 * asked to pay (its rate_id, fixed), before that the operator's latest (today's).
 */
function pricedAt(o: DemoOrder) {
  const fixed = orderRank(o.stage) >= orderRank('buyout_waiting');
  return { rate: demoRate(o.operator, fixed ? Math.min(6, Math.max(0, o.days - 1)) : 0), fixed };
}

/**
 * The order's columns in its stage and its positions' with the prices the service derives
 * (libs/contracts pricing.ts derivedPrices, as svc-orders' repriceOrder calls it): buyout, delivery
 * to Russia, package, tariff, total and the positions' buyout prices and delivery estimates.
 */
function pricedOrder(
  o: DemoOrder,
  index: number,
  positionRows: PositionRow[],
  t: Timeline,
  delivery: DeliveryData | null,
) {
  const reached = (s: OrderStage) => orderRank(o.stage) >= orderRank(s);
  const operator = OPERATORS[o.operator]!;
  const route = ROUTES[o.route]!;
  const { rate, fixed } = pricedAt(o);
  const measured = reached('warehouse_received');
  const sent = reached('sent_to_ru');
  const toDoor = (o.delivery ?? 'to_door') === 'to_door';
  const places = positionRows.reduce((n, p) => n + (p.consolidation_receive_table[0]?.amount ?? 0), 0);
  // the warehouse weighs the goods: the order weighs what its positions do, so no mismatch hint shows
  const weight = decFormat(
    positionRows.reduce((w, p) => w + decMul(dec(p.weight!), dec(p.amount!)), 0n),
    3,
  );
  const quote = measured ? quoteDensityTable(route.table, weight, o.volume!) : null;
  const measures = {
    buyout_type: o.buyout ?? 'operator',
    weight: measured ? weight : null,
    volume: measured ? o.volume! : null,
    amount: measured ? places : null,
    // the operator charges the tariff in dollars (the sent-to-RU dialog's default currency)
    to_ru_delivery_price: sent ? quote!.price_usd : null,
    to_ru_delivery_currency_id: sent ? CURRENCY.USD : null,
    to_door_delivery_price_rur: toDoor && reached('sent_to_door') ? o.doorPrice! : null,
  };
  const derived = derivedPrices({
    order: measures,
    positions: positionRows,
    rate,
    routePriceUsd: quote?.price_usd ?? null,
    routeBuyoutCommission: route.buyoutCommission,
    package: o.package ? PACKAGES[o.package]! : null,
  });
  const { buyout_price_rur, to_ru_delivery_price_rur, package_price_rur, total_price_rur } = derived.order;
  const productPaid =
    o.buyout === 'self' ? null : reached('buyout_done') ? buyout_price_rur : (o.productPaid ?? null);
  const goods = o.buyout === 'self' ? 0n : dec(buyout_price_rur ?? '0');
  const deliveryPaid = reached('client_received')
    ? decFormat(dec(total_price_rur!) - goods, 2)
    : reached('sent_to_door')
      ? decFormat(sumOf([to_ru_delivery_price_rur, package_price_rur]), 2)
      : null;
  const carrier = toDoor ? (delivery?.transport_company ?? null) : null;
  const formed = reached('created');
  const order = clientOrder.fields.parse({
    title: o.title,
    client_id: o.client,
    operator_id: o.operator,
    order_number: formed ? `${operator.identifiers[o.client]}-${String(index + 1).padStart(3, '0')}` : '',
    stage: o.stage,
    state: o.state ?? 'active',
    consolidation_warehouse_id: operator.consolidation,
    to_warehouse_id: operator.arrival,
    logistic_route_id: o.route,
    package_id: o.package ?? null,
    delivery_type: o.delivery ?? 'to_door',
    delivery_data: toDoor ? delivery : null,
    transport_company_rus: carrier,
    transport_company_rus_order_number: reached('sent_to_door') && toDoor ? o.carrierNumber : '',
    transport_company_rus_order_uuid:
      reached('sent_to_door') && carrier === 'cdek' ? '72753031-7e4c-4c1f-9b1d-3b9c0e6e4f21' : '',
    transport_company_rus_delivery_state: reached('sent_to_door') && toDoor ? (o.carrierState ?? '') : '',
    shipment_article: sent
      ? `${operator.identifiers[o.client]!.slice(0, 2)}-${route.code}-${isoDay(t.sentToRu).slice(5).replace('-', '')}`
      : '',
    options: { receiver_str: toDoor && delivery ? delivery.contact_name : '' },
    send_date: sent ? isoDay(t.sentToRu) : null,
    to_ru_delivery_date: reached('sent_to_door') ? isoDay(t.arrived) : null,
    to_door_delivery_date: reached('client_received') ? isoDay(t.delivered) : null,
    customs_passed: reached('sent_to_door'),
    description: o.description ?? '',
    ...measures,
    ...derived.order,
    density: quote?.density ?? null,
    product_paid_rur: productPaid,
    delivery_paid_rur: deliveryPaid,
    product_payment_state:
      o.buyout === 'self'
        ? 'self'
        : productPaymentStateByPaid({ buyout_price_rur, product_paid_rur: productPaid }),
    delivery_payment_state: !deliveryPaid
      ? 'not_paid'
      : reached('client_received') && toDoor
        ? 'paid_to_door'
        : 'paid_to_ru',
    comment: o.comment ?? '',
    rate_id: fixed ? rate.id : null,
    warning_arr: o.warning
      ? [{ datetime: new Date(Date.now() - Math.max(0, t.expected) * DAY_MS).toISOString(), ...o.warning }]
      : [],
  });
  // the estimates are read-only columns outside the contract's fields
  const positions = positionRows.map((p, i) => ({ ...p, ...derived.positions[i]! }));
  return { order, positions };
}

/** Row values as knex stores them: the entity's jsonb columns as JSON text (a list would become a SQL array). */
function storable(kit: ServiceKit, entity: string, row: Record<string, unknown>) {
  const json = new Set(kit.registry.entities.get(entity)?.def.json ?? []);
  return Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k, json.has(k) && v !== null ? JSON.stringify(v) : v]),
  );
}

/** The demo photos stored as an upload stores them (the file table, served at /api/files/{id}.png). */
async function storePictures(trx: Db): Promise<StoredPictures> {
  const entries = Object.entries(PICTURES).map(([key, { name, layers }]) => {
    const data = png(layers);
    return {
      key,
      row: { id: randomUUID(), name, mime: 'image/png', size: data.length, data, user_id: null },
    };
  });
  await trx('file').insert(entries.map((e) => e.row));
  return Object.fromEntries(
    entries.map(({ key, row }) => [
      key,
      { file: `/api/files/${row.id}.png`, name: row.name, deleted: false },
    ]),
  ) as StoredPictures;
}

/**
 * Demo orders of the demo clients with the demo operators, one or more in every stage, with their
 * positions in the stages that stage implies; once (no order yet), in one transaction, published as
 * other services publish their demo rows so every consumer of order events sees them.
 */
async function seedOrders(kit: ServiceKit) {
  const { db, log } = kit;
  DEMO_ORDERS.forEach(checkDemoOrder);
  const [{ n }] = (await db('client_order').count({ n: '*' })) as [{ n: string }];
  if (Number(n) > 0) return;
  await db.transaction(async (trx) => {
    const clients = (await trx('client').whereIn('id', [1, 2, 3]).select('id', 'delivery_data_list')) as {
      id: number;
      delivery_data_list: DeliveryData[];
    }[];
    if (clients.length < 3) {
      log.warn('demo clients 1–3 not found: no demo orders');
      return;
    }
    const deliveryOf = (clientId: number) =>
      clients.find((c) => Number(c.id) === clientId)?.delivery_data_list[0] ?? null;
    const providers = (await trx('provider').select('id', 'client_id', 'name_str')) as {
      id: number;
      client_id: number;
      name_str: string;
    }[];
    const providerOf = (clientId: number, name?: string) =>
      providers.find((p) => Number(p.client_id) === clientId && p.name_str === name)?.id ?? null;
    const pictures = await storePictures(trx);
    // the oldest first, so ids and order numbers grow with time
    const orders = [...DEMO_ORDERS].sort((a, b) => b.days - a.days);
    for (const [index, o] of orders.entries()) {
      const t = timeline(o);
      const priced = pricedOrder(
        o,
        index,
        o.positions.map((p) => positionRow(o, p, t, pictures, providerOf(o.client, p.provider))),
        t,
        deliveryOf(o.client),
      );
      const created_at = new Date(Date.now() - o.days * DAY_MS - (index + 1) * 47 * 60_000);
      const updated_at = new Date(
        Math.max(created_at.getTime(), Date.now() - lastStep(o, t) * DAY_MS - index * 60_000),
      );
      const [stored] = (await trx('client_order')
        .insert({ ...storable(kit, 'client_order', priced.order), created_at, updated_at })
        .returning('id')) as { id: number }[];
      await trx('client_order_position').insert(
        priced.positions.map((p) => ({
          ...storable(kit, 'client_order_position', { ...p, client_order_id: stored!.id }),
          created_at,
          updated_at,
        })),
      );
    }
    await publishSeeded(kit, trx, ['client_order', 'client_order_position']);
    log.info({ orders: orders.length }, 'demo orders seeded');
  });
}

// ─── demo photos ──────────────────────────────────────────────────────────────────────────────────
// Simple product pictures drawn here and written as PNG (a few KB each): no asset files to ship or copy.

type Rgb = readonly [number, number, number];
/** A layer of a picture: the colour at a point, or null where the layer is not. */
type Layer = (x: number, y: number) => Rgb | null;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Buffer) {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

const SIZE = 160;
/** Samples per pixel side: edges are smoothed by averaging SS×SS points. */
const SS = 3;

/** An RGB PNG of the layers painted over each other (the last on top), rows filtered 'Up' to pack small. */
function png(layers: Layer[]): Buffer {
  const stride = SIZE * 3;
  const pixels = Buffer.alloc(stride * SIZE);
  for (let y = 0; y < SIZE; y++)
    for (let x = 0; x < SIZE; x++) {
      const sum = [0, 0, 0];
      for (let i = 0; i < SS; i++)
        for (let j = 0; j < SS; j++) {
          const px = x + (i + 0.5) / SS;
          const py = y + (j + 0.5) / SS;
          let colour: Rgb = [255, 255, 255];
          for (const layer of layers) colour = layer(px, py) ?? colour;
          colour.forEach((v, k) => (sum[k]! += v));
        }
      for (let k = 0; k < 3; k++) pixels[y * stride + x * 3 + k] = Math.round(sum[k]! / (SS * SS));
    }
  const raw = Buffer.alloc((stride + 1) * SIZE);
  for (let y = 0; y < SIZE; y++) {
    raw[y * (stride + 1)] = y ? 2 : 0;
    for (let i = 0; i < stride; i++) {
      const up = y ? pixels[(y - 1) * stride + i]! : 0;
      raw[y * (stride + 1) + 1 + i] = (pixels[y * stride + i]! - up) & 0xff;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const mix = (a: Rgb, b: Rgb, t: number): Rgb =>
  [0, 1, 2].map((k) => a[k]! + (b[k]! - a[k]!) * t) as unknown as Rgb;
/** A colour shaded from lighter at the top to darker at the bottom of [y0, y1]. */
const shade = (c: Rgb, y: number, y0: number, y1: number): Rgb =>
  mix(mix(c, [255, 255, 255], 0.25), mix(c, [0, 0, 0], 0.25), Math.min(1, Math.max(0, (y - y0) / (y1 - y0))));
const backdrop =
  (top: Rgb, bottom: Rgb): Layer =>
  (_x, y) =>
    mix(top, bottom, y / SIZE);
const circle = (cx: number, cy: number, r: number) => (x: number, y: number) =>
  (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
const ellipse = (cx: number, cy: number, rx: number, ry: number) => (x: number, y: number) =>
  ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1;
const rect =
  (x0: number, y0: number, x1: number, y1: number, r = 0) =>
  (x: number, y: number) => {
    if (x < x0 || x > x1 || y < y0 || y > y1) return false;
    const dx = Math.max(x0 + r - x, 0, x - (x1 - r));
    const dy = Math.max(y0 + r - y, 0, y - (y1 - r));
    return dx * dx + dy * dy <= r * r;
  };
/** Inside a polygon (even-odd rule). */
const polygon = (points: [number, number][]) => (x: number, y: number) => {
  let inside = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [xi, yi] = points[i]!;
    const [xj, yj] = points[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
};
type Shape = (x: number, y: number) => boolean;
const fill =
  (shape: Shape, colour: Rgb | ((x: number, y: number) => Rgb)): Layer =>
  (x, y) =>
    shape(x, y) ? (typeof colour === 'function' ? colour(x, y) : colour) : null;
const shadow = (cx: number, cy: number, rx: number): Layer =>
  fill(ellipse(cx, cy, rx, rx / 7), [0, 0, 0].map(() => 200) as unknown as Rgb);

const tshirt = (c: Rgb): Layer[] => {
  const body = polygon([
    [50, 34],
    [66, 28],
    [94, 28],
    [110, 34],
    [134, 58],
    [120, 74],
    [110, 66],
    [110, 134],
    [50, 134],
    [50, 66],
    [40, 74],
    [26, 58],
  ]);
  const neck = ellipse(80, 28, 14, 10);
  return [
    backdrop([236, 242, 250], [214, 224, 238]),
    shadow(80, 140, 40),
    fill(
      (x, y) => body(x, y) && !neck(x, y),
      (x, y) => shade(c, y, 28, 134),
    ),
    fill((x, y) => ellipse(80, 28, 17, 13)(x, y) && !neck(x, y) && y > 28, mix(c, [0, 0, 0], 0.35)),
  ];
};
const bear: Layer[] = (() => {
  const fur: Rgb = [176, 120, 72];
  const light: Rgb = [226, 190, 150];
  return [
    backdrop([252, 240, 226], [240, 220, 200]),
    shadow(80, 144, 42),
    fill(
      (x, y) => circle(56, 36, 13)(x, y) || circle(104, 36, 13)(x, y),
      (x, y) => shade(fur, y, 20, 60),
    ),
    fill((x, y) => circle(56, 36, 6)(x, y) || circle(104, 36, 6)(x, y), light),
    fill(ellipse(80, 112, 36, 32), (x, y) => shade(fur, y, 80, 144)),
    fill(ellipse(80, 116, 20, 18), light),
    fill(circle(80, 62, 30), (x, y) => shade(fur, y, 32, 92)),
    fill(ellipse(80, 74, 13, 10), light),
    fill(ellipse(80, 69, 5, 3.5), [50, 30, 20]),
    fill((x, y) => circle(69, 56, 3.5)(x, y) || circle(91, 56, 3.5)(x, y), [30, 20, 15]),
  ];
})();
const phone: Layer[] = [
  backdrop([232, 236, 244], [205, 212, 226]),
  shadow(80, 146, 34),
  fill(rect(50, 16, 110, 144, 12), (x, y) => shade([44, 48, 58], y, 16, 144)),
  fill(rect(55, 26, 105, 132, 4), (x, y) => mix([80, 160, 240], [150, 90, 220], (x - 55 + y - 26) / 156)),
  fill(circle(80, 21, 2), [20, 20, 24]),
  fill(rect(62, 40, 98, 52, 3), [255, 255, 255]),
  fill(rect(62, 60, 78, 76, 3), [255, 255, 255]),
  fill(rect(82, 60, 98, 76, 3), [255, 255, 255]),
];
const mug = (c: Rgb): Layer[] => [
  backdrop([242, 246, 240], [218, 228, 214]),
  fill(ellipse(76, 128, 50, 9), [196, 200, 196]),
  fill(
    (x, y) => circle(104, 86, 20)(x, y) && !circle(104, 86, 11)(x, y) && x > 96,
    (x, y) => shade(c, y, 66, 106),
  ),
  fill(rect(44, 50, 104, 128, 8), (x, y) => shade(c, y, 50, 128)),
  fill(ellipse(74, 52, 30, 6), mix(c, [0, 0, 0], 0.4)),
  fill(rect(56, 76, 92, 84, 4), [255, 255, 255]),
];
const gear: Layer[] = (() => {
  const teeth: Shape = (x, y) => {
    const r = Math.hypot(x - 80, y - 80);
    const a = Math.atan2(y - 80, x - 80);
    return r <= 46 || (r <= 58 && Math.cos(10 * a) > 0.2);
  };
  const metal = (x: number, y: number) => mix([200, 206, 214], [96, 104, 116], (x + y) / 320);
  return [
    backdrop([238, 238, 236], [212, 212, 208]),
    fill((x, y) => teeth(x, y) && !circle(80, 80, 16)(x, y), metal),
    fill((x, y) => circle(80, 80, 30)(x, y) && !circle(80, 80, 26)(x, y), [120, 126, 136]),
  ];
})();
const box: Layer[] = [
  backdrop([238, 240, 242], [210, 214, 218]),
  shadow(80, 140, 56),
  fill(
    polygon([
      [28, 56],
      [80, 40],
      [132, 56],
      [80, 72],
    ]),
    [222, 178, 124],
  ),
  fill(
    polygon([
      [28, 56],
      [80, 72],
      [80, 140],
      [28, 122],
    ]),
    [196, 148, 96],
  ),
  fill(
    polygon([
      [80, 72],
      [132, 56],
      [132, 122],
      [80, 140],
    ]),
    [176, 128, 80],
  ),
  fill(
    polygon([
      [50, 49],
      [60, 46],
      [112, 62],
      [102, 65],
    ]),
    [214, 200, 170],
  ),
  fill(
    polygon([
      [90, 86],
      [124, 76],
      [124, 100],
      [90, 110],
    ]),
    [250, 250, 250],
  ),
  fill(
    (x, y) =>
      polygon([
        [94, 90],
        [120, 82],
        [120, 96],
        [94, 104],
      ])(x, y) && Math.floor(x / 2) % 3 !== 0,
    [40, 40, 40],
  ),
];

const PICTURES = {
  tshirt: { name: 'futbolka.png', layers: tshirt([46, 110, 200]) },
  hoodie: { name: 'hudi.png', layers: tshirt([200, 70, 70]) },
  bear: { name: 'igrushka.png', layers: bear },
  phone: { name: 'elektronika.png', layers: phone },
  mug: { name: 'kruzhka.png', layers: mug([46, 150, 120]) },
  gear: { name: 'zapchast.png', layers: gear },
  box: { name: 'korobka-na-sklade.png', layers: box },
};
