import type { Db, Logger } from '@caravan/service-kit';

/** Demo reference data. Ids are fixed by the spec (country 1 = China, 2 = Russia; currency 1 CNY, 2 RUB, 3 USD). */
export async function seed(db: Db, log: Logger) {
  const [{ n }] = (await db('country').count({ n: '*' })) as [{ n: string }];
  if (Number(n) > 0) return;
  await db.transaction(async (trx) => {
    await trx.raw(
      'insert into country (id, title, title_en, title_ru) overriding system value values ' +
        "(1, 'Китай', 'China', 'Китай'), (2, 'Россия', 'Russia', 'Россия'), (3, 'Казахстан', 'Kazakhstan', 'Казахстан')",
    );
    await trx.raw("select setval(pg_get_serial_sequence('country', 'id'), 3)");
    await trx.raw(
      'insert into currency (id, title, symbol) overriding system value values ' +
        "(1, 'CNY', '¥'), (2, 'RUB', '₽'), (3, 'USD', '$')",
    );
    await trx.raw("select setval(pg_get_serial_sequence('currency', 'id'), 3)");
  });
  log.info('demo reference data seeded');
}
