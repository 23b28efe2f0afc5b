import type { Identity, Role } from '@caravan/contracts';
import { eventually, identityOf, type RunningService } from '@caravan/service-kit';
import { startGateway } from '../../gateway/src/app';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/**
 * Users as the product makes them: a real gateway on the test database and topics creates each user
 * and their link to a client or an operator (an admin's calls), and publishes them; svc-orders
 * replicates them (docs/adr/0023). Each person's identity is what the gateway would sign for them.
 */
export async function startPeople(orders: RunningService, topicPrefix: string) {
  const gateway = await startGateway({
    ...process.env,
    PORT: '0',
    KAFKA_TOPIC_PREFIX: topicPrefix,
    SERVICE_URL_ORDERS: orders.url,
    SEED_DEMO: 'false',
  });
  try {
    return await peopleOf(gateway, orders);
  } catch (err) {
    await gateway.stop();
    throw err;
  }
}

async function peopleOf(gateway: Awaited<ReturnType<typeof startGateway>>, orders: RunningService) {
  await gateway.busReady;
  const call = async (token: string, method: string, params: unknown) => {
    const res = await fetch(`${gateway.url}/api/call_pg_func`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'auth-token': token },
      body: JSON.stringify({ method, params }),
    });
    const reply = (await res.json()) as { ok: boolean; result: Any; message?: string };
    if (!reply.ok) throw new Error(`${method}: ${reply.message}`);
    return reply.result;
  };
  const login = await fetch(`${gateway.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: 'admin@caravan.local', password: 'caravan-admin' }),
  });
  const { result: session } = (await login.json()) as { result: { token: string; user: { id: number } } };
  const adminToken = session.token;

  let made = 0;
  /** A working user with one role, linked to a client or an operator, known to svc-orders' replica. */
  async function person(
    name: [first: string, last: string],
    role: Role,
    link?: { client_id?: number; operator_id?: number },
  ): Promise<Identity> {
    // as a registration leaves them (waiting for an admin), then the admin lets them in: published
    const [registered] = await gateway
      .db('user_table')
      .insert({
        email: `user${++made}-${Date.now()}@people.caravan.test`,
        first_name: name[0],
        last_name: name[1],
        password_hash: 'not-a-hash: this user never signs in',
        state: 'waiting_auth',
        email_confirmed_at: new Date(),
      })
      .returning('id');
    const user = await call(adminToken, 'user_update', {
      id: registered.id,
      roles: [role],
      state: 'working',
    });
    const linkEntity = link?.client_id ? 'client_user_link' : link?.operator_id ? 'operator_user_link' : null;
    const linkId = linkEntity
      ? (await call(adminToken, `${linkEntity}_update`, { id: -1, ...link, user_table_id: user.id })).id
      : null;
    await eventually(`${name.join(' ')} in svc-orders`, async () => {
      const known = await orders.db('replica').where({ entity: 'user', id: user.id }).first();
      const linked = linkEntity
        ? await orders.db('replica').where({ entity: linkEntity, id: linkId }).first()
        : true;
      return known && linked;
    });
    return identityOf({
      user_id: user.id,
      roles: [role],
      fullname: name.join(' '),
      client_ids: link?.client_id ? [link.client_id] : [],
      operator_ids: link?.operator_id ? [link.operator_id] : [],
    });
  }

  // the seeded admin was published on the topics of whichever run made the database: this file's own
  const admin = await person(['Анна', 'Админова'], 'admin');
  return { gateway, admin, person, stop: () => gateway.stop() };
}
