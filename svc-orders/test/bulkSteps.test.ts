import { ordersWorld, refused, type Any, type OrdersWorld } from './support';

/**
 * 'проверено' and 'выкуплено' on the position table's selection (client_order_position_bulk_step,
 * issue 17): one call for the selection, each position by the one-at-a-time rule, one refusal refuses
 * them all and changes nothing.
 */
let w: OrdersWorld;
beforeAll(async () => {
  w = await ordersWorld('orders-bulk-steps');
});
afterAll(async () => {
  await w?.stop();
});

const image = [{ file: '/api/files/0b6c1b2e.jpg', deleted: false }];

/** A formed order of `n` positions waiting for the operator's check. */
async function formedOrder(n: number) {
  const order = await w.draftOrder();
  const positions: Any[] = [];
  for (let i = 0; i < n; i++)
    positions.push(
      await w.create(
        w.orders,
        'client_order_position',
        {
          client_order_id: order.id,
          title: `Игрушка ${i + 1}`,
          link: 'https://item.taobao.com/1',
          product_images: image,
          type_id: w.toys.id,
          price_cny: '10.00',
          amount: '4',
        },
        w.users.clientA,
      ),
    );
  expect(await w.call('client_order_created', { id: order.id }, w.users.clientA)).toMatchObject({ ok: true });
  return { order, ids: positions.map((p) => p.id as number) };
}
const positionsOf = (orderId: number) =>
  w.orders.db('client_order_position').where({ client_order_id: orderId, deleted: false }).orderBy('id');

describe('bulk проверено and выкуплено (client_order_position_bulk_step)', () => {
  it('checks, then buys out, every selected position in one call each', async () => {
    const { order, ids } = await formedOrder(8);
    const { operatorA } = w.users;
    expect((await positionsOf(order.id)).map((r) => r.stage)).toEqual(Array(8).fill('verification'));

    expect(
      await w.call('client_order_position_bulk_step', { ids, action: 'verification_done' }, operatorA),
    ).toMatchObject({ ok: true, result: { count: 8, message: 'этап в 8 позициях изменён' } });
    expect((await positionsOf(order.id)).map((r) => r.stage)).toEqual(Array(8).fill('created'));

    expect(await w.call('client_order_buyout_waiting', { id: order.id }, operatorA)).toMatchObject({
      ok: true,
    });
    expect(
      await w.call('client_order_position_bulk_step', { ids, action: 'buyout_done' }, operatorA),
    ).toMatchObject({ ok: true, result: { count: 8 } });
    const rows = await positionsOf(order.id);
    expect(rows.map((r) => [r.stage, r.buyout_state])).toEqual(Array(8).fill(['buyout_done', 'done']));
    expect((await w.stored('client_order', order.id)).stage).toBe('buyout_done');
  });

  it('refuses the whole selection when one position cannot be checked, naming it, and changes nothing', async () => {
    const { order, ids } = await formedOrder(3);
    await w.orders
      .db('client_order_position')
      .where({ id: ids[1] })
      .update({ price_cny: null, amount: null });
    const before = await positionsOf(order.id);
    const orderBefore = await w.stored('client_order', order.id);

    const reply = await w.call(
      'client_order_position_bulk_step',
      { ids, action: 'verification_done' },
      w.users.operatorA,
    );
    expect(reply.ok).toBe(false);
    expect(reply.message).toMatch(/^позиция «Игрушка 2»: /);
    expect(await positionsOf(order.id)).toEqual(before);
    expect(await w.stored('client_order', order.id)).toEqual(orderBefore);
  });

  it('answers when no selected position can take the action, and is staff only', async () => {
    const { order, ids } = await formedOrder(2);
    const before = await positionsOf(order.id);
    expect(
      await w.call('client_order_position_bulk_step', { ids, action: 'buyout_done' }, w.users.operatorA),
    ).toEqual(refused('среди выбранных нет позиций, к которым применимо действие «выкуплено»'));
    const client = await w.call(
      'client_order_position_bulk_step',
      { ids, action: 'verification_done' },
      w.users.clientA,
    );
    expect(client.ok).toBe(false);
    expect(await positionsOf(order.id)).toEqual(before);
  });
});
