import {
  IDENTITY_HEADER,
  REPORT_MESSAGES,
  type Identity,
  type ReportRow,
  type ReportSummary,
} from '@caravan/contracts';
import { DEV_IDENTITY_SECRET, identityOf, signIdentity } from '@caravan/service-kit';
import ExcelJS from 'exceljs';
import { admin, ordersWorld, type OrdersWorld } from './support';

/**
 * The client order report (docs/adr/0024-reports.md): the figures of a known set of orders, the
 * filters, who sees which rows, refusals in words, and the workbook holding the same rows. The orders
 * are dated in 2031 (Moscow days): the period keeps out whatever other test files made in this database.
 */
let w: OrdersWorld;
const PERIOD = { created_from: '2031-01-01', created_to: '2031-03-31' };

type Fixture = {
  key: string;
  client: 'A' | 'B';
  operator: 'A' | 'B';
  at: string;
  stage: string;
  buyout_type?: 'self' | 'operator';
  buyout: string | null;
  total: string | null;
  deleted?: boolean;
};
/**
 * The orders: a January one at 23:30 Moscow time on the 31st (20:30 UTC) stays in January, one at
 * 00:30 on 1 February (21:30 UTC on the 31st) is February's; a self-bought order's goods count 0; a
 * deleted order counts nowhere; an order without prices counts 0.
 */
const FIXTURES: Fixture[] = [
  {
    key: 'a1',
    client: 'A',
    operator: 'A',
    at: '2031-01-15T07:00:00Z',
    stage: 'draft',
    buyout: '1000.00',
    total: '1500.50',
  },
  {
    key: 'a2',
    client: 'A',
    operator: 'A',
    at: '2031-01-31T20:30:00Z',
    stage: 'created',
    buyout: '200.10',
    total: '300.20',
  },
  {
    key: 'a3',
    client: 'A',
    operator: 'B',
    at: '2031-01-31T21:30:00Z',
    stage: 'sent_to_ru',
    buyout_type: 'self',
    buyout: '999.00',
    total: '100.00',
  },
  {
    key: 'b1',
    client: 'B',
    operator: 'B',
    at: '2031-02-10T09:00:00Z',
    stage: 'draft',
    buyout: '50.00',
    total: '80.00',
  },
  {
    key: 'b2',
    client: 'B',
    operator: 'B',
    at: '2031-03-05T09:00:00Z',
    stage: 'created',
    buyout: null,
    total: null,
  },
  {
    key: 'gone',
    client: 'A',
    operator: 'A',
    at: '2031-01-20T09:00:00Z',
    stage: 'draft',
    buyout: '7.00',
    total: '9.00',
    deleted: true,
  },
  // outside the period: the day after it ends, in Moscow
  {
    key: 'april',
    client: 'A',
    operator: 'A',
    at: '2031-03-31T21:00:00Z',
    stage: 'draft',
    buyout: '1.00',
    total: '2.00',
  },
];
const ids: Record<string, number> = {};

beforeAll(async () => {
  w = await ordersWorld('orders-report');
  for (const f of FIXTURES) {
    const order = await w.create(w.orders, 'client_order', {
      client_id: (f.client === 'A' ? w.clientA : w.clientB).id,
      operator_id: (f.operator === 'A' ? w.opA : w.opB).id,
      logistic_route_id: w.route.id,
      buyout_type: 'operator',
      delivery_type: 'to_door',
      title: `отчёт ${f.key}`,
    });
    ids[f.key] = order.id;
    // the figures as a priced order holds them: set here, not through pricing (that is tested elsewhere)
    await w.orders
      .db('client_order')
      .where({ id: order.id })
      .update({
        created_at: f.at,
        stage: f.stage,
        buyout_type: f.buyout_type ?? 'operator',
        buyout_price_rur: f.buyout,
        total_price_rur: f.total,
        order_number: f.stage === 'draft' ? '' : `ЗК-${f.key}`,
        deleted: f.deleted ?? false,
      });
  }
}, 120_000);
afterAll(() => w?.stop());

