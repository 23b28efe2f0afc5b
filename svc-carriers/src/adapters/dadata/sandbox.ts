import { isInnQuery, type Suggestions } from './client';
import { toAddress, toBank, toCompany } from './mapping';
import type { DadataAddress, DadataBank, DadataParty } from './types';

/**
 * The built-in sandbox: answers like DaData from a small set of realistic records, so lookups work
 * offline and without an API key. Companies are invented (with valid INN check digits); banks and
 * addresses are real public data.
 */
const address = (
  value: string,
  d: Partial<DadataAddress['data']> & Pick<DadataAddress['data'], 'geo_lat' | 'geo_lon' | 'postal_code'>,
): DadataAddress => ({
  value,
  unrestricted_value: `${d.postal_code}, ${value}`,
  data: {
    region_with_type: null,
    area_with_type: null,
    city: null,
    settlement_with_type: null,
    street_with_type: null,
    house: null,
    ...d,
  },
});

const ADDRESSES: DadataAddress[] = [
  address('г Москва, ул Тверская, д 7', {
    postal_code: '125009',
    region_with_type: 'г Москва',
    city: 'Москва',
    street_with_type: 'ул Тверская',
    house: '7',
    geo_lat: '55.7587',
    geo_lon: '37.6111',
  }),
  address('г Москва, Ленинградский пр-кт, д 39, стр 80', {
    postal_code: '125167',
    region_with_type: 'г Москва',
    city: 'Москва',
    street_with_type: 'Ленинградский пр-кт',
    house: '39',
    geo_lat: '55.7907',
    geo_lon: '37.5416',
  }),
  address('г Москва, ул Складочная, д 1, стр 18', {
    postal_code: '127018',
    region_with_type: 'г Москва',
    city: 'Москва',
    street_with_type: 'ул Складочная',
    house: '1',
    geo_lat: '55.8039',
    geo_lon: '37.5927',
  }),
  address('г Москва, Варшавское шоссе, д 26', {
    postal_code: '117105',
    region_with_type: 'г Москва',
    city: 'Москва',
    street_with_type: 'Варшавское шоссе',
    house: '26',
    geo_lat: '55.6882',
    geo_lon: '37.6229',
  }),
  address('г Москва, ул Новый Арбат, д 15', {
    postal_code: '119019',
    region_with_type: 'г Москва',
    city: 'Москва',
    street_with_type: 'ул Новый Арбат',
    house: '15',
    geo_lat: '55.7527',
    geo_lon: '37.5889',
  }),
  address('Московская обл, г Подольск, ул Комсомольская, д 1', {
    postal_code: '142100',
    region_with_type: 'Московская обл',
    city: 'Подольск',
    street_with_type: 'ул Комсомольская',
    house: '1',
    geo_lat: '55.4311',
    geo_lon: '37.5447',
  }),
  address('г Санкт-Петербург, Невский пр-кт, д 28', {
    postal_code: '191186',
    region_with_type: 'г Санкт-Петербург',
    city: 'Санкт-Петербург',
    street_with_type: 'Невский пр-кт',
    house: '28',
    geo_lat: '59.9358',
    geo_lon: '30.3259',
  }),
  address('г Новосибирск, Красный пр-кт, д 25', {
    postal_code: '630099',
    region_with_type: 'Новосибирская обл',
    city: 'Новосибирск',
    street_with_type: 'Красный пр-кт',
    house: '25',
    geo_lat: '55.0303',
    geo_lon: '82.9204',
  }),
  address('г Екатеринбург, ул Малышева, д 51', {
    postal_code: '620014',
    region_with_type: 'Свердловская обл',
    city: 'Екатеринбург',
    street_with_type: 'ул Малышева',
    house: '51',
    geo_lat: '56.8347',
    geo_lon: '60.6127',
  }),
  address('Респ Татарстан, г Казань, ул Баумана, д 44', {
    postal_code: '420111',
    region_with_type: 'Респ Татарстан',
    city: 'Казань',
    street_with_type: 'ул Баумана',
    house: '44',
    geo_lat: '55.7921',
    geo_lon: '49.1140',
  }),
  address('г Владивосток, ул Светланская, д 29', {
    postal_code: '690091',
    region_with_type: 'Приморский край',
    city: 'Владивосток',
    street_with_type: 'ул Светланская',
    house: '29',
    geo_lat: '43.1159',
    geo_lon: '131.8869',
  }),
  address('Приморский край, г Уссурийск, ул Некрасова, д 66', {
    postal_code: '692519',
    region_with_type: 'Приморский край',
    city: 'Уссурийск',
    street_with_type: 'ул Некрасова',
    house: '66',
    geo_lat: '43.7994',
    geo_lon: '131.9518',
  }),
];

const party = (
  inn: string,
  kpp: string | null,
  short: string,
  full: string,
  opf: string,
  status: string,
  addressValue: string,
  director: string,
): DadataParty => ({
  value: short,
  data: {
    inn,
    kpp,
    hid: `sandbox-${inn}`,
    opf: { full: opf },
    state: { status },
    address: { value: addressValue },
    management: { name: director, post: kpp ? 'ГЕНЕРАЛЬНЫЙ ДИРЕКТОР' : null },
    name: { full_with_opf: full, short_with_opf: short },
  },
});

