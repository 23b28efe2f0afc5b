import { EVENT_TYPES, IDENTITY_HEADER, IDENTITY_TOPIC, type Identity } from '@caravan/contracts';
import {
  callService,
  DEV_IDENTITY_SECRET,
  eventually,
  identityOf,
  signIdentity,
  startService,
  type RunningService,
} from '@caravan/service-kit';
import { carriersService } from '../../svc-carriers/src/app';
import { specCountries } from '../../svc-carriers/test/fixtures';
import { ordersService } from '../src/app';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Any = any;
export type Reply = { ok: boolean; result: Any; message?: string };

export const admin = identityOf({ user_id: 1, roles: ['admin'] });
export const refused = (message: string) => ({ ok: false, result: null, message });

/**
 * Two services on the test database with their own topics: carriers (operators, routes, product types
 * replicated into orders) and orders; two clients, two operators, a route carrying toys.
 */
export async function ordersWorld(topicPrefix: string, extraEnv: Record<string, string> = {}) {
  const env = {
    ...process.env,
    KAFKA_TOPIC_PREFIX: `${process.env.KAFKA_TOPIC_PREFIX ?? ''}${topicPrefix}-`,
    ...extraEnv,
  };
  const [carriers, orders] = await Promise.all([
    startService(carriersService(env)),
    startService(ordersService(env)),
  ]);
  await Promise.all([carriers.bus.ready, orders.bus.ready]);
  const create = async (
    svc: RunningService,
    entity: string,
    fields: Record<string, unknown>,
    who = admin,
  ) => {
    const reply = (await callService(svc.url, `${entity}_update`, { id: -1, ...fields }, who)).body as Reply;
    if (!reply.ok) throw new Error(`${entity}: ${reply.message}`);
    return reply.result as Any;
  };
  const clientA = await create(orders, 'client', { title: 'ООО «Ромашка»', type: 'company' });
  const clientB = await create(orders, 'client', { title: 'ИП Соколов' });
  const { china } = await specCountries(carriers, admin);
  const from = await create(carriers, 'city', { title: 'Иу', country_id: china });
  const opA = await create(carriers, 'operator', {
    title: 'Восточный экспресс',
    client_list: [{ id: clientA.id }],
  });
  const opB = await create(carriers, 'operator', {
    title: 'Шёлковый путь',
    client_list: [{ id: clientA.id }, { id: clientB.id }],
  });
  const toys = await create(carriers, 'logistic_product_type', { title: 'Игрушки' });
  const shoes = await create(carriers, 'logistic_product_type', { title: 'Обувь' });
  const route = await create(carriers, 'logistic_route', {
    title: 'Авиа Иу — Москва',
    type: 'plane',
    operator_id: opA.id,
    from_city_id: from.id,
  });
  const link = await create(carriers, 'logistic_route_logistic_product_type_link', {
    logistic_route_id: route.id,
    logistic_product_type_id: toys.id,
  });
  await eventually('the replicas', async () => {
    const rows = await orders
      .db('replica')
      .where((q) =>
        q
          .where({ entity: 'operator' })
          .whereIn('id', [opA.id, opB.id])
          .orWhere({ entity: 'logistic_route_logistic_product_type_link', id: link.id })
          .orWhere({ entity: 'logistic_product_type', id: shoes.id }),
      );
    return rows.length === 4;
  });
  const users = {
    clientA: identityOf({ user_id: 501, roles: ['client'], client_ids: [clientA.id] }),
    clientB: identityOf({ user_id: 502, roles: ['client'], client_ids: [clientB.id] }),
    operatorA: identityOf({ user_id: 503, roles: ['operator'], operator_ids: [opA.id] }),
    operatorB: identityOf({ user_id: 504, roles: ['operator'], operator_ids: [opB.id] }),
  };
  const call = async (method: string, params: unknown, who: Identity = admin) =>
    (await callService(orders.url, method, params, who)).body as Reply;
  /** A multipart POST to one of the service's HTTP paths, as the gateway forwards it. */
  const upload = async (
    path: string,
    file: [Buffer, string] | null,
    fields: Record<string, string>,
    who: Identity,
  ) => {
    const form = new FormData();
    if (file) form.append('file', new Blob([new Uint8Array(file[0])]), file[1]);
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    const res = await fetch(`${orders.url}/api/${path}`, {
      method: 'POST',
      headers: {
        [IDENTITY_HEADER]: signIdentity(who, process.env.IDENTITY_TOKEN_SECRET ?? DEV_IDENTITY_SECRET),
      },
      body: form,
    });
    return (await res.json()) as Reply;
  };
  /** A draft order of client A with operator A on the world's route: what most tests start from. */
  const draftOrder = () =>
    create(
      orders,
      'client_order',
      {
        client_id: clientA.id,
        operator_id: opA.id,
        logistic_route_id: route.id,
        buyout_type: 'operator',
        delivery_type: 'to_door',
      },
      users.clientA,
    );
  return {
    carriers,
    orders,
    create,
    draftOrder,
    call,
    upload,
    users,
    clientA,
    clientB,
    opA,
    opB,
    toys,
    shoes,
    route,
    stored: (table: string, id: number) => orders.db(table).where({ id }).first(),
    stop: () => Promise.all([carriers.stop(), orders.stop()]),
  };
}
export type OrdersWorld = Awaited<ReturnType<typeof ordersWorld>>;

/** An entity change of the gateway's users or links, as its identity event carries it. */
export type IdentityChange = { entity: string; id: number; op: string; row: Record<string, unknown> };

/**
 * Publishes changes on gateway.identity.v1 as the gateway does (any service's outbox carries them onto the
 * topic); the caller waits for svc-orders' replica.
 */
export async function publishIdentityChanges(svc: RunningService, changes: IdentityChange[]) {
  await svc.db.transaction((trx) =>
    svc.outbox.writeMany(
      trx,
      changes.map((data) => ({
        topic: IDENTITY_TOPIC,
        key: data.id,
        type: EVENT_TYPES.entityChanged,
        actor: null,
        data,
      })),
    ),
  );
  svc.relay.kick();
}
