import { z } from 'zod';
import { client, country, exchangeRate, logisticRoute, Money, operator } from './entities';
import { EventEnvelope } from './events';
import { ListParams } from './list';
import { describeIssues, fieldLabel, type FieldLabels } from './validation';

const issuesOf = (schema: z.ZodType, input: unknown, labels?: FieldLabels, language?: string) => {
  const r = schema.safeParse(input);
  if (r.success) throw new Error('expected a failure');
  return describeIssues(r.error.issues, input, labels, language);
};

const delivery = {
  title: 'дом',
  type: 'pvz',
  delivery_point_code: 'MSK1',
  contact_name: 'Иван',
  contact_phone: '+79161112233',
};

describe('describeIssues', () => {
  it('names an unknown field', () => {
    expect(issuesOf(country.fields, { title: 'Китай', titel: 'x' })).toBe("неизвестное поле 'titel'");
  });

  it('names fields by their labels, not by their internal names', () => {
    expect(issuesOf(logisticRoute.fields.pick({ from_city_id: true }), {}, logisticRoute)).toBe(
      "не заполнено поле 'город отправления'",
    );
    expect(issuesOf(country.fields, { title: 'x'.repeat(201) }, country)).toBe(
      "неверное значение поля 'название': не более 200 символов",
    );
  });

  it('names a field inside a list by the list, the row and the column', () => {
    const input = {
      title: 'Ромашка',
      delivery_data_list: [delivery, { ...delivery, city: 'x'.repeat(201) }],
    };
    expect(issuesOf(client.fields, input, client)).toBe(
      "неверное значение поля 'данные доставки №2: город': не более 200 символов",
    );
    expect(fieldLabel(['transport_company_data', 0, 'api_data', 'client_id'], operator)).toBe(
      'данные перевозчиков №1: ID клиента в API',
    );
    expect(fieldLabel(['working_hours', 'mon', 'from'], operator)).toBe('часы работы: понедельник: с');
  });

  it('says in plain words what is wrong: too long, too small, not a number, not a date', () => {
    const schema = z.strictObject({ n: z.number().int().min(1).max(365), days: z.number() });
    const labels = { labels: { n: 'срок', days: 'дни' } };
    expect(issuesOf(schema, { n: 0, days: 1 }, labels)).toBe("неверное значение поля 'срок': не меньше 1");
    expect(issuesOf(schema, { n: 400, days: 1 }, labels)).toBe(
      "неверное значение поля 'срок': не больше 365",
    );
    expect(issuesOf(schema, { n: 1.5, days: 1 }, labels)).toBe(
      "неверное значение поля 'срок': ожидается целое число",
    );
    expect(issuesOf(schema, { n: 1, days: 'abc' }, labels)).toBe(
      "неверное значение поля 'дни': ожидается число",
    );
    expect(issuesOf(exchangeRate.fields.pick({ date: true }), { date: '2026-02-31' }, exchangeRate)).toBe(
      "неверное значение поля 'дата': ожидается дата ДД-ММ-ГГГГ между 1900 и 2050 годом",
    );
    expect(issuesOf(ListParams, { per_page: 'ten' })).toBe(
      "неверное значение поля 'per_page': ожидается число",
    );
  });

  it('gives one message per field, the first thing wrong with it', () => {
    const rates = exchangeRate.fields.pick({ cbr_rate_cny: true });
    expect(issuesOf(rates, { cbr_rate_cny: 'abc' }, exchangeRate)).toBe(
      "неверное значение поля 'курс ЦБ, ¥': ожидается число с не более чем 4 знаками после запятой",
    );
    expect(issuesOf(rates, { cbr_rate_cny: '99999999999999999' }, exchangeRate)).toBe(
      "неверное значение поля 'курс ЦБ, ¥': слишком большое число: не более 10 цифр до запятой",
    );
    expect(issuesOf(z.object({ amount: Money }), { amount: '1234567890123.5' })).toBe(
      "неверное значение поля 'amount': слишком большое число: не более 12 цифр до запятой",
    );
    expect(issuesOf(rates, { cbr_rate_cny: true }, exchangeRate)).toBe(
      "неверное значение поля 'курс ЦБ, ¥': ожидается число",
    );
  });

  it("keeps the spec's messages and a schema's own words as they are", () => {
    const input = { title: 'Ромашка', delivery_data_list: [{ ...delivery, title: ' ' }] };
    expect(issuesOf(client.fields, input, client)).toBe("не заполнено поле 'название'");
    expect(issuesOf(z.object({ id: z.number() }), {})).toBe("не заполнено поле 'id'");
  });

  it('speaks English when asked', () => {
    expect(issuesOf(country.fields, { title: '' }, { labels: { title: 'title' } }, 'en')).toBe(
      "the field 'title' is empty",
    );
    expect(issuesOf(country.fields, { title: 'x'.repeat(201) }, { labels: { title: 'title' } }, 'en')).toBe(
      "wrong value of the field 'title': at most 200 characters",
    );
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
    // a number with more decimals is refused, not rounded (1.005 would become 1.00)
    expect(Money.safeParse(1.005).success).toBe(false);
    expect(Money.parse(12.5)).toBe('12.50');
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