const summary = async (params: object, who: Identity = admin) => {
  const reply = await w.call('client_order_report_summary', params, who);
  if (!reply.ok) throw new Error(reply.message);
  return reply.result as ReportSummary;
};
/** Every row, page after page by next_cursor. */
async function rows(params: object, who: Identity = admin, per_page = 2): Promise<ReportRow[]> {
  const all: ReportRow[] = [];
  let cursor: string | null = null;
  do {
    const reply = await w.call('client_order_report_rows', { ...params, per_page, cursor }, who);
    if (!reply.ok) throw new Error(reply.message);
    all.push(...reply.result.items);
    cursor = reply.result.next_cursor;
  } while (cursor);
  return all;
}
const keysOf = (list: { id: number }[]) =>
  list.map((r) => Object.keys(ids).find((k) => ids[k] === r.id) ?? r.id);

async function download(params: object, who: Identity) {
  return fetch(`${w.orders.url}/api/client_order_report_download`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [IDENTITY_HEADER]: signIdentity(who, process.env.IDENTITY_TOKEN_SECRET ?? DEV_IDENTITY_SECRET),
    },
    body: JSON.stringify(params),
  });
}

describe('the figures of a known set of orders', () => {
  it('sums per client, per month, per stage and in all, goods of a self-bought order as 0', async () => {
    const s = await summary(PERIOD);
    expect(s.total).toEqual({
      order_count: 5,
      product_price_sum: '1250.10', // 1000.00 + 200.10 + 0 (self) + 50.00 + 0
      delivery_price_sum: '730.60', // 500.50 + 100.10 + 100.00 + 30.00 + 0
      total_sum: '1980.70',
    });
    expect(s.client_count).toBe(2);
    expect(s.clients).toEqual([
      {
        client_id: w.clientA.id,
        client_title: 'ООО «Ромашка»',
        order_count: 3,
        product_price_sum: '1200.10',
        delivery_price_sum: '700.60',
        total_sum: '1900.70',
      },
      {
        client_id: w.clientB.id,
        client_title: 'ИП Соколов',
        order_count: 2,
        product_price_sum: '50.00',
        delivery_price_sum: '30.00',
        total_sum: '80.00',
      },
    ]);
    expect(s.by_month).toEqual([
      {
        month: '2031-01',
        order_count: 2,
        product_price_sum: '1200.10',
        delivery_price_sum: '600.60',
        total_sum: '1800.70',
      },
      {
        month: '2031-02',
        order_count: 2,
        product_price_sum: '50.00',
        delivery_price_sum: '130.00',
        total_sum: '180.00',
      },
      {
        month: '2031-03',
        order_count: 1,
        product_price_sum: '0.00',
        delivery_price_sum: '0.00',
        total_sum: '0.00',
      },
    ]);
    expect(s.by_stage).toEqual([
      {
        stage: 'draft',
        order_count: 2,
        product_price_sum: '1050.00',
        delivery_price_sum: '530.50',
        total_sum: '1580.50',
      },
      {
        stage: 'created',
        order_count: 2,
        product_price_sum: '200.10',
        delivery_price_sum: '100.10',
        total_sum: '300.20',
      },
      {
        stage: 'sent_to_ru',
        order_count: 1,
        product_price_sum: '0.00',
        delivery_price_sum: '100.00',
        total_sum: '100.00',
      },
    ]);
  });

  it('lists the rows newest first, page after page, each with its three sums', async () => {
    const all = await rows(PERIOD);
    expect(keysOf(all)).toEqual(['b2', 'b1', 'a3', 'a2', 'a1']);
    expect(all.find((r) => r.id === ids.a1)).toEqual({
      id: ids.a1,
      title: 'отчёт a1',
      order_number: '',
      price_sum: '1500.50',
      product_price_sum: '1000.00',
      delivery_price_sum: '500.50',
      client_id: w.clientA.id,
      client_title: 'ООО «Ромашка»',
      operator_id: w.opA.id,
      stage: 'draft',
      created_at: '2031-01-15T07:00:00.000Z',
    });
    expect(all.find((r) => r.id === ids.a3)).toMatchObject({
      order_number: 'ЗК-a3',
      price_sum: '100.00',
      product_price_sum: '0.00',
      delivery_price_sum: '100.00',
    });
    expect(all.find((r) => r.id === ids.b2)).toMatchObject({
      price_sum: '0.00',
      product_price_sum: '0.00',
      delivery_price_sum: '0.00',
    });
  });
});

