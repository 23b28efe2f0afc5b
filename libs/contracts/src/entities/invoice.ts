import { z } from 'zod';
import { dec, decFormat } from '../decimal';
import { specMessage } from '../validation';
import { Id } from './common';

/**
 * The invoice of client orders, 'Счёт на оплату' (spec orders-payments-calls §7 POST
 * /api/client_order_invoice_download, §5, §8; docs/adr/0012): the call's params, its refusals, the
 * document's words and the amount in words. svc-payments builds the document (PDF or XLSX).
 */

export const INVOICE_FORMATS = ['pdf', 'xlsx'] as const;
export type InvoiceFormat = (typeof INVOICE_FORMATS)[number];
/** Orders one invoice may bill (ours: all of one client and one operator). */
export const INVOICE_MAX_ORDERS = 50;

export const INVOICE_MESSAGES = {
  // spec §8, verbatim, in the order the service checks them
  operatorEntityMissing: specMessage('не указано юрЛицо оператора'),
  clientEntityMissing: specMessage('не указано юрЛицо клиента'),
  operatorEntityMany: specMessage(
    'у оператора больше одного юрЛица. обратитесь к администратору для добавления функциональности',
  ),
  clientEntityMany: specMessage(
    'у клиента больше одного юрЛица. обратитесь к администратору для добавления функциональности',
  ),
  bankAccountMissing: specMessage('не указаны банковские реквизиты юрЛица оператора'),
  bankAccountMany: specMessage('у юрЛица оператора больше одних банковских реквизитов…'),
  directorMissing: specMessage('не указано фио руководителя в юрЛице оператора'),
  // ours
  orderRequired: 'укажите заказ, по которому нужен счёт',
  tooManyOrders: `в один счёт можно включить не больше ${INVOICE_MAX_ORDERS} заказов`,
  mixedClients: 'в один счёт можно включить только заказы одного клиента',
  mixedOperators: 'в один счёт можно включить только заказы одного оператора',
  otherOperator: 'заказ относится к другому оператору',
  foreignOperatorEntity: 'указанное юрЛицо не принадлежит оператору заказа',
  foreignClientEntity: 'указанное юрЛицо не принадлежит клиенту заказа',
  foreignBankAccount: 'указанные банковские реквизиты не принадлежат юрЛицу оператора',
  nothingToPay: 'в счёте нет ни одной суммы к оплате: у заказа нет цен',
  unavailable: 'не удалось сформировать счёт, повторите попытку',
} as const;

/**
 * POST /api/client_order_invoice_download (spec §7), a JSON body. `id` or `id_arr` (or both) name the
 * orders; the others are the spec's call as the UI sends it: own_legal_entity_id, counterparty_id and
 * bank_account_id choose among the operator's entities, the client's and the operator entity's
 * accounts (without them there must be exactly one, §5); operator_id, when given, must be the orders'
 * operator; user_id is the identity's and signed (a facsimile signature) is not supported: both are
 * accepted and ignored.
 */
export const InvoiceDownloadParams = z.strictObject({
  id: Id.optional(),
  id_arr: z.array(Id).max(INVOICE_MAX_ORDERS, INVOICE_MESSAGES.tooManyOrders).optional(),
  format_value: z.enum(INVOICE_FORMATS).default('pdf'),
  operator_id: Id.nullable().optional(),
  own_legal_entity_id: Id.nullable().optional(),
  bank_account_id: Id.nullable().optional(),
  counterparty_id: Id.nullable().optional(),
  signed: z.boolean().default(false),
  user_id: Id.nullable().optional(),
});
export type InvoiceDownloadParams = z.infer<typeof InvoiceDownloadParams>;

export const INVOICE_DOWNLOAD_LABELS: Record<keyof InvoiceDownloadParams, string> = {
  id: 'заказ',
  id_arr: 'заказы',
  format_value: 'формат',
  operator_id: 'оператор',
  own_legal_entity_id: 'юрЛицо оператора',
  bank_account_id: 'банковские реквизиты',
  counterparty_id: 'юрЛицо клиента',
  signed: 'с подписью и печатью',
  user_id: 'пользователь',
};

/** The order ids a download names: `id` and `id_arr` together, each once, in the order given. */
export const invoiceOrderIds = (p: Pick<InvoiceDownloadParams, 'id' | 'id_arr'>): number[] => [
  ...new Set([...(p.id ? [p.id] : []), ...(p.id_arr ?? [])]),
];

/** The document's words, one place for the PDF and the XLSX. */
export const INVOICE_TEXTS = {
  title: 'Счёт на оплату',
  recipientBank: 'Банк получателя',
  bik: 'БИК',
  account: 'Сч. №',
  inn: 'ИНН',
  kpp: 'КПП',
  recipient: 'Получатель',
  seller: 'Поставщик (Исполнитель):',
  buyer: 'Покупатель (Заказчик):',
  basis: 'Основание:',
  columns: {
    n: '№',
    title: 'Товары (работы, услуги)',
    quantity: 'Кол-во',
    unit: 'Ед.',
    price: 'Цена',
    sum: 'Сумма',
  },
  total: 'Итого:',
  vatIncluded: (rate: string | null) => (rate ? `В том числе НДС (${rate}%):` : 'В том числе НДС:'),
  noVat: 'Без НДС',
  toPay: 'Всего к оплате:',
  director: 'Руководитель',
  accountant: 'Бухгалтер',
  /** 'Всего наименований 3, на сумму 1 234,56 руб.' */
  summary: (count: number, sum: string) => `Всего наименований ${count}, на сумму ${sum} руб.`,
  /** 'Счёт на оплату № 12 от 5 мая 2026 г.' */
  heading: (number: string, date: string) => `Счёт на оплату № ${number} от ${date}`,
  order: (id: number, title: string) => `Заказ № ${id}${title ? ` «${title}»` : ''}`,
  orders: (ids: readonly number[]) => `Заказы № ${ids.join(', ')}`,
  goodsOfOrder: (id: number) => `Товары по заказу № ${id}`,
  toRuDelivery: 'Доставка до РФ',
  toDoorDelivery: 'Доставка по РФ',
  package: 'Упаковка',
  /** a service line of one order among several: 'Доставка до РФ (заказ № 12)' */
  ofOrder: (text: string, id: number) => `${text} (заказ № ${id})`,
  pieces: 'шт.',
  service: 'усл.',
} as const;

