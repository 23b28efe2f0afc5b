import { parseRawWhere } from './rawWhere';

const FIELDS = ['id', 'title', 'amount', 'client_id', 'deleted', 'label'];
const parse = (text: string) => parseRawWhere(text, FIELDS);

describe('raw where', () => {
  it('turns comparisons joined by AND into structured conditions', () => {
    expect(
      parse("amount >= 100.5 and title like 'Осн' AND client_id in (1, 2,3) and label is not null"),
    ).toEqual([
      { field: 'amount', op: '>=', value: 100.5 },
      { field: 'title', op: 'like', value: 'Осн' },
      { field: 'client_id', op: 'in', value: [1, 2, 3] },
      { field: 'label', op: 'not_null' },
    ]);
    expect(parse('deleted = false and id <> 7 and label = null')).toEqual([
      { field: 'deleted', op: '=', value: false },
      { field: 'id', op: '!=', value: 7 },
      { field: 'label', op: 'is_null' },
    ]);
    expect(parse(`title = 'O''Brien' and label = "a ""b"""`)).toEqual([
      { field: 'title', op: '=', value: "O'Brien" },
      { field: 'label', op: '=', value: 'a "b"' },
    ]);
  });

  it.each([
    ['id = 1; drop table wallet', "недопустимый символ ';' (позиция 7)"],
    ['id = 1 or 1 = 1', 'OR не поддерживается: условия соединяются только через AND'],
    ['password_hash = 1', "поле 'password_hash' недоступно для фильтра"],
    ["title = 'open", 'незакрытая кавычка (позиция 9)'],
    [
      'id = (select 1)',
      "ожидалось значение (число, строка в кавычках, true, false или null), а не '(' (позиция 6)",
    ],
    ['id = 1 -- comment', "недопустимый символ '-' (позиция 8)"],
    ['title like 5', "ожидалось строка в кавычках, а не '5' (позиция 12)"],
    ['id =', 'ожидалось значение (число, строка в кавычках, true, false или null) в конце условия'],
    ['  ', 'пустое условие'],
    ['id in (1, true)', 'в списке IN допустимы только числа и строки'],
  ])('refuses %p with a clear message', (text, message) => {
    expect(() => parse(text)).toThrow(message);
  });
});
