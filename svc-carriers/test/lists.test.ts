import { LIST_COUNT_CAP } from '@caravan/contracts';
import { callService, identityOf, startService, type RunningService } from '@caravan/service-kit';
import { carriersService } from '../src/app';
import { specCountries } from './fixtures';

/**
 * The generic list at scale (ADR 0005): seek paging returns every row exactly once under every sort,
 * search walks the trigram indexes, text sorts case-insensitively with Cyrillic first, counts are
 * honest past the cap, and a filter that cannot apply is refused in words.
 */
const admin = identityOf({ user_id: 1, roles: ['admin'], fullname: 'Администратор' });
let svc: RunningService;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
type Reply = { ok: boolean; result: Any; message?: string };

const call = async (method: string, params: unknown) => {
  const { status, body } = await callService(svc.url, method, params, admin);
  expect(status).toBe(200);
  return body as Reply;
};
const sql = async <T = Any>(text: string, bindings: unknown[] = []) =>
  ((await svc.db.raw(text, bindings as never)) as { rows: T[] }).rows;

/** Follows next_cursor from the first page to the end, collecting ids. */
async function walk(method: string, params: Record<string, unknown>) {
  const ids: number[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 200; pages++) {
    const reply = await call(method, { ...params, ...(cursor ? { cursor } : {}) });
    if (!reply.ok) throw new Error(reply.message);
    ids.push(...reply.result.items.map((r: { id: number }) => r.id));
    cursor = reply.result.next_cursor ?? undefined;
    if (!cursor) return ids;
  }
  throw new Error('the cursor never ended');
}

let countries: number[];
let operators: number[];

beforeAll(async () => {
  svc = await startService(carriersService());
  await specCountries(svc, admin);
  // three countries whose titles tie in case only and sort Cyrillic before Latin
  countries = (
    await sql<{ id: number }>(
      `insert into country (title) values ('Ливия'), ('ливия'), ('Zambia') returning id`,
    )
  ).map((r) => r.id);
  // 120 cities: repeated titles (ties), one timestamp for all (ties), mixed case and scripts
  await sql(
    `insert into city (title, title_en, country_id)
     select (array['ZZ лист', 'zz лист', 'Москва лист', 'москва лист', 'abc лист', 'Ёлки лист'])[1 + g % 6],
            'Listed ' || g, (?::bigint[])[1 + g % 3]
       from generate_series(1, 120) g`,
    [countries],
  );
  // operators with empty (null) phones and tax types among repeated values
  operators = (
    await sql<{ id: number }>(
      `insert into operator (title, phone, tax_type, tax_rate, comment)
       select 'Оператор списка ' || g, case when g % 3 = 0 then null else '+7900000000' || (g % 4) end,
              case when g % 4 = 0 then null else (array['osn', 'usn'])[1 + g % 2] end, (g % 5)::numeric, 'listed'
         from generate_series(1, 40) g returning id`,
    )
  ).map((r) => r.id);
  const [currency] = await sql<{ id: number }>(`insert into currency (title) values ('LST') returning id`);
  const warehouses = (
    await sql<{ id: number }>(
      `insert into warehouse_point (title, type, city_id)
       select 'Склад списка ' || g, 'provider', (select min(id) from city where country_id = ?)
         from generate_series(1, 3) g returning id`,
      [countries[0]],
    )
  ).map((r) => r.id);
  // extra services: the warehouse's title (computed, a title key) is empty for every third
  await sql(
    `insert into extra_service (title, type, operator_id, warehouse_point_id, client_price_currency_id,
                                cost_price_currency_id, comment)
     select 'Услуга списка ' || g, 'package', ?, case when g % 3 = 0 then null else (?::bigint[])[1 + g % 3] end, ?, ?, 'listed'
       from generate_series(1, 30) g`,
    [operators[0], warehouses, currency!.id, currency!.id],
  );
});
afterAll(() => svc?.stop());

const cityFilter = () => ({ where_param: [{ field: 'country_id', op: 'in', value: countries }] });

