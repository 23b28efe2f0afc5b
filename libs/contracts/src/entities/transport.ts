/** Russian carriers of the last mile (spec §1, §9) with the names users know them by. */
export const TRANSPORT_COMPANIES = [
  'cdek',
  'ozon',
  'pec',
  'business_lines',
  'jde',
  'glav_dostavka',
  'baikal_service',
  'magic_trans',
  'megatrans',
  'byte_transit',
  'kce',
] as const;
export type TransportCompany = (typeof TRANSPORT_COMPANIES)[number];

export const TRANSPORT_COMPANY_LABELS: Record<TransportCompany, string> = {
  cdek: 'СДЭК',
  ozon: 'Ozon',
  pec: 'ПЭК',
  business_lines: 'Деловые Линии',
  jde: 'ЖелДор',
  glav_dostavka: 'ГлавДоставка',
  baikal_service: 'БайкалСервис',
  magic_trans: 'Magic Trans',
  megatrans: 'МегаТранс',
  byte_transit: 'БайтТранзит',
  kce: 'КСЭ',
};

/** The carrier delivers to this city unless the client says otherwise (spec §9). */
export const DEFAULT_DELIVERY_CITY = 'Москва';