describe('filters', () => {
  it('takes the period in Moscow days, both ends included', async () => {
    const january = { created_from: '2031-01-01', created_to: '2031-01-31' };
    expect(keysOf(await rows(january))).toEqual(['a2', 'a1']);
    expect((await summary(january)).total.order_count).toBe(2);
    expect(keysOf(await rows({ created_from: '2031-02-01', created_to: '2031-02-01' }))).toEqual(['a3']);
    // open at one end
    expect(keysOf(await rows({ created_from: '2031-03-01', client_id: w.clientA.id }))).toEqual(['april']);
  });

  it('narrows to a client and to an operator', async () => {
    expect(keysOf(await rows({ ...PERIOD, client_id: w.clientB.id }))).toEqual(['b2', 'b1']);
    expect(keysOf(await rows({ ...PERIOD, operator_id: w.opB.id }))).toEqual(['b2', 'b1', 'a3']);
    const s = await summary({ ...PERIOD, client_id: w.clientA.id, operator_id: w.opA.id });
    expect(s.total).toEqual({
      order_count: 2,
      product_price_sum: '1200.10',
      delivery_price_sum: '600.60',
      total_sum: '1800.70',
    });
  });
});

describe('who sees which rows', () => {
  it("a client sees only their clients' orders, whatever client they ask for", async () => {
    expect(keysOf(await rows(PERIOD, w.users.clientB))).toEqual(['b2', 'b1']);
    expect(await rows({ ...PERIOD, client_id: w.clientA.id }, w.users.clientB)).toEqual([]);
    const s = await summary({ ...PERIOD, client_id: w.clientA.id }, w.users.clientB);
    // nothing matches: the sums are zeros, as the Excel file shows them (not nulls)
    expect(s.total).toMatchObject({
      order_count: 0,
      product_price_sum: '0.00',
      delivery_price_sum: '0.00',
      total_sum: '0.00',
    });
    expect(s.clients).toEqual([]);
    expect((await summary(PERIOD, w.users.clientB)).clients.map((c) => c.client_id)).toEqual([w.clientB.id]);
  });

  it("an operator sees only their operators' orders, even of a client they share", async () => {
    expect(keysOf(await rows(PERIOD, w.users.operatorA))).toEqual(['a2', 'a1']);
    expect(keysOf(await rows(PERIOD, w.users.operatorB))).toEqual(['b2', 'b1', 'a3']);
    expect(await rows({ ...PERIOD, operator_id: w.opB.id }, w.users.operatorA)).toEqual([]);
    expect((await summary({ ...PERIOD, client_id: w.clientA.id }, w.users.operatorB)).total).toMatchObject({
      order_count: 1,
      total_sum: '100.00',
    });
  });

  it('a user linked to nobody sees nothing; a user not yet confirmed is refused', async () => {
    const loner = identityOf({ user_id: 777, roles: ['client'] });
    expect(await rows(PERIOD, loner)).toEqual([]);
    expect((await summary(PERIOD, loner)).total.order_count).toBe(0);
    const waiting = identityOf({
      user_id: 778,
      roles: ['client'],
      client_ids: [w.clientA.id],
      state: 'waiting_auth',
    });
    const reply = await w.call('client_order_report_rows', PERIOD, waiting);
    expect(reply).toMatchObject({ ok: false, message: 'недостаточно прав для этого действия' });
    const res = await download(PERIOD, waiting);
    expect(await res.json()).toMatchObject({ ok: false, message: 'недостаточно прав для этого действия' });
  });
});

