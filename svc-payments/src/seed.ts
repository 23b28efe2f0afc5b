import type { Db, Logger } from '@caravan/service-kit';

/** Demo wallets for the demo clients (ids 1 and 2 in svc-orders). */
export async function seed(db: Db, log: Logger) {
  const [{ n }] = (await db('wallet').count({ n: '*' })) as [{ n: string }];
  if (Number(n) > 0) return;
  await db('wallet').insert([
    {
      title: 'Основной',
      label: 'ООО «Ромашка»',
      client_id: 1,
      operator_id: 1,
      currency_id: 2,
      amount: '15000.00',
      options: { is_default: true },
    },
    {
      title: 'Юани',
      label: 'ООО «Ромашка»',
      client_id: 1,
      operator_id: 1,
      currency_id: 1,
      amount: '820.50',
      options: {},
    },
    {
      title: 'Основной',
      label: 'ИП Соколов',
      client_id: 2,
      operator_id: 2,
      currency_id: 2,
      amount: '3200.00',
      options: { is_default: true },
    },
  ]);
  log.info('demo wallets seeded');
}
