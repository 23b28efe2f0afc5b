import type { Db, Logger } from '@caravan/service-kit';
import { hashPassword } from './domain/passwords';

type SeedUser = {
  email: string;
  first_name: string;
  last_name: string;
  roles: string[];
  state: string;
  client_id?: number;
  operator_id?: number;
};

async function ensureUser(db: Db, user: SeedUser, password: string): Promise<boolean> {
  const exists = await db('user_table').whereRaw('lower(email) = ?', [user.email]).first();
  if (exists) return false;
  const { client_id, operator_id, ...fields } = user;
  const [row] = await db('user_table')
    .insert({ ...fields, password_hash: await hashPassword(password), email_confirmed_at: db.fn.now() })
    .returning('id');
  if (client_id) await db('client_user_link').insert({ client_id, user_table_id: row.id });
  if (operator_id) await db('operator_user_link').insert({ operator_id, user_table_id: row.id });
  return true;
}

/** The admin always exists; demo users (operator, clients, a waiting one) only with SEED_DEMO. */
export async function seedUsers(
  db: Db,
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
  if (await ensureUser(db, admin, o.adminPassword)) log.info({ email: o.adminEmail }, 'admin seeded');
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
  for (const user of demo) await ensureUser(db, user, o.demoPassword);
}