const COMPANIES: DadataParty[] = [
  party(
    '7725012341',
    '772501001',
    'ООО «РОМАШКА»',
    'ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ «РОМАШКА»',
    'Общество с ограниченной ответственностью',
    'ACTIVE',
    'г Москва, ул Тверская, д 7, офис 12',
    'Смирнова Ирина Викторовна',
  ),
  party(
    '7728041125',
    '772801001',
    'ООО «ВОСТОЧНЫЙ ЭКСПРЕСС»',
    'ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ «ВОСТОЧНЫЙ ЭКСПРЕСС»',
    'Общество с ограниченной ответственностью',
    'ACTIVE',
    'г Москва, Варшавское шоссе, д 26, помещ 4',
    'Ли Вэй',
  ),
  party(
    '5032123452',
    '503201001',
    'ООО «КАРГО ЛАЙН»',
    'ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ «КАРГО ЛАЙН»',
    'Общество с ограниченной ответственностью',
    'LIQUIDATING',
    'Московская обл, г Подольск, ул Комсомольская, д 1',
    'Орлов Сергей Петрович',
  ),
  party(
    '2504012344',
    '250401001',
    'ООО «ПРИМОРСКИЙ ТРАНЗИТ»',
    'ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ «ПРИМОРСКИЙ ТРАНЗИТ»',
    'Общество с ограниченной ответственностью',
    'LIQUIDATED',
    'г Владивосток, ул Светланская, д 29',
    'Ким Андрей Викторович',
  ),
  party(
    '7715456789',
    '771501001',
    'АО «СЕВЕРНАЯ ТОРГОВАЯ КОМПАНИЯ»',
    'АКЦИОНЕРНОЕ ОБЩЕСТВО «СЕВЕРНАЯ ТОРГОВАЯ КОМПАНИЯ»',
    'Акционерное общество',
    'REORGANIZING',
    'г Москва, ул Новый Арбат, д 15',
    'Белов Игорь Николаевич',
  ),
  party(
    '5406123450',
    '540601001',
    'ООО «СИБИРСКИЙ ОПТ»',
    'ОБЩЕСТВО С ОГРАНИЧЕННОЙ ОТВЕТСТВЕННОСТЬЮ «СИБИРСКИЙ ОПТ»',
    'Общество с ограниченной ответственностью',
    'BANKRUPT',
    'г Новосибирск, Красный пр-кт, д 25',
    'Фёдоров Павел Андреевич',
  ),
  party(
    '771234567859',
    null,
    'ИП Соколов Пётр Алексеевич',
    'Индивидуальный предприниматель Соколов Пётр Алексеевич',
    'Индивидуальный предприниматель',
    'ACTIVE',
    'г Москва, Ленинградский пр-кт, д 39',
    'Соколов Пётр Алексеевич',
  ),
  party(
    '540398765437',
    null,
    'ИП Петрова Анна Сергеевна',
    'Индивидуальный предприниматель Петрова Анна Сергеевна',
    'Индивидуальный предприниматель',
    'ACTIVE',
    'г Новосибирск, Красный пр-кт, д 25',
    'Петрова Анна Сергеевна',
  ),
];

const bank = (
  bic: string,
  corr: string,
  payment: string,
  short: string,
  addressValue: string,
): DadataBank => ({
  value: payment,
  data: { bic, correspondent_account: corr, name: { payment, short }, address: { value: addressValue } },
});

const BANKS: DadataBank[] = [
  bank('044525225', '30101810400000000225', 'ПАО Сбербанк', 'СБЕРБАНК', 'г Москва, ул Вавилова, д 19'),
  bank(
    '044525187',
    '30101810700000000187',
    'Банк ВТБ (ПАО)',
    'ВТБ',
    'г Москва, ул Воронцовская, д 43, стр 1',
  ),
  bank(
    '044525593',
    '30101810200000000593',
    'АО «АЛЬФА-БАНК»',
    'АЛЬФА-БАНК',
    'г Москва, ул Каланчевская, д 27',
  ),
  bank(
    '044525974',
    '30101810145250000974',
    'АО «ТБанк»',
    'ТБАНК',
    'г Москва, ул Хуторская 2-я, д 38А, стр 26',
  ),
  bank(
    '044525700',
    '30101810200000000700',
    'АО «Райффайзенбанк»',
    'РАЙФФАЙЗЕНБАНК',
    'г Москва, ул Троицкая, д 17, стр 1',
  ),
];

/** Every word of the query appears in one of the texts (case-insensitive). */
const matches = (query: string, ...texts: (string | null | undefined)[]) => {
  const haystack = texts.join(' ').toLowerCase();
  return query
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
};

export class SandboxSuggestions implements Suggestions {
  async address(query: string, count: number) {
    return ADDRESSES.filter((a) => matches(query, a.unrestricted_value))
      .slice(0, count)
      .map(toAddress);
  }

  async company(query: string, count: number) {
    const found = isInnQuery(query)
      ? COMPANIES.filter((c) => c.data.inn === query)
      : COMPANIES.filter((c) => matches(query, c.value, c.data.inn, c.data.name?.full_with_opf));
    return found.slice(0, count).map(toCompany);
  }

  async bank(query: string, count: number) {
    return BANKS.filter((b) => b.data.bic.startsWith(query) || matches(query, b.value, b.data.name.short))
      .slice(0, count)
      .map(toBank);
  }
}
