import {
  companyStatusLabel,
  discountError,
  isValidInn,
  quoteDensityTable,
  uploadRefusal,
  type DensityRow,
} from './entities';
import { formatDisplayDate, formatDisplayDateTime, parseDisplayDate, parseDisplayDateTime } from './dates';
import { dec, decDiv, decFormat, decMul } from './decimal';

describe('decimals', () => {
  it('multiplies and divides exactly and rounds half up where shown', () => {
    expect(decFormat(decMul(dec('0.1'), dec('0.2')), 2)).toBe('0.02');
    expect(decFormat(decMul(dec('3.10'), dec('150')))).toBe('465.00');
    expect(decFormat(decDiv(dec('10'), dec('3')), 4)).toBe('3.3333');
    expect(decFormat(dec('2.345'), 2)).toBe('2.35');
    expect(decFormat(dec('-2.345'), 2)).toBe('-2.35');
    expect(() => dec('1e5')).toThrow();
  });
});

describe('dates on screen', () => {
  it('reads DD-MM-YYYY and DD-MM-YYYY HH:mm, only real days between 1900 and 2050', () => {
    expect(parseDisplayDate('05-03-2026')).toBe('2026-03-05');
    expect(parseDisplayDate('29-02-2024')).toBe('2024-02-29');
    expect(parseDisplayDate('29-02-2026')).toBeNull();
    expect(parseDisplayDate('01-01-1899')).toBeNull();
    expect(parseDisplayDate('31-12-2050')).toBe('2050-12-31');
    expect(parseDisplayDate('01-01-2051')).toBeNull();
    expect(parseDisplayDate('2026-03-05')).toBeNull();
    const iso = parseDisplayDateTime('05-03-2026 14:30')!;
    expect(formatDisplayDateTime(iso)).toBe('05-03-2026 14:30');
    expect(parseDisplayDateTime('05-03-2026 24:00')).toBeNull();
    expect(formatDisplayDate('2026-03-05')).toBe('05-03-2026');
    expect(formatDisplayDate(null)).toBe('');
  });
});

describe('spec rules of the directories', () => {
  it("gives a discount outside 0..100 the spec's message", () => {
    expect(discountError(101)).toBe('скидка не может быть больше 100%');
    expect(discountError(-0.5)).toBe('скидка не может быть меньше 0%');
    expect(discountError('15')).toBeNull();
    expect(discountError(100)).toBeNull();
  });

  it('checks INN check digits', () => {
    expect(isValidInn('7707083893')).toBe(true);
    expect(isValidInn('7707083894')).toBe(false);
    expect(isValidInn('771234567859')).toBe(true);
    expect(isValidInn('771234567850')).toBe(false);
    expect(isValidInn('12345')).toBe(false);
  });

  it('labels company statuses and shows unknown ones as they came', () => {
    expect(companyStatusLabel('ACTIVE')).toBe('действующая');
    expect(companyStatusLabel('REORGANIZING')).toBe('в процессе присоединения к другому юрлицу');
    expect(companyStatusLabel('BANKRUPT')).toBe('BANKRUPT');
  });

  it('refuses uploads over the size limit or with another extension', () => {
    expect(uploadRefusal({ name: 'a.png', size: 10_000_001 })).toBe(
      'допустимы только файлы не больше: 10 МБ',
    );
    expect(uploadRefusal({ name: 'a.exe', size: 10 }, { extensions: ['xlsx', 'xls'] })).toBe(
      'допустимы только файлы с раширением: xlsx, xls',
    );
    expect(uploadRefusal({ name: 'Счёт.XLSX', size: 10 }, { extensions: ['xlsx', 'xls'] })).toBeNull();
  });
});

describe('density table pricing', () => {
  const table: DensityRow[] = [
    { density_from: '0', density_to: '100', price: '280', unit: 'm3' },
    { density_from: '100', density_to: '200', price: '3.10', unit: 'kg' },
    { density_from: '200', density_to: null, price: '2.40', unit: 'kg' },
  ];

  it('prices heavy cargo per kg and light cargo per m³, the boundary belonging to the next row', () => {
    expect(quoteDensityTable(table, '150', '1')).toEqual({
      density: '150.00',
      unit: 'kg',
      rate: '3.10',
      price_usd: '465.00',
    });
    expect(quoteDensityTable(table, '30', '0.5')).toMatchObject({
      density: '60.00',
      unit: 'm3',
      price_usd: '140.00',
    });
    expect(quoteDensityTable(table, '20', '0.1')).toMatchObject({
      density: '200.00',
      rate: '2.40',
      price_usd: '48.00',
    });
    expect(quoteDensityTable(table, '0.3', '0.003')).toMatchObject({
      density: '100.00',
      rate: '3.10',
      price_usd: '0.93',
    });
  });

  it('finds no price where no row covers the density', () => {
    expect(quoteDensityTable(table.slice(1), '10', '1')).toBeNull();
    expect(quoteDensityTable(table, '10', '0')).toBeNull();
  });
});
