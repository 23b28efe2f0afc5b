import type { Db, Logger } from '@caravan/service-kit';

/** Demo clients; ids 1 and 2 are linked to the demo client users by the gateway seed. */
export async function seed(db: Db, log: Logger) {
  const [{ n }] = (await db('client').count({ n: '*' })) as [{ n: string }];
  if (Number(n) > 0) return;
  await db('client').insert([
    { title: 'ООО «Ромашка»', type: 'company' },
    { title: 'ИП Соколов', type: 'self' },
    { title: 'Анна Петрова', type: 'self' },
  ]);
  log.info('demo clients seeded');
}
