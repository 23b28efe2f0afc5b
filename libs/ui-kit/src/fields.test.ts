import {
  fieldError,
  hasUnsavedChanges,
  invalidFields,
  kindError,
  rawWhereExample,
  rebaseEdits,
  type FieldDef,
} from './fields';

const rate: FieldDef = { name: 'cbr_rate_cny', label: 'курс ЦБ, ¥', kind: 'decimal' };
const date: FieldDef = { name: 'date', label: 'дата', kind: 'date' };
const days: FieldDef = { name: 'days_from', label: 'срок от, дней', kind: 'integer' };
const delivery: FieldDef = {
  name: 'delivery_data_list',
  label: 'данные доставки',
  kind: 'table',
  columns: [
    { name: 'title', label: 'название', required: true },
    { name: 'contact_phone', label: 'телефон', kind: 'phone' },
  ],
};

describe('what a form refuses to save', () => {
  it('refuses text kept by a number or date input, naming the field', () => {
    expect(
      invalidFields([rate, date, days], { cbr_rate_cny: 'abc', date: '31-02-2026', days_from: '1,5' }),
    ).toEqual([
      "неверное значение поля 'курс ЦБ, ¥': ожидается число",
      "неверное значение поля 'дата': ожидается дата ДД-ММ-ГГГГ между 1900 и 2050 годом",
      "неверное значение поля 'срок от, дней': ожидается целое число",
    ]);
    expect(
      invalidFields([rate, date, days], { cbr_rate_cny: '11.05', date: '2026-02-28', days_from: 3 }),
    ).toEqual([]);
  });

  it('names a cell by its table, its row and its column, required cells included', () => {
    const values = {
      delivery_data_list: [
        { title: 'дом', contact_phone: '+79161112233' },
        { title: '', contact_phone: '89161112233' },
      ],
    };
    expect(invalidFields([delivery], values)).toEqual([
      "не заполнено поле 'данные доставки №2: название'",
      "неверное значение поля 'данные доставки №2: телефон': введите корректный номер",
    ]);
  });

  it('uses the translated label and language when given', () => {
    expect(
      invalidFields([rate], { cbr_rate_cny: '1e3' }, { label: () => 'CBR rate', language: 'en' }),
    ).toEqual(["wrong value of the field 'CBR rate': a number is expected"]);
  });

  it('shows the kind problem first, then the field’s own validator', () => {
    const discount: FieldDef = {
      name: 'discount',
      label: 'скидка',
      kind: 'decimal',
      validate: (v) => (Number(v) > 100 ? 'скидка не может быть больше 100%' : null),
    };
    expect(fieldError(discount, 'abc', {})).toBe('ожидается число');
    expect(fieldError(discount, '101', {})).toBe('скидка не может быть больше 100%');
    expect(kindError(date, '2100-01-01')).not.toBeNull();
    expect(kindError(date, null)).toBeNull();
  });
});

describe('whether an item page has unsaved changes', () => {
  const title: FieldDef = { name: 'title', label: 'название' };
  it('is clean as loaded, and an emptied field equals one never filled', () => {
    expect(
      hasUnsavedChanges({ title: 'Иу', cbr_rate_cny: 12 }, { title: 'Иу', cbr_rate_cny: 12 }, [title, rate]),
    ).toBe(false);
    expect(hasUnsavedChanges({ title: '' }, {}, [title])).toBe(false);
  });
  it('is dirty once a field differs', () => {
    expect(hasUnsavedChanges({ title: 'Иу!' }, { title: 'Иу' }, [title])).toBe(true);
  });
});

describe('the example of a hand-written condition', () => {
  const title: FieldDef = { name: 'title', label: 'название' };
  it("names the list's first number and text fields", () => {
    expect(rawWhereExample([date, rate, title, days])).toBe("cbr_rate_cny > 10 and title like 'склад'");
  });
  it('falls back to the text field alone, or to the id', () => {
    expect(rawWhereExample([date, title])).toBe("title like 'склад'");
    expect(rawWhereExample([date])).toBe('id > 100');
  });
});

describe('a newer copy of the row under an open form', () => {
  it('keeps what the user typed and takes the rest from the newer copy', () => {
    const before = { description: '', order_number: 'A-1', weight: '1.000' };
    const typed = { ...before, description: 'хрупкое' };
    const newer = { ...before, order_number: 'A-1, 77' };
    expect(rebaseEdits(typed, before, newer)).toEqual({
      description: 'хрупкое',
      order_number: 'A-1, 77',
      weight: '1.000',
    });
  });
});
