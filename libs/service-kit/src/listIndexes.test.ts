import { city, extraService, logisticRoute, operator, wallet } from '@caravan/contracts';
import {
  defaultTitleKeys,
  pgName,
  searchIndexStatement,
  sortIndexStatement,
  titleKeyStatements,
} from './listIndexes';

describe('list indexes derived from the contracts', () => {
  it('keeps the title of every labelled scalar reference as a sort key', () => {
    expect(defaultTitleKeys({ contract: city })).toEqual({
      country_title: { column: 'country_id', target: 'country' },
    });
    expect(Object.keys(defaultTitleKeys({ contract: extraService })).sort()).toEqual([
      'operator_title',
      'package_description_title',
      'warehouse_point_title',
    ]);
    expect(defaultTitleKeys({ contract: logisticRoute })).toMatchObject({
      from_city_title: { column: 'from_city_id', target: 'city' },
    });
    // lists of references (an operator's legal entities) are not sort keys
    expect(Object.keys(defaultTitleKeys({ contract: operator }))).not.toContain('legal_entity_title');
    expect(
      defaultTitleKeys({ contract: wallet, titles: { x_title: { column: 'x', target: 'y' } } }),
    ).toMatchObject({ x_title: { column: 'x', target: 'y' } });
  });

  it('sorts text in the schema collation, with the id as the tie-breaker, and searches by trigrams', () => {
    expect(sortIndexStatement('carriers', 'city', 'title', true)).toBe(
      'create index if not exists "city_title_sort" on "carriers"."city" ("title" collate "carriers".caravan_sort, id)',
    );
    expect(sortIndexStatement('carriers', 'city', 'created_at', false)).toContain('("created_at", id)');
    expect(searchIndexStatement('carriers', 'city', 'title')).toContain(
      'using gin ("title" public.gin_trgm_ops)',
    );
  });

  it('keeps a title key by triggers on both tables', () => {
    const sql = titleKeyStatements('carriers', 'city', 'country_title', {
      column: 'country_id',
      target: 'country',
    });
    expect(sql.join('\n')).toMatch(/before insert or update of "country_id" on "carriers"."city"/);
    expect(sql.join('\n')).toMatch(/after update of "title" on "carriers"."country"/);
  });

  it('never lets PostgreSQL cut two long names into one', () => {
    const a = pgName('logistic_route_logistic_product_type_link', 'logistic_product_type_id', 'sort');
    const b = pgName('logistic_route_logistic_product_type_link', 'logistic_product_type_id', 'trgm');
    expect(a.length).toBeLessThanOrEqual(63);
    expect(a).not.toBe(b);
    expect(pgName('city', 'title', 'sort')).toBe('city_title_sort');
  });
});
