import { eventually } from '@caravan/service-kit';
import { call, login, startSystem, type System } from './system';

/**
 * Notification mail through the whole backend (issue 19, docs/adr/0028): the gateway's identity events
 * carry each user's address to svc-orders, which mails a client who chose email — once for a burst of
 * the operator's changes — through the same SMTP server as the gateway's own mail.
 */
let system: System;
const PUBLIC_URL = 'https://caravan.example';

beforeAll(async () => {
  process.env.NOTIFICATION_EMAIL_BATCH_SECONDS = '3';
  process.env.PUBLIC_URL = PUBLIC_URL;
  try {
    system = await startSystem();
  } finally {
    delete process.env.NOTIFICATION_EMAIL_BATCH_SECONDS;
    delete process.env.PUBLIC_URL;
  }
});
afterAll(() => system?.stop());

it('a client who chose email gets the operator’s two changes of their order as one mail, at the address they signed up with', async () => {
  const client = (await login(system.url, 'client@caravan.local', 'caravan123')).result.token;
  const operator = (await login(system.url, 'operator@caravan.local', 'caravan123')).result.token;
  expect(
    (await call(system.url, client, 'notification_channels_update', { email: true })).body,
  ).toMatchObject({
    ok: true,
    result: { email: true },
  });
  const orders = (await call(system.url, operator, 'client_order_list', { per_page: 50, order_by: 'id asc' }))
    .body.result.items as { id: number; client_id: number; stage: string }[];
  // an order still being formed: its delivery date is the operator's to change
  const order = orders.find((o) => o.client_id === 1 && ['created', 'buyout_waiting'].includes(o.stage))!;
  for (const date of ['2031-05-01', '2031-05-02'])
    expect(
      (await call(system.url, operator, 'client_order_update', { id: order.id, to_ru_delivery_date: date }))
        .body,
    ).toMatchObject({ ok: true });

  const mails = () => system.mail.messages.filter((m) => m.to.includes('client@caravan.local'));
  // on a broker just started the identity events may reach svc-orders late: the mail waits for the address
  await eventually('the mail', async () => mails().length > 0, 60_000);
  await new Promise((r) => setTimeout(r, 1500));
  // one mail; a fresh system's other notices of the client made meanwhile go in it too (the batching)
  expect(mails()).toHaveLength(1);
  expect(mails()[0]!.subject).toMatch(/^Caravan: \d+ нов/);
  expect(mails()[0]!.text).toContain('дата доставки в РФ — 01-05-2031');
  expect(mails()[0]!.text).toContain('дата доставки в РФ — 02-05-2031');
  expect(mails()[0]!.text).toMatch(/^Здравствуйте, Ирина Смирнова!/);
  expect(mails()[0]!.links).toContain(`${PUBLIC_URL}/client_order/${order.id}`);
  // the operator, who made the changes, and the client's other side chose nothing: no mail
  expect(system.mail.messages.filter((m) => m.to.includes('operator@caravan.local'))).toEqual([]);
}, 90_000);
