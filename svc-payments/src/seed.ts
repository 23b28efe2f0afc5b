import { identityOf, publishSeeded, type ServiceKit } from '@caravan/service-kit';
import { postMovements } from './domain/ledger';

/** Demo wallets for the demo clients (ids 1 and 2 in svc-orders). */
export async function seed(kit: ServiceKit) {
  await seedWallets(kit);
  await seedFinance(kit);
}

/** Demo balances arrive as top-ups (the ledger holds every ruble: Σ movements = balance). */
async function seedWallets(kit: ServiceKit) {
  const { db, log } = kit;
  const [{ n }] = (await db('wallet').count({ n: '*' })) as [{ n: string }];
  if (Number(n) > 0) return;
  const wallets = [
    {
      title: 'Основной',
      label: 'ООО «Ромашка»',
      client_id: 1,
      operator_id: 1,
      currency_id: 2,
      opening: '15000.00',
      options: { is_default: true },
    },
    {
      title: 'Юани',
      label: 'ООО «Ромашка»',
      client_id: 1,
      operator_id: 1,
      currency_id: 1,
      opening: '820.50',
      options: {},
    },
    {
      title: 'Основной',
      label: 'ИП Соколов',
      client_id: 2,
      operator_id: 2,
      currency_id: 2,
      opening: '3200.00',
      options: { is_default: true },
    },
  ];
  const identity = identityOf({ user_id: 1, fullname: 'демо-данные', roles: ['admin'] });
  const stores = {
    identity,
    outbox: kit.outbox,
    wallets: kit.registry.entities.get('wallet')!,
    operations: kit.registry.entities.get('fin_operation')!,
  };
  await db.transaction(async (trx) => {
    for (const { opening, ...wallet } of wallets) {
      const [{ id }] = (await trx('wallet')
        .insert({ ...wallet, amount: '0' })
        .returning('id')) as [{ id: number }];
      await postMovements(trx, stores, [
        {
          wallet_id: id,
          direction: 'in',
          amount: opening,
          cause: 'top_up',
          type: 'manual',
          comment: 'демо: начальный баланс',
        },
      ]);
    }
  });
  log.info('demo wallets seeded');
}

/** Days before today as 'YYYY-MM-DD'. */
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** Legal entities of operator 1 and clients 1, 2 with bank accounts; a week of exchange rates per operator. */
async function seedFinance(kit: ServiceKit) {
  const { db, log } = kit;
  const [{ n }] = (await db('legal_entity').count({ n: '*' })) as [{ n: string }];
  if (Number(n) > 0) return;
  await db.transaction(async (trx) => {
    await trx('legal_entity').insert([
      {
        id: 1,
        title: 'ООО «Восточный экспресс»',
        title_full: 'Общество с ограниченной ответственностью «Восточный экспресс»',
        type: 'company',
        inn: '7728041125',
        kpp: '772801001',
        director_name: 'Ли Вэй',
        accountant_name: 'Орлова Наталья Сергеевна',
        address: 'г Москва, Варшавское шоссе, д 26, помещ 4',
        operator_id: 1,
      },
      {
        id: 2,
        title: 'ООО «Ромашка»',
        title_full: 'Общество с ограниченной ответственностью «Ромашка»',
        type: 'company',
        inn: '7725012341',
        kpp: '772501001',
        director_name: 'Смирнова Ирина Викторовна',
        address: 'г Москва, ул Тверская, д 7, офис 12',
        client_id: 1,
      },
      {
        id: 3,
        title: 'ИП Соколов П. А.',
        title_full: 'Индивидуальный предприниматель Соколов Пётр Алексеевич',
        type: 'self',
        inn: '771234567859',
        director_name: 'Соколов Пётр Алексеевич',
        address: 'г Москва, Ленинградский пр-кт, д 39',
        client_id: 2,
      },
    ]);
    await trx.raw("select setval(pg_get_serial_sequence('legal_entity', 'id'), 3)");
    await trx('bank_account').insert([
      {
        title: 'Основной счёт в Сбербанке',
        legal_entity_id: 1,
        account_number: '40702810938000012345',
        bank_bik: '044525225',
        bank_account_number: '30101810400000000225',
        bank_title_full: 'ПАО Сбербанк',
        bank_title_short: 'СБЕРБАНК',
      },
      {
        title: 'Расчётный счёт в Альфа-Банке',
        legal_entity_id: 2,
        account_number: '40702810401300054321',
        bank_bik: '044525593',
        bank_account_number: '30101810200000000593',
        bank_title_full: 'АО «АЛЬФА-БАНК»',
        bank_title_short: 'АЛЬФА-БАНК',
      },
    ]);
    const rates = (operator_id: number | null, day: number, cny: number, usd: number) => ({
      date: daysAgo(day),
      operator_id,
      cbr_rate_cny: cny.toFixed(4),
      cbr_rate_usd: usd.toFixed(4),
      client_sell_rate_cny: (cny * 1.045).toFixed(4),
      client_sell_rate_usd: (usd * 1.04).toFixed(4),
      client_buy_rate_cny: (cny * 0.97).toFixed(4),
      client_buy_rate_usd: (usd * 0.975).toFixed(4),
      incoming_buy_rate_cny: (cny * 1.01).toFixed(4),
      incoming_buy_rate_usd: (usd * 1.01).toFixed(4),
      incoming_sell_rate_cny: (cny * 0.99).toFixed(4),
      incoming_sell_rate_usd: (usd * 0.99).toFixed(4),
    });
    const week = [6, 5, 4, 3, 2, 1, 0];
    await trx('exchange_rate').insert(
      [null, 1, 2].flatMap((operator) =>
        week.map((day) => rates(operator, day, 11.05 + (6 - day) * 0.02, 80.4 + (6 - day) * 0.15)),
      ),
    );
    await publishSeeded(kit, trx, ['exchange_rate', 'legal_entity', 'bank_account']);
  });
  log.info('demo legal entities, bank accounts and exchange rates seeded');
}
