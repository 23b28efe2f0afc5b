import {
  documentDate,
  INVOICE_MESSAGES,
  InvoiceDownloadParams,
  invoiceOrderIds,
  pluralForm,
  sumInWords,
} from './entities/invoice';
import { describeIssues } from './validation';

describe('an amount in words, as an invoice writes it', () => {
  it.each([
    ['0', 'Ноль рублей 00 копеек'],
    ['0.01', 'Ноль рублей 01 копейка'],
    ['1', 'Один рубль 00 копеек'],
    ['2', 'Два рубля 00 копеек'],
    ['5', 'Пять рублей 00 копеек'],
    ['11', 'Одиннадцать рублей 00 копеек'],
    ['12.02', 'Двенадцать рублей 02 копейки'],
    ['14', 'Четырнадцать рублей 00 копеек'],
    ['21', 'Двадцать один рубль 00 копеек'],
    ['22.21', 'Двадцать два рубля 21 копейка'],
    ['40', 'Сорок рублей 00 копеек'],
    ['101', 'Сто один рубль 00 копеек'],
    ['111.11', 'Сто одиннадцать рублей 11 копеек'],
    ['999', 'Девятьсот девяносто девять рублей 00 копеек'],
    ['1000', 'Одна тысяча рублей 00 копеек'],
    ['2000', 'Две тысячи рублей 00 копеек'],
    ['5000', 'Пять тысяч рублей 00 копеек'],
    ['11000', 'Одиннадцать тысяч рублей 00 копеек'],
    ['21000', 'Двадцать одна тысяча рублей 00 копеек'],
    ['22001', 'Двадцать две тысячи один рубль 00 копеек'],
    ['1234.56', 'Одна тысяча двести тридцать четыре рубля 56 копеек'],
    ['100000', 'Сто тысяч рублей 00 копеек'],
    ['1000000', 'Один миллион рублей 00 копеек'],
    ['2000000', 'Два миллиона рублей 00 копеек'],
    ['5001002', 'Пять миллионов одна тысяча два рубля 00 копеек'],
    ['1000000000', 'Один миллиард рублей 00 копеек'],
    [
      '1234567890.99',
      'Один миллиард двести тридцать четыре миллиона пятьсот шестьдесят семь тысяч восемьсот девяносто рублей 99 копеек',
    ],
    [
      '999999999999.99',
      'Девятьсот девяносто девять миллиардов девятьсот девяносто девять миллионов девятьсот девяносто девять тысяч девятьсот девяносто девять рублей 99 копеек',
    ],
    ['2000000000000', 'Два триллиона рублей 00 копеек'],
  ])('%s → %s', (amount, words) => {
    expect(sumInWords(amount)).toBe(words);
  });

  it('rounds to kopecks half up and reads the API forms of a number', () => {
    expect(sumInWords('10.005')).toBe('Десять рублей 01 копейка');
    expect(sumInWords('10.5')).toBe('Десять рублей 50 копеек');
    expect(sumInWords('7.00')).toBe('Семь рублей 00 копеек');
  });

  it('refuses what is not an amount it can write', () => {
    expect(() => sumInWords('-1')).toThrow(RangeError);
    expect(() => sumInWords('abc')).toThrow(RangeError);
    expect(() => sumInWords('1000000000000000')).toThrow(RangeError);
  });

  it('picks the noun form after a number', () => {
    const forms = ['позиция', 'позиции', 'позиций'] as const;
    expect([1, 2, 4, 5, 11, 12, 21, 23, 25, 111, 101].map((n) => pluralForm(n, forms))).toEqual([
      'позиция',
      'позиции',
      'позиции',
      'позиций',
      'позиций',
      'позиций',
      'позиция',
      'позиции',
      'позиций',
      'позиций',
      'позиция',
    ]);
  });
});

describe('the invoice download params', () => {
  it('takes an order or a list of them, pdf by default, and the fields the UI sends', () => {
    const p = InvoiceDownloadParams.parse({
      id: 12,
      operator_id: 3,
      own_legal_entity_id: null,
      bank_account_id: null,
      counterparty_id: null,
      signed: false,
      user_id: 1,
    });
    expect(p.format_value).toBe('pdf');
    expect(invoiceOrderIds(p)).toEqual([12]);
    expect(invoiceOrderIds(InvoiceDownloadParams.parse({ id: 3, id_arr: [5, 3, 5, 7] }))).toEqual([3, 5, 7]);
  });

  it('refuses another format, too many orders and unknown fields, in words', () => {
    const bad = (input: unknown) => {
      const r = InvoiceDownloadParams.safeParse(input);
      if (r.success) throw new Error('accepted');
      return describeIssues(r.error.issues, input, {
        labels: { format_value: 'формат', id_arr: 'заказы' },
      });
    };
    expect(bad({ id: 1, format_value: 'docx' })).toMatch(/^неверное значение поля 'формат'/);
    expect(bad({ id_arr: Array.from({ length: 51 }, (_, i) => i + 1) })).toBe(
      `неверное значение поля 'заказы': ${INVOICE_MESSAGES.tooManyOrders}`,
    );
    expect(bad({ id: 1, sql: 'drop' })).toBe("неизвестное поле 'sql'");
  });

  it('writes a document date the Russian way', () => {
    expect(documentDate('2026-05-05')).toBe('5 мая 2026 г.');
    expect(documentDate('2026-12-31')).toBe('31 декабря 2026 г.');
  });
});
