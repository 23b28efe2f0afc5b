import { publishSeeded, type Db, type ServiceKit } from '@caravan/service-kit';
import { CDEK_SANDBOX_ACCOUNT } from './adapters/cdek';
import { JDE_SANDBOX_ACCOUNT } from './adapters/jde';
import { OZON_SANDBOX_ACCOUNT } from './adapters/ozon';
import { PEC_SANDBOX_ACCOUNT } from './adapters/pec';
import { sealStoredTokens } from './domain/credentials';

/**
 * Demo reference data. Ids are fixed where the spec or other services rely on them: country 1 =
 * China, 2 = Russia; currency 1 CNY, 2 RUB, 3 USD; city 1 is the placeholder never used for a
 * warehouse; operators 1 and 2 are linked to the demo operator users and own the demo wallets.
 */
type Rows = Record<string, unknown>[];

const json = (v: unknown) => JSON.stringify(v);

/** Inserts rows with their fixed ids and moves the id sequence past them. */
async function insertWithIds(kit: ServiceKit, trx: Db, table: string, rows: Rows) {
  // jsonb fields as the entity declares them (node-pg would send a JS list as a SQL array)
  const jsonColumns = new Set(kit.registry.entities.get(table)?.def.json ?? []);
  const values = rows.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, jsonColumns.has(k) ? json(v) : v])),
  );
  // every column any row names; a row without one takes the column's default (not null)
  const columns = [...new Set(values.flatMap((v) => Object.keys(v)))];
  const cell = (v: Record<string, unknown>, c: string) => (c in v ? '?' : 'default');
  await trx.raw(
    `insert into ?? (${columns.map(() => '??').join(', ')}) overriding system value values ${values
      .map((v) => `(${columns.map((c) => cell(v, c)).join(', ')})`)
      .join(', ')}`,
    [
      table,
      ...columns,
      ...values.flatMap((v) => columns.filter((c) => c in v).map((c) => v[c] ?? null)),
    ] as never,
  );
  await trx.raw(`select setval(pg_get_serial_sequence(?, 'id'), (select max(id) from ??))`, [table, table]);
}

const link = (table: string, left: string, right: string, pairs: [number, number][]) =>
  [table, pairs.map(([a, b], i) => ({ id: i + 1, [left]: a, [right]: b }))] as const;

const WEEKDAYS_9_18 = {
  mon: { from: '09:00', to: '18:00' },
  tue: { from: '09:00', to: '18:00' },
  wed: { from: '09:00', to: '18:00' },
  thu: { from: '09:00', to: '18:00' },
  fri: { from: '09:00', to: '18:00' },
  sat: { from: '10:00', to: '15:00' },
  sun: null,
};

