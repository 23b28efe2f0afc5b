import { COUNTRY } from '@caravan/contracts';
import { callService, type RunningService } from '@caravan/service-kit';
import type { Identity } from '@caravan/contracts';

/**
 * The countries the spec fixes by id (1 = China, 2 = Russia) in the shared test database, whichever
 * test file runs first: created when missing.
 */
export async function specCountries(svc: RunningService, admin: Identity) {
  const reply = await callService(
    svc.url,
    'country_list',
    { where_param: [{ field: 'id', op: 'in', value: [1, 2] }] },
    admin,
  );
  const found = (reply.body.result as { items: { id: number }[] }).items.map((c) => c.id);
  for (const [id, title] of [
    [COUNTRY.CHINA, 'Китай'],
    [COUNTRY.RUSSIA, 'Россия'],
  ] as const)
    if (!found.includes(id)) {
      const created = await callService(svc.url, 'country_update', { id: -1, title }, admin);
      if ((created.body.result as { id: number }).id !== id)
        throw new Error(
          `country ${title} got another id than the spec's ${id}: the test database is not fresh`,
        );
    }
  return { china: COUNTRY.CHINA as number, russia: COUNTRY.RUSSIA as number };
}