describe('seek paging', () => {
  const citySorts: [string, string][] = [
    ['created_at desc', 'created_at desc, id desc'],
    ['title asc', 'title collate caravan_sort, id'],
    ['title desc', 'title collate caravan_sort desc, id desc'],
    ['country_title asc', 'country_title collate caravan_sort, id'],
    ['country_title desc', 'country_title collate caravan_sort desc, id desc'],
    ['id asc', 'id'],
  ];
  it.each(citySorts)('returns every city exactly once, in order, sorted by %s', async (orderBy, order) => {
    const ids = await walk('city_list', { ...cityFilter(), order_by: orderBy, per_page: 7 });
    const expected = await sql<{ id: number }>(
      `select id from city where not deleted and country_id = any(?::bigint[]) order by ${order}`,
      [countries],
    );
    expect(ids).toEqual(expected.map((r) => r.id));
  });

  const operatorSorts: [string, string][] = [
    ['phone asc', 'phone collate caravan_sort nulls last, id'],
    ['phone desc', 'phone collate caravan_sort desc nulls last, id desc'],
    ['tax_type asc', 'tax_type collate caravan_sort nulls last, id'],
    ['tax_rate desc', 'tax_rate desc nulls last, id desc'],
  ];
  it.each(operatorSorts)('keeps empty values last and ties by id, sorted by %s', async (orderBy, order) => {
    const params = { where_param: [{ field: 'comment', op: '=', value: 'listed' }] };
    const ids = await walk('operator_list', { ...params, order_by: orderBy, per_page: 6 });
    const expected = await sql<{ id: number }>(
      `select id from operator where not deleted and comment = 'listed' order by ${order}`,
    );
    expect(ids).toEqual(expected.map((r) => r.id));
  });

  it.each([
    ['warehouse_point_title asc', 'warehouse_point_title collate caravan_sort nulls last, id'],
    ['warehouse_point_title desc', 'warehouse_point_title collate caravan_sort desc nulls last, id desc'],
  ])('pages through a computed reference title with empty ones, sorted by %s', async (orderBy, order) => {
    const params = { where_param: [{ field: 'comment', op: '=', value: 'listed' }] };
    const ids = await walk('extra_service_list', { ...params, order_by: orderBy, per_page: 4 });
    const expected = await sql<{ id: number }>(
      `select id from extra_service where comment = 'listed' order by ${order}`,
    );
    expect(ids).toHaveLength(30);
    expect(ids).toEqual(expected.map((r) => r.id));
  });

  it('keeps `page` for old callers and hands them a cursor to go on with', async () => {
    const all = await walk('city_list', { ...cityFilter(), order_by: 'title asc', per_page: 10 });
    const third = await call('city_list', { ...cityFilter(), order_by: 'title asc', page: 3 });
    expect(third.result.items.map((r: { id: number }) => r.id)).toEqual(all.slice(20, 30));
    const fourth = await call('city_list', {
      ...cityFilter(),
      order_by: 'title asc',
      cursor: third.result.next_cursor,
    });
    expect(fourth.result.items.map((r: { id: number }) => r.id)).toEqual(all.slice(30, 40));
  });

  it('refuses a cursor of another sort, or a forged one, in words', async () => {
    const first = await call('city_list', { ...cityFilter(), order_by: 'title asc' });
    const message = 'ссылка на следующую страницу списка устарела: откройте список заново';
    expect(
      await call('city_list', { ...cityFilter(), order_by: 'title desc', cursor: first.result.next_cursor }),
    ).toMatchObject({ ok: false, message });
    expect(await call('city_list', { cursor: 'not a cursor' })).toMatchObject({ ok: false, message });
  });

  it('sorts text case-insensitively, Cyrillic before Latin: ZZ never before Москва', async () => {
    const reply = await call('city_list', { ...cityFilter(), order_by: 'title asc', per_page: 200 });
    const titles: string[] = [
      ...new Set(reply.result.items.map((c: { title: string }) => c.title)),
    ] as string[];
    expect(titles.indexOf('Москва лист')).toBeLessThan(titles.indexOf('ZZ лист'));
    expect(titles.indexOf('Ёлки лист')).toBeLessThan(titles.indexOf('Москва лист'));
    expect(Math.abs(titles.indexOf('zz лист') - titles.indexOf('ZZ лист'))).toBe(1);
    expect(Math.abs(titles.indexOf('москва лист') - titles.indexOf('Москва лист'))).toBe(1);
  });

  it('follows a renamed reference: the title key of its rows changes with it', async () => {
    await call('country_update', { id: countries[2], title: 'Ангола' });
    const reply = await call('city_list', { ...cityFilter(), order_by: 'country_title asc', per_page: 1 });
    expect(reply.result.items[0].country_title).toBe('Ангола');
    await call('country_update', { id: countries[2], title: 'Zambia' });
  });
});

