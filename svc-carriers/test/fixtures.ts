import { COUNTRY, CURRENCY } from '@caravan/contracts';
import type { RunningService } from '@caravan/service-kit';
import type { Identity } from '@caravan/contracts';

/**
 * The countries the spec fixes by id (1 = China, 2 = Russia) in the shared test database, whichever
 * test file ran first and whatever it did with those ids (another file's country may hold id 1, or a
 * refused create may have used it up): written with their ids, and the id sequence moved past them.
 */
export async function specCountries(svc: RunningService, _admin: Identity) {
  for (const [id, title] of [
    [COUNTRY.CHINA, 'Китай'],
    [COUNTRY.RUSSIA, 'Россия'],
  ] as const)
    await svc.db('country').insert({ id, title }).onConflict('id').merge({ title, deleted: false });
  await svc.db.raw(
    "select setval(pg_get_serial_sequence('country', 'id'), greatest((select max(id) from country), 2))",
  );
  return { china: COUNTRY.CHINA as number, russia: COUNTRY.RUSSIA as number };
}

/** The currencies the spec fixes by id (1 = CNY, 2 = RUB, 3 = USD), written the same way. */
export async function specCurrencies(svc: RunningService) {
  for (const [id, title, symbol] of [
    [CURRENCY.CNY, 'CNY', '¥'],
    [CURRENCY.RUB, 'RUB', '₽'],
    [CURRENCY.USD, 'USD', '$'],
  ] as const)
    await svc
      .db('currency')
      .insert({ id, title, symbol })
      .onConflict('id')
      .merge({ title, symbol, deleted: false });
  await svc.db.raw(
    "select setval(pg_get_serial_sequence('currency', 'id'), greatest((select max(id) from currency), 3))",
  );
}
