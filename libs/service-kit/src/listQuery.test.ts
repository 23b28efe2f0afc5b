import type { WhereCondition } from '@caravan/contracts';
import { checkCondition, decodeCursor, encodeCursor, isDateValue, type OrderKey } from './listQuery';

const refusal = (c: WhereCondition, kind: Parameters<typeof checkCondition>[1], label = 'название') => {
  try {
    checkCondition(c, kind, label);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
};

describe('a filter the column cannot answer is refused in words', () => {
  it("'contains' only on list fields", () => {
    expect(refusal({ field: 'title', op: 'contains', value: 'x' }, 'text')).toBe(
      "условие 'contains' применимо только к полям-спискам, а 'название' — не список",
    );
    expect(refusal({ field: 'ids', op: 'contains', value: 3 }, 'numbers')).toBeNull();
    expect(refusal({ field: 'ids', op: 'contains', value: 'три' }, 'numbers', 'склады')).toBe(
      "для условия 'contains' по полю 'склады' нужно число",
    );
  });

  it('numbers, dates and yes/no by their column', () => {
    expect(refusal({ field: 'n', op: '>', value: 'abc' }, 'number', 'ставка')).toBe(
      "для условия '>' по полю 'ставка' нужно число",
    );
    expect(refusal({ field: 'n', op: '>', value: '12.5' }, 'number')).toBeNull();
    expect(refusal({ field: 'd', op: '=', value: '31-02-2026' }, 'date', 'дата')).toMatch(/нужна дата/);
    expect(refusal({ field: 'd', op: '=', value: '2026-02-28' }, 'date')).toBeNull();
    expect(refusal({ field: 'b', op: '=', value: 'да' }, 'boolean', 'инкогнито')).toMatch(/нужно да или нет/);
    expect(refusal({ field: 'n', op: 'in', value: [] }, 'number', 'ставка')).toBe(
      "для условия 'in' по полю 'ставка' нужен непустой список",
    );
    expect(refusal({ field: 'n', op: '=', value: ['a'] }, 'text')).toBe(
      "для условия '=' по полю 'название' нужно одно значение",
    );
  });

  it('lists compare only by membership, json only by text and presence', () => {
    expect(refusal({ field: 'ids', op: '=', value: 1 }, 'numbers', 'склады')).toBe(
      "условие '=' не применимо к полю-списку 'склады': используйте 'contains'",
    );
    expect(refusal({ field: 'j', op: '>', value: 1 }, 'json', 'часы')).toMatch(/условие '>' не подходит/);
    expect(refusal({ field: 'j', op: 'like', value: 'пн' }, 'json')).toBeNull();
    expect(refusal({ field: 'j', op: 'is_null' }, 'json')).toBeNull();
  });
});

describe('dates as PostgreSQL reads them', () => {
  it.each([
    ['2026-02-28', false, true],
    ['2026-02-29', false, false],
    ['2024-02-29', false, true],
    ['2026-13-01', false, false],
    ['2026-01-01 10:30', true, true],
    ['2026-01-01T10:30:00.123Z', true, true],
    ['2026-01-01 24:00', true, false],
    ['2026-01-01 10:30', false, false],
    ['вчера', true, false],
  ])('%s (with time: %s) → %s', (value, withTime, expected) => {
    expect(isDateValue(value, withTime)).toBe(expected);
  });
});

describe('cursors', () => {
  const order: OrderKey = {
    name: 'title asc',
    sql: '??',
    bindings: [],
    dir: 'asc',
    nullable: false,
    text: true,
  };
  it('round-trip, and belong to one sort', () => {
    const n = { total: 1001, total_exact: false, total_estimate: 5000 };
    const text = encodeCursor({ o: 'title asc', k: 'Москва', i: 7, n });
    expect(decodeCursor(text, order)).toEqual({ o: 'title asc', k: 'Москва', i: 7, n });
    expect(() => decodeCursor(text, { ...order, name: 'title desc' })).toThrow(/устарела/);
    expect(() => decodeCursor('%%%', order)).toThrow(/устарела/);
  });
  it('point into the empty values only where a column has them', () => {
    const text = encodeCursor({ o: 'title asc', k: null, i: 7, n: { total: 3, total_exact: true } });
    expect(() => decodeCursor(text, order)).toThrow(/устарела/);
    expect(decodeCursor(text, { ...order, nullable: true }).k).toBeNull();
  });
});