describe('filters the columns cannot answer', () => {
  const refused = async (condition: Record<string, unknown>, message: string) => {
    expect(await call('city_list', { where_param: [condition] })).toMatchObject({ ok: false, message });
  };

  it('names the list parameters and a condition’s parts by words, not by their internal names', async () => {
    expect(await call('city_list', { per_page: 'десять' })).toMatchObject({
      ok: false,
      message: "неверное значение поля 'строк на странице': ожидается число",
    });
    expect(await call('city_list', { where_param: [{ field: 'title', op: 'похоже' }] })).toMatchObject({
      ok: false,
      message: expect.stringContaining("'условие №1: сравнение'"),
    });
    expect(await call('city_list', { filters: { title: ['Москва'] } })).toMatchObject({
      ok: false,
      message: expect.stringContaining("'фильтр: название'"),
    });
  });

  it("says 'contains' needs a list field, naming the field by its label (not a 500)", async () => {
    await refused(
      { field: 'title', op: 'contains', value: 'Москва' },
      "условие 'contains' применимо только к полям-спискам, а 'название' — не список",
    );
    expect(
      await call('operator_list', { where_param: [{ field: 'working_hours', op: 'contains', value: 1 }] }),
    ).toMatchObject({ ok: false });
  });

  it('refuses a word for a number, a day that does not exist and a comparison on a list', async () => {
    await refused(
      { field: 'country_id', op: '>', value: 'abc' },
      "для условия '>' по полю 'страна' нужно число",
    );
    await refused(
      { field: 'country_id', op: 'in', value: [1, 'два'] },
      "для условия 'in' по полю 'страна' нужно число",
    );
    await refused(
      { field: 'created_at', op: '>', value: '2026-02-31' },
      "для условия '>' по полю 'создан' нужна дата (ГГГГ-ММ-ДД, можно со временем ЧЧ:мм)",
    );
    await refused(
      { field: 'deleted', op: '=', value: 'может быть' },
      "для условия '=' по полю 'удалена' нужно да или нет (true / false)",
    );
    expect(
      await call('logistic_route_list', {
        where_param: [{ field: 'warehouse_point_id', op: '=', value: 1 }],
      }),
    ).toMatchObject({
      ok: false,
      message: "условие '=' не применимо к полю-списку 'склады': используйте 'contains'",
    });
    expect(
      await call('operator_list', { where_param: [{ field: 'client_list', op: '>', value: 1 }] }),
    ).toMatchObject({ ok: false });
  });
});

describe('at a size where it matters', () => {
  let bulk: number;
  beforeAll(async () => {
    const [country] = await sql<{ id: number }>(
      `insert into country (title) values ('Массивия') returning id`,
    );
    bulk = country!.id;
    // 60,000 cities named like real ones (made-up words of three syllables, a number): enough that
    // the planner prefers an index to reading the table
    await sql(
      `insert into city (title, title_en, country_id)
       select initcap(s[1 + g % 20] || s[1 + g / 20 % 20] || s[1 + g / 400 % 20]) || ' ' || g, 'Bulk ' || g, ?
         from generate_series(1, 60000) g,
              (select array['ка','ми','ра','но','во','ло','гор','ск','тан','бе','ре','за','ду','лин','ос','ен','ар','ти','пол','ви'] s) v`,
      [bulk],
    );
    // as autovacuum would after a bulk load: merges the trigram indexes' pending lists, gathers statistics
    await sql('vacuum analyze city');
  }, 60_000);

  it('searches through the trigram index, not a scan of the table', async () => {
    const [target] = await sql<{ title: string }>(
      // a five-digit number: no other title contains it (a four-digit one is inside e.g. 'Карака 40040')
      `select title from city where country_id = ? and title ~ ' [0-9]{5}$' order by id limit 1`,
      [bulk],
    );
    const word = target!.title;
    const queries: { sql: string; bindings: unknown[] }[] = [];
    const listen = (q: { sql: string; bindings: unknown[] }) => queries.push(q);
    svc.db.on('query', listen);
    const reply = await call('city_list', { search: word });
    svc.db.off('query', listen);
    expect(reply.result.items.map((c: { title: string }) => c.title)).toEqual([target!.title]);
    // the page's query as the service sent it (native $n placeholders), explained on its connection
    const page = queries.find((q) => q.sql.includes('__seg'))!;
    type Conn = { query(sql: string, values: unknown[]): Promise<{ rows: { 'QUERY PLAN': string }[] }> };
    const conn = (await svc.db.client.acquireConnection()) as Conn;
    const plan = (await conn.query(`explain ${page.sql}`, page.bindings)).rows.map((r) => r['QUERY PLAN']);
    await svc.db.client.releaseConnection(conn);
    expect(plan.join('\n')).toMatch(/Bitmap Index Scan on city_title_trgm/);
    expect(plan.join('\n')).not.toMatch(/Seq Scan on city/);
  });

  it('counts exactly up to the cap, then says "more than" with an estimate', async () => {
    const few = await call('city_list', cityFilter());
    expect(few.result).toMatchObject({ total: 120, total_exact: true });
    const many = await call('city_list', { country_id: bulk });
    expect(many.result).toMatchObject({ total: LIST_COUNT_CAP + 1, total_exact: false });
    expect(many.result.total_estimate).toBeGreaterThan(20_000);
  });
});