const DIRECTORIES: (readonly [string, Rows])[] = [
  [
    'city',
    [
      { id: 1, title: 'не указан', title_en: 'not set', title_ru: 'не указан', country_id: 1 },
      { id: 2, title: 'Гуанчжоу', title_en: 'Guangzhou', title_ru: 'Гуанчжоу', country_id: 1 },
      { id: 3, title: 'Иу', title_en: 'Yiwu', title_ru: 'Иу', country_id: 1 },
      { id: 4, title: 'Шэньчжэнь', title_en: 'Shenzhen', title_ru: 'Шэньчжэнь', country_id: 1 },
      { id: 5, title: 'Москва', title_en: 'Moscow', title_ru: 'Москва', country_id: 2 },
      {
        id: 6,
        title: 'Санкт-Петербург',
        title_en: 'Saint Petersburg',
        title_ru: 'Санкт-Петербург',
        country_id: 2,
      },
      { id: 7, title: 'Новосибирск', title_en: 'Novosibirsk', title_ru: 'Новосибирск', country_id: 2 },
      { id: 8, title: 'Владивосток', title_en: 'Vladivostok', title_ru: 'Владивосток', country_id: 2 },
      { id: 9, title: 'Алматы', title_en: 'Almaty', title_ru: 'Алматы', country_id: 3 },
    ],
  ],
  [
    'logistic_product_type',
    [
      { id: 1, title: 'Одежда и обувь' },
      { id: 2, title: 'Электроника' },
      { id: 3, title: 'Товары для дома' },
      { id: 4, title: 'Игрушки' },
      { id: 5, title: 'Косметика' },
      { id: 6, title: 'Автозапчасти' },
      { id: 7, title: 'Хрупкие товары' },
    ],
  ],
  [
    'package_description',
    [
      { id: 1, title: 'Мешок и скотч', title_cn: '编织袋+胶带', images: [] },
      { id: 2, title: 'Картонные уголки', title_cn: '纸护角', images: [] },
      { id: 3, title: 'Деревянная обрешётка', title_cn: '木架', images: [] },
      { id: 4, title: 'Деревянный ящик', title_cn: '木箱', images: [] },
      { id: 5, title: 'Паллет', title_cn: '托盘', images: [] },
    ],
  ],
  [
    'warehouse_point',
    [
      {
        id: 1,
        title: 'Гуанчжоу, Байюнь',
        type: 'consolidation',
        city_id: 2,
        address: '广州市白云区石井街道庆丰工业区8号',
        address_eng: 'No. 8 Qingfeng Industrial Zone, Shijing, Baiyun District, Guangzhou',
        postcode: '510430',
        comment: 'приём с 9:00 до 20:00 по Пекину',
      },
      {
        id: 2,
        title: 'Иу, Футянь',
        type: 'consolidation',
        city_id: 3,
        address: '义乌市福田街道诚信大道1号',
        address_eng: '1 Chengxin Avenue, Futian, Yiwu, Zhejiang',
        postcode: '322000',
        comment: '',
      },
      {
        id: 3,
        title: 'Москва, Южные ворота',
        type: 'arrival',
        city_id: 5,
        address: 'г Москва, Варшавское шоссе, д 26',
        address_eng: 'Moscow, Varshavskoe sh. 26',
        postcode: '117105',
        comment: '',
      },
      {
        id: 4,
        title: 'Москва, Складочная',
        type: 'arrival',
        city_id: 5,
        address: 'г Москва, ул Складочная, д 1, стр 18',
        address_eng: 'Moscow, Skladochnaya st. 1/18',
        postcode: '127018',
        comment: 'въезд с ул. Сущёвский Вал',
      },
      {
        id: 5,
        title: 'Фабрика Синьхуэй',
        type: 'provider',
        city_id: 2,
        address: '广州市番禺区新汇路18号',
        address_eng: '18 Xinhui Road, Panyu District, Guangzhou',
        postcode: '511400',
        comment: 'поставщик одежды',
      },
    ],
  ],
  [
    'operator',
    [
      {
        id: 1,
        title: 'Восточный экспресс',
        email: 'ops@vostok-express.ru',
        phone: '+79161234567',
        tax_type: 'usn_income',
        tax_rate: '6.00',
        nds_rate: '0.00',
        consolidation_warehouse_id: 1,
        to_warehouse_id: 3,
        warehouse_id: 1,
        package_id: 1,
        legal_entity_id: '{1}',
        bank_account_id: 1,
        working_hours: WEEKDAYS_9_18,
        transport_company_data: [
          // the sandbox accounts (CDEK's is its public test-environment account)
          {
            type: 'cdek',
            api_data: { ...CDEK_SANDBOX_ACCOUNT },
            recipient_cost_commission: '3.00',
          },
          {
            type: 'pec',
            api_data: { ...PEC_SANDBOX_ACCOUNT },
            recipient_cost_commission: '2.50',
          },
          {
            type: 'ozon',
            api_data: { ...OZON_SANDBOX_ACCOUNT },
            recipient_cost_commission: '0.00',
          },
        ],
        client_list: [
          {
            id: 1,
            title: 'ООО «Ромашка»',
            identifier: 'VE-001',
            is_negative_buyout: false,
            is_negative_delivery: true,
            discount_buyout: 0,
            discount_delivery: 5,
          },
          {
            id: 2,
            title: 'ИП Соколов',
            identifier: 'VE-002',
            is_negative_buyout: false,
            is_negative_delivery: false,
            discount_buyout: 0,
            discount_delivery: 0,
          },
        ],
      },
      {
        id: 2,
        title: 'Шёлковый путь',
        email: 'hello@silkway-cargo.ru',
        phone: '+79257654321',
        tax_type: 'osn',
        tax_rate: '0.00',
        nds_rate: '20.00',
        consolidation_warehouse_id: 2,
        to_warehouse_id: 4,
        warehouse_id: 2,
        package_id: 3,
        legal_entity_id: '{}',
        working_hours: { ...WEEKDAYS_9_18, sat: null },
        transport_company_data: [
          {
            type: 'jde',
            api_data: { ...JDE_SANDBOX_ACCOUNT },
            recipient_cost_commission: '0.00',
          },
        ],
        client_list: [
          {
            id: 2,
            title: 'ИП Соколов',
            identifier: 'SW-17',
            is_negative_buyout: false,
            is_negative_delivery: false,
            discount_buyout: 2,
            discount_delivery: 0,
          },
          {
            id: 3,
            title: 'Анна Петрова',
            identifier: 'SW-18',
            is_negative_buyout: false,
            is_negative_delivery: false,
            discount_buyout: 0,
            discount_delivery: 0,
          },
        ],
      },
    ],
  ],
  link('operator_warehouse_point_link', 'operator_id', 'warehouse_point_id', [
    [1, 1],
    [1, 3],
    [2, 2],
    [2, 4],
  ]),
  [
    'warehouse_point_contact',
    [
      {
        id: 1,
        title: 'Приёмка, Южные ворота',
        contact_name: 'Иван Сидоров',
        phone: '+79031234567',
        operator_id: 1,
        warehouse_point_id: 3,
      },
      {
        id: 2,
        title: 'Выдача, Складочная',
        contact_name: 'Мария Ким',
        phone: '+79859876543',
        operator_id: 2,
        warehouse_point_id: 4,
      },
    ],
  ],
  [
    'logistic_route',
    [
      {
        id: 1,
        title: 'Гуанчжоу — Москва, авто',
        type: 'truck',
        state: 'active',
        operator_id: 1,
        from_city_id: 2,
        days_from: 18,
        days_to: 25,
        buyout_commission: '3.00',
        description: 'Сборные грузы автотранспортом через Забайкальск',
        density_table: [
          { density_from: '0', density_to: '100', price: '280', unit: 'm3' },
          { density_from: '100', density_to: '200', price: '3.10', unit: 'kg' },
          { density_from: '200', density_to: '300', price: '2.80', unit: 'kg' },
          { density_from: '300', density_to: '400', price: '2.60', unit: 'kg' },
          { density_from: '400', density_to: null, price: '2.40', unit: 'kg' },
        ],
      },
      {
        id: 2,
        title: 'Гуанчжоу — Москва, авиа',
        type: 'plane',
        state: 'active',
        operator_id: 1,
        from_city_id: 2,
        days_from: 7,
        days_to: 10,
        buyout_commission: '3.00',
        description: 'Авиадоставка, объёмный вес от 167 кг/м³',
        density_table: [
          { density_from: '0', density_to: '167', price: '1400', unit: 'm3' },
          { density_from: '167', density_to: null, price: '8.50', unit: 'kg' },
        ],
      },
      {
        id: 3,
        title: 'Иу — Москва, ж/д',
        type: 'train',
        state: 'active',
        operator_id: 2,
        from_city_id: 3,
        days_from: 25,
        days_to: 35,
        buyout_commission: '2.50',
        description: 'Контейнерный поезд Иу — Ворсино',
        density_table: [
          { density_from: '0', density_to: '100', price: '230', unit: 'm3' },
          { density_from: '100', density_to: '200', price: '2.50', unit: 'kg' },
          { density_from: '200', density_to: null, price: '2.20', unit: 'kg' },
        ],
      },
      {
        id: 4,
        title: 'Иу — Москва, авто (новый)',
        type: 'truck',
        state: 'draft',
        operator_id: 2,
        from_city_id: 3,
        days_from: 20,
        days_to: 28,
        buyout_commission: '2.50',
        description: '',
        density_table: [],
      },
    ],
  ],
  link('logistic_route_logistic_product_type_link', 'logistic_route_id', 'logistic_product_type_id', [
    [1, 1],
    [1, 3],
    [1, 4],
    [1, 6],
    [2, 1],
    [2, 2],
    [2, 5],
    [3, 1],
    [3, 3],
    [3, 4],
    [3, 6],
  ]),
  link('logistic_route_warehouse_point_link', 'logistic_route_id', 'warehouse_point_id', [
    [1, 1],
    [1, 3],
    [2, 1],
    [2, 3],
    [3, 2],
    [3, 4],
  ]),
  [
    'extra_service',
    [
      {
        id: 1,
        title: 'Доставка по Москве до двери',
        type: 'transfer',
        operator_id: 1,
        warehouse_point_id: 3,
        transport_company: 'cdek',
        unit: 'order',
        client_price_currency_id: 2,
        client_price_from: '500.00',
        client_price_to: '1500.00',
        cost_price_currency_id: 2,
        cost_price_from: '350.00',
        cost_price_to: '1100.00',
      },
      {
        id: 2,
        title: 'Деревянная обрешётка',
        type: 'package',
        operator_id: 1,
        warehouse_point_id: 1,
        package_description_id: 3,
        unit: 'm3',
        process_lang: 'cn',
        client_price_currency_id: 1,
        client_price_from: '150.00',
        client_price_to: '220.00',
        cost_price_currency_id: 1,
        cost_price_from: '100.00',
        cost_price_to: '150.00',
      },
      {
        id: 3,
        title: 'Мешок и скотч',
        type: 'package',
        operator_id: 1,
        warehouse_point_id: 1,
        package_description_id: 1,
        unit: 'place',
        process_lang: 'cn',
        client_price_currency_id: 1,
        client_price_fix: true,
        client_price_from: '15.00',
        cost_price_currency_id: 1,
        cost_price_from: '8.00',
      },
      {
        id: 4,
        title: 'Отправка ЖелДором из Москвы',
        type: 'transfer',
        operator_id: 2,
        warehouse_point_id: 4,
        transport_company: 'jde',
        unit: 'kg',
        client_price_currency_id: 2,
        client_price_from: '25.00',
        client_price_to: '60.00',
        cost_price_currency_id: 2,
        cost_price_from: '18.00',
        cost_price_to: '45.00',
      },
    ],
  ],
];

