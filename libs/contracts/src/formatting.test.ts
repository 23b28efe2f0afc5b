import {
  formatMoney,
  formatNumber,
  formatPercent,
  formatRate,
  isPlainNumber,
  parseNumberInput,
} from './formatting';

const nbsp = (text: string) => text.replace(/ /g, '\u00a0');

describe('formatting numbers for the screen', () => {
  it('groups thousands the ru-RU way with a decimal comma', () => {
    expect(formatNumber('3200')).toBe(nbsp('3 200'));
    expect(formatNumber('1234567.5')).toBe(nbsp('1 234 567,5'));
    expect(formatNumber(-1234.567)).toBe(nbsp('-1 234,57'));
    expect(formatNumber(null)).toBe('');
  });

  it('shows money with two decimals and the currency sign after the amount', () => {
    expect(formatMoney('3200')).toBe(nbsp('3 200,00 ₽'));
    expect(formatMoney('465', '$')).toBe(nbsp('465,00 $'));
    expect(formatMoney('0.005', '¥')).toBe(nbsp('0,01 ¥'));
    expect(formatMoney('12.5', '')).toBe('12,50');
    expect(formatMoney(undefined)).toBe('');
  });

  it('trims rates to what matters, keeping two decimals', () => {
    expect(formatRate('11.0500')).toBe('11,05');
    expect(formatRate('92.1234')).toBe('92,1234');
    expect(formatRate('10')).toBe('10,00');
    expect(formatPercent('2.50')).toBe('2,5%');
  });

  it('never rounds through floats', () => {
    expect(formatMoney('999999999999.995')).toBe(nbsp('1 000 000 000 000,00 ₽'));
  });
});

describe('numbers typed into a form', () => {
  it('accepts digits with a decimal comma or point and spaces between thousands', () => {
    expect(parseNumberInput('1 234,5')).toBe('1234.5');
    expect(parseNumberInput(' 0.25 ')).toBe('0.25');
    expect(parseNumberInput('-3')).toBe('-3');
    expect(parseNumberInput('007')).toBe('7');
  });

  it('refuses words, exponents and garbage', () => {
    for (const text of ['abc', 'сто пятьдесят', '1e3', '1,2,3', '12abc', '', '-', ','])
      expect(parseNumberInput(text)).toBeNull();
    expect(parseNumberInput('1.5', true)).toBeNull();
    expect(parseNumberInput('15', true)).toBe('15');
  });

  it('tells a kept number from raw text', () => {
    expect(isPlainNumber('11.0500')).toBe(true);
    expect(isPlainNumber(12)).toBe(true);
    expect(isPlainNumber('abc')).toBe(false);
    expect(isPlainNumber('1,5')).toBe(false);
    expect(isPlainNumber(1.5, true)).toBe(false);
  });
});
