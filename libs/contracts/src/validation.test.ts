import { z } from 'zod';
import { country, Money } from './entities';
import { EventEnvelope } from './events';
import { ListParams } from './list';
import { describeIssues } from './validation';

const issuesOf = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  if (r.success) throw new Error('expected a failure');
  return describeIssues(r.error.issues, input);
};

describe('describeIssues', () => {
  it('names an unknown field', () => {
    expect(issuesOf(country.fields, { title: 'Китай', titel: 'x' })).toBe("неизвестное поле 'titel'");
  });

  it('tells a missing field from a wrong one', () => {
    expect(issuesOf(ListParams, { per_page: 'ten' })).toBe(
      "неверное значение поля 'per_page': Неверный ввод: ожидалось число, получено string",
    );
    expect(issuesOf(z.object({ id: z.number() }), {})).toBe("не заполнено поле 'id'");
  });
});

describe('ListParams', () => {
  it('defaults to the first page of 10, newest first, without deleted rows', () => {
    expect(ListParams.parse({})).toMatchObject({
      page: 1,
      per_page: 10,
      deleted: false,
      order_by: 'created_at desc',
    });
  });

  it('refuses SQL in order_by and unknown operators in where_param', () => {
    expect(ListParams.safeParse({ order_by: 'id; drop table client' }).success).toBe(false);
    expect(ListParams.safeParse({ where_param: [{ field: 'id', op: 'or 1=1', value: 1 }] }).success).toBe(
      false,
    );
  });
});

describe('Money', () => {
  it('keeps amounts as decimal strings with at most two decimals', () => {
    expect(Money.parse(10)).toBe('10.00');
    expect(Money.parse(' 1234.5 ')).toBe('1234.5');
    expect(Money.safeParse('12.345').success).toBe(false);
    expect(Money.safeParse('1e5').success).toBe(false);
  });
});

describe('EventEnvelope', () => {
  const valid = {
    id: '6f1c1f53-4e0a-4a8e-9f0a-2b7a3f9d2c11',
    type: 'entity.changed',
    version: 1,
    occurred_at: '2026-11-22T10:00:00.000Z',
    source: 'svc-carriers',
    key: '4',
    actor: 1,
    data: {},
  };
  it('accepts a complete envelope and rejects one without an id', () => {
    expect(EventEnvelope.safeParse(valid).success).toBe(true);
    expect(EventEnvelope.safeParse({ ...valid, id: 'not-a-uuid' }).success).toBe(false);
  });
});