export async function seed(kit: ServiceKit) {
  const { db, log } = kit;
  const [{ n }] = (await db('country').count({ n: '*' })) as [{ n: string }];
  if (Number(n) === 0)
    await db.transaction(async (trx) => {
      await insertWithIds(kit, trx, 'country', [
        { id: 1, title: 'Китай', title_en: 'China', title_ru: 'Китай' },
        { id: 2, title: 'Россия', title_en: 'Russia', title_ru: 'Россия' },
        { id: 3, title: 'Казахстан', title_en: 'Kazakhstan', title_ru: 'Казахстан' },
      ]);
      await insertWithIds(kit, trx, 'currency', [
        { id: 1, title: 'CNY', symbol: '¥' },
        { id: 2, title: 'RUB', symbol: '₽' },
        { id: 3, title: 'USD', symbol: '$' },
      ]);
    });
  const [{ cities }] = (await db('city').count({ cities: '*' })) as [{ cities: string }];
  if (Number(cities) > 0) return;
  await db.transaction(async (trx) => {
    for (const [table, rows] of DIRECTORIES) await insertWithIds(kit, trx, table, rows);
    await trx('operator').where({ id: 1 }).update({ route_id: 1 });
    await trx('operator').where({ id: 2 }).update({ route_id: 3 });
    // the demo operators own the warehouses they work from; the provider's warehouse is client 1's
    await trx('warehouse_point').whereIn('id', [1, 3]).update({ operator_id: 1 });
    await trx('warehouse_point').whereIn('id', [2, 4]).update({ operator_id: 2 });
    await trx('warehouse_point').where({ id: 5 }).update({ client_id: 1 });
    // the demo operators' sandbox accounts are stored like any operator's: tokens sealed
    await sealStoredTokens(trx);
    await publishSeeded(kit, trx, ['country', 'currency', ...DIRECTORIES.map(([table]) => table)]);
  });
  log.info('demo directories seeded');
}
