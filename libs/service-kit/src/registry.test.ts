import { z } from 'zod';
import { BusinessError } from './errors';
import { createLogger } from './logger';
import { Outbox } from './bus/outbox';
import { ProcedureRegistry, type ProcedureContext } from './registry';
import { identityOf } from './testing';

const ctx = (roles: ('admin' | 'client')[] = ['admin']): ProcedureContext => ({
  identity: identityOf({ user_id: 1, roles }),
  db: null as never, // these procedures never touch the database
  log: createLogger('test', 'silent'),
  requestId: 'r1',
  outbox: new Outbox('test'),
});

const registry = new ProcedureRegistry('carriers')
  .register({
    name: 'logistic_route_calculate',
    params: z.strictObject({ weight: z.number().positive() }),
    access: 'any',
    handler: async (_ctx, p) => {
      if (p.weight > 1000) throw new BusinessError('слишком тяжело');
      if (p.weight === 13) throw new Error('bug');
      return { price: p.weight * 2 };
    },
  })
  .register({ name: 'country_update', params: z.object({}), access: 'admin', handler: async () => 'done' });

describe('ProcedureRegistry', () => {
  it('answers a valid call with ok and the result', async () => {
    expect(await registry.call(ctx(), 'logistic_route_calculate', { weight: 2 })).toEqual({
      status: 200,
      reply: { ok: true, result: { price: 4 } },
    });
  });

  it('refuses unknown methods, unknown fields and wrong types with ok:false, never a 500', async () => {
    const unknown = await registry.call(ctx(), 'nope', {});
    expect(unknown).toEqual({
      status: 200,
      reply: { ok: false, result: null, message: "неизвестный метод 'nope'" },
    });
    const extra = await registry.call(ctx(), 'logistic_route_calculate', { weight: 1, sql: 'x' });
    expect(extra.reply).toMatchObject({ ok: false, message: "неизвестное поле 'sql'" });
    const wrong = await registry.call(ctx(), 'logistic_route_calculate', { weight: 'heavy' });
    expect(wrong.status).toBe(200);
    expect(wrong.reply.message).toMatch(/^неверное значение поля 'weight'/);
  });

  it('turns a business refusal into its message and a bug into a 500 without details', async () => {
    expect((await registry.call(ctx(), 'logistic_route_calculate', { weight: 2000 })).reply.message).toBe(
      'слишком тяжело',
    );
    expect(await registry.call(ctx(), 'logistic_route_calculate', { weight: 13 })).toEqual({
      status: 500,
      reply: { ok: false, result: null, message: 'что-то пошло не так' },
    });
  });

  it('refuses an admin method to a client', async () => {
    expect((await registry.call(ctx(['client']), 'country_update', {})).reply).toMatchObject({
      ok: false,
      message: 'действие доступно только администратору',
    });
  });

  it('refuses to register a method the routing table gives to another owner', () => {
    expect(() =>
      new ProcedureRegistry('carriers').register({
        name: 'wallet_list',
        params: z.object({}),
        access: 'any',
        handler: async () => 1,
      }),
    ).toThrow('method wallet_list is routed to payments, not to carriers');
  });

  it('answers a lost database connection with the retryable 503, and retries a read once', async () => {
    const terminated = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
    let reads = 0;
    let writes = 0;
    const flaky = new ProcedureRegistry('carriers')
      .register({
        name: 'country_list',
        params: z.object({}),
        access: 'any',
        handler: async () => {
          if (++reads === 1) throw terminated;
          return 'rows';
        },
      })
      .register({
        name: 'country_update',
        params: z.object({}),
        access: 'any',
        handler: async () => {
          writes++;
          throw terminated;
        },
      });
    expect(await flaky.call(ctx(), 'country_list', {})).toEqual({
      status: 200,
      reply: { ok: true, result: 'rows' },
    });
    expect(reads).toBe(2);
    expect(await flaky.call(ctx(), 'country_update', {})).toEqual({
      status: 503,
      reply: { ok: false, result: null, message: 'сервис временно недоступен, повторите попытку' },
    });
    expect(writes).toBe(1); // a write without an idempotency key is not repeated inside
  });

  it("runs a procedure that keeps its Idempotency-Key itself outside the key's transaction, with the request hash", async () => {
    const own = new ProcedureRegistry('payments').register({
      name: 'wallet_transfer',
      params: z.object({ amount: z.string() }),
      access: 'any',
      keysItself: true,
      // ctx.db is null here: the registry's own key transaction would fail with a 500
      handler: async (c) => ({ key: c.idempotencyKey, hash: c.requestHash }),
    });
    const first = await own.call(ctx(), 'wallet_transfer', { amount: '1' }, 'transfer-0001');
    expect(first).toEqual({
      status: 200,
      reply: { ok: true, result: { key: 'transfer-0001', hash: expect.stringMatching(/^[0-9a-f]{64}$/) } },
    });
    const again = await own.call(ctx(), 'wallet_transfer', { amount: '1' }, 'transfer-0001');
    const other = await own.call(ctx(), 'wallet_transfer', { amount: '2' }, 'transfer-0001');
    const hashOf = (o: typeof first) => (o.reply.result as { hash: string }).hash;
    expect(hashOf(again)).toBe(hashOf(first));
    expect(hashOf(other)).not.toBe(hashOf(first));
    // without a key it runs as any procedure, nothing in its context
    expect((await own.call(ctx(), 'wallet_transfer', { amount: '1' })).reply).toEqual({
      ok: true,
      result: {},
    });
  });
});
