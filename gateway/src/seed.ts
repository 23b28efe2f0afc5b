import { EVENT_TYPES, IDENTITY_TOPIC, type EntityChanged } from '@caravan/contracts';
import type { Db, Logger, Outbox } from '@caravan/service-kit';
import { hashPassword } from './domain/passwords';
import { userEventRow } from './procedures/user';

type SeedUser = {
  email: string;
  first_name: string;
  last_name: string;
  roles: string[];
  state: string;
  client_id?: number;
  operator_id?: number;
};

/** The entity-changed event the admin's own write would publish: the services keep these users and links as replicas. */
const created = (entity: string, row: Record<string, unknown> & { id: number }) => {
  const data: EntityChanged = { entity, id: row.id, op: 'created', row: JSON.parse(JSON.stringify(row)) };
  return { topic: IDENTITY_TOPIC, key: row.id, type: EVENT_TYPES.entityChanged, actor: null, data };
};

async function ensureUser(db: Db, outbox: Outbox, user: SeedUser, password: string): Promise<boolean> {
  const exists = await db('user_table').whereRaw('lower(email) = ?', [user.email]).first();
  if (exists) return false;
  const { client_id, operator_id, ...fields } = user;
  const password_hash = await hashPassword(password);
  await db.transaction(async (trx) => {
    const [row] = await trx('user_table')
      .insert({ ...fields, password_hash, email_confirmed_at: trx.fn.now() })
      .returning('*');
    await outbox.write(trx, created('user', userEventRow(row)));
    const links = [
      ['client_user_link', { client_id }],
      ['operator_user_link', { operator_id }],
    ] as const;
    for (const [table, owner] of links) {
      if (!Object.values(owner)[0]) continue;
      const [link] = await trx(table)
        .insert({ ...owner, user_table_id: row.id })
        .returning('*');
      await outbox.write(trx, created(table, link));
    }
  });
  return true;
}

/** The admin always exists; demo users (operator, clients, a waiting one) only with SEED_DEMO. */
export async function seedUsers(
  db: Db,
  outbox: Outbox,
  log: Logger,
  o: { adminEmail: string; adminPassword: string; demo: boolean; demoPassword: string },
) {
  const admin = {
    email: o.adminEmail,
    first_name: 'Администратор',
    last_name: '',
    roles: ['admin'],
    state: 'working',
  };
  if (await ensureUser(db, outbox, admin, o.adminPassword)) log.info({ email: o.adminEmail }, 'admin seeded');
  if (!o.demo) return;
  const demo: SeedUser[] = [
    {
      email: 'operator@caravan.local',
      first_name: 'Ли',
      last_name: 'Вэй',
      roles: ['operator'],
      state: 'working',
      operator_id: 1,
    },
    {
      email: 'client@caravan.local',
      first_name: 'Ирина',
      last_name: 'Смирнова',
      roles: ['client'],
      state: 'working',
      client_id: 1,
    },
    {
      email: 'client2@caravan.local',
      first_name: 'Пётр',
      last_name: 'Соколов',
      roles: ['client'],
      state: 'working',
      client_id: 2,
    },
    {
      email: 'operator2@caravan.local',
      first_name: 'Чжан',
      last_name: 'Мин',
      roles: ['operator'],
      state: 'working',
      operator_id: 2,
    },
    {
      email: 'client3@caravan.local',
      first_name: 'Анна',
      last_name: 'Петрова',
      roles: ['client'],
      state: 'working',
      client_id: 3,
    },
    {
      email: 'waiting@caravan.local',
      first_name: 'Ожидающий',
      last_name: 'Пользователь',
      roles: ['client'],
      state: 'waiting_auth',
    },
  ];
  for (const user of demo) await ensureUser(db, outbox, user, o.demoPassword);
}