describe('a bad filter is refused in words, never a 500', () => {
  it.each([
    [
      'a day that does not exist',
      { created_from: '2031-02-30' },
      "неверное значение поля 'создан с': ожидается дата ДД-ММ-ГГГГ между 1900 и 2050 годом",
    ],
    [
      'a date typed as shown',
      { created_to: '31-01-2031' },
      "неверное значение поля 'создан по': ожидается дата ДД-ММ-ГГГГ между 1900 и 2050 годом",
    ],
    [
      'a period the wrong way round',
      { created_from: '2031-02-01', created_to: '2031-01-01' },
      REPORT_MESSAGES.periodReversed,
    ],
    [
      'a client that is not an id',
      { client_id: 'Ромашка' },
      "неверное значение поля 'клиент': ожидается число",
    ],
    ['an operator below 1', { operator_id: 0 }, "неверное значение поля 'оператор': больше 0"],
    ['an unknown filter', { stage: 'draft' }, "неизвестное поле 'stage'"],
  ])('%s', async (_what, params, message) => {
    for (const method of ['client_order_report_rows', 'client_order_report_summary']) {
      const reply = await w.call(method, params);
      expect(reply).toMatchObject({ ok: false, message });
    }
    const res = await download(params, admin);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: false, result: null, message });
  });

  it('a cursor not of ours', async () => {
    for (const cursor of [
      'abc',
      Buffer.from("2031-01-01'; drop table client_order|1").toString('base64url'),
    ]) {
      const reply = await w.call('client_order_report_rows', { ...PERIOD, cursor });
      expect(reply).toMatchObject({ ok: false, message: REPORT_MESSAGES.badCursor });
    }
    const reply = await w.call('client_order_report_rows', { per_page: 501 });
    expect(reply).toMatchObject({
      ok: false,
      message: "неверное значение поля 'строк на странице': не больше 500",
    });
  });
});

describe('the Excel download', () => {
  async function workbookOf(res: Response) {
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const table = (name: string) => {
      const out: unknown[][] = [];
      book.getWorksheet(name)!.eachRow((row) => out.push((row.values as unknown[]).slice(1)));
      return out;
    };
    return { orders: table('Заказы'), clients: table('Клиенты') };
  }

  it('holds the same rows and totals as the page, named by the period', async () => {
    const res = await download({ params: PERIOD }, admin);
    expect(decodeURIComponent(res.headers.get('content-disposition') ?? '')).toContain(
      'отчёт по заказам 2031-01-01 — 2031-03-31.xlsx',
    );
    const { orders, clients } = await workbookOf(res);
    expect(orders[0]).toEqual([
      '№',
      'заказ',
      'номер заказа',
      'клиент',
      'этап',
      'создан',
      'товары, ₽',
      'доставка, ₽',
      'сумма, ₽',
    ]);
    const page = await rows(PERIOD, admin, 50);
    expect(orders.slice(1, -1).map((r) => r[0])).toEqual(page.map((r) => r.id));
    const a1 = orders.find((r) => r[0] === ids.a1)!;
    expect(a1).toEqual([
      ids.a1,
      'отчёт a1',
      undefined, // an empty number leaves the cell empty
      'ООО «Ромашка»',
      'новый',
      new Date(Date.UTC(2031, 0, 15, 10, 0)), // 07:00 UTC is 10:00 in Moscow
      1000,
      500.5,
      1500.5,
    ]);
    expect(orders.at(-1)).toEqual([
      undefined,
      'итого',
      undefined,
      undefined,
      undefined,
      undefined,
      1250.1,
      730.6,
      1980.7,
    ]);
    expect(clients).toEqual([
      ['клиент', 'заказов', 'товары, ₽', 'доставка, ₽', 'итого, ₽'],
      ['ООО «Ромашка»', 3, 1200.1, 700.6, 1900.7],
      ['ИП Соколов', 2, 50, 30, 80],
      ['итого', 5, 1250.1, 730.6, 1980.7],
    ]);
  });

  it("holds only the caller's orders", async () => {
    const { orders, clients } = await workbookOf(await download(PERIOD, w.users.clientB));
    expect(orders.slice(1, -1).map((r) => r[0])).toEqual([ids.b2, ids.b1]);
    expect(clients.map((r) => r[0])).toEqual(['клиент', 'ИП Соколов', 'итого']);
    const other = await workbookOf(await download({ ...PERIOD, client_id: w.clientB.id }, w.users.operatorA));
    expect(other.orders).toHaveLength(2); // the header and the total of nothing
    expect(other.orders.at(-1)).toEqual([
      undefined,
      'итого',
      undefined,
      undefined,
      undefined,
      undefined,
      0,
      0,
      0,
    ]);
  });
});