const MONTHS_GENITIVE = [
  'января',
  'февраля',
  'марта',
  'апреля',
  'мая',
  'июня',
  'июля',
  'августа',
  'сентября',
  'октября',
  'ноября',
  'декабря',
];

/** '2026-05-05' → '5 мая 2026 г.' (a document's date). */
export function documentDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) throw new RangeError(`not a date: ${iso}`);
  return `${Number(m[3])} ${MONTHS_GENITIVE[Number(m[2]) - 1]} ${m[1]} г.`;
}

// ---------------------------------------------------------------- the amount in words

type Forms = readonly [one: string, few: string, many: string];

/** The form of a noun after n: 1 рубль, 2 рубля, 5 рублей; 11–14 take the third. */
export function pluralForm(n: number, forms: Forms): string {
  const tens = n % 100;
  const units = n % 10;
  if (tens >= 11 && tens <= 14) return forms[2];
  if (units === 1) return forms[0];
  if (units >= 2 && units <= 4) return forms[1];
  return forms[2];
}

const HUNDREDS = [
  '',
  'сто',
  'двести',
  'триста',
  'четыреста',
  'пятьсот',
  'шестьсот',
  'семьсот',
  'восемьсот',
  'девятьсот',
];
const TENS = [
  '',
  '',
  'двадцать',
  'тридцать',
  'сорок',
  'пятьдесят',
  'шестьдесят',
  'семьдесят',
  'восемьдесят',
  'девяносто',
];
const TEENS = [
  'десять',
  'одиннадцать',
  'двенадцать',
  'тринадцать',
  'четырнадцать',
  'пятнадцать',
  'шестнадцать',
  'семнадцать',
  'восемнадцать',
  'девятнадцать',
];
const UNITS_MASCULINE = ['', 'один', 'два', 'три', 'четыре', 'пять', 'шесть', 'семь', 'восемь', 'девять'];
const UNITS_FEMININE = ['', 'одна', 'две', ...UNITS_MASCULINE.slice(3)];

/** 1..999 in words, the gender deciding один/одна and два/две. */
function triadWords(n: number, feminine: boolean): string[] {
  const words = [HUNDREDS[Math.floor(n / 100)]!];
  const rest = n % 100;
  if (rest >= 10 && rest < 20) words.push(TEENS[rest - 10]!);
  else words.push(TENS[Math.floor(rest / 10)]!, (feminine ? UNITS_FEMININE : UNITS_MASCULINE)[rest % 10]!);
  return words.filter(Boolean);
}

/** Thousands and above: their names and genders (тысяча is feminine). */
const SCALES: readonly { forms: Forms; feminine: boolean }[] = [
  { forms: ['тысяча', 'тысячи', 'тысяч'], feminine: true },
  { forms: ['миллион', 'миллиона', 'миллионов'], feminine: false },
  { forms: ['миллиард', 'миллиарда', 'миллиардов'], feminine: false },
  { forms: ['триллион', 'триллиона', 'триллионов'], feminine: false },
];
const RUBLES: Forms = ['рубль', 'рубля', 'рублей'];
const KOPECKS: Forms = ['копейка', 'копейки', 'копеек'];

/**
 * A ruble amount in words, as an invoice writes it: 'Одна тысяча двести тридцать четыре рубля 56
 * копеек' ('1234.56'); kopecks in two digits ('Ноль рублей 00 копеек'). The amount is a decimal string
 * (rounded half up to kopecks), 0 up to 999 999 999 999 999.99; anything else throws a RangeError.
 */
export function sumInWords(amount: string): string {
  let text: string;
  try {
    text = decFormat(dec(amount), 2);
  } catch {
    throw new RangeError(`not an amount: ${amount}`);
  }
  if (text.startsWith('-')) throw new RangeError(`negative amount: ${amount}`);
  const [whole, kopecks] = text.split('.') as [string, string];
  if (whole.length > 15) throw new RangeError(`amount too large: ${amount}`);
  // triads from the lowest: [units, thousands, millions, billions, trillions]
  const triads: number[] = [];
  for (let end = whole.length; end > 0; end -= 3) triads.push(Number(whole.slice(Math.max(0, end - 3), end)));
  const words: string[] = [];
  for (let i = triads.length - 1; i >= 1; i--) {
    const n = triads[i]!;
    if (n === 0) continue;
    const scale = SCALES[i - 1]!;
    words.push(...triadWords(n, scale.feminine), pluralForm(n, scale.forms));
  }
  const units = triads[0]!;
  if (units) words.push(...triadWords(units, false));
  if (!words.length) words.push('ноль');
  words.push(pluralForm(units, RUBLES), kopecks, pluralForm(Number(kopecks), KOPECKS));
  const sentence = words.join(' ');
  return sentence[0]!.toUpperCase() + sentence.slice(1);
}
