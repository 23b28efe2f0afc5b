import {
  IDENTITY_HEADER,
  INVOICE_MESSAGES,
  InvoiceDownloadParams,
  MESSAGES,
  type Identity,
} from '@caravan/contracts';
import {
  callService,
  DEV_IDENTITY_SECRET,
  eventually,
  identityOf,
  signIdentity,
  startService,
  type RunningService,
} from '@caravan/service-kit';
import ExcelJS from 'exceljs';
import { specCurrencies } from '../../svc-carriers/test/fixtures';
import { ordersWorld, type Any, type OrdersWorld } from '../../svc-orders/test/support';
import { paymentsService } from '../src/app';
import { gatherInvoice } from '../src/domain/invoice/gather';
import { renderInvoiceHtml } from '../src/domain/invoice/html';
import { buildInvoice, moscowToday } from '../src/domain/invoice/model';

/**
 * POST /api/client_order_invoice_download (spec §7, §5, §8; docs/adr/0012) at svc-payments, with the
 * orders reaching its replica the real way: svc-carriers (operators), svc-orders (clients, orders,
 * positions, priced by the service) and svc-payments (legal entities, bank accounts, the rate) on one
 * topic prefix. The order: 10 × ¥20 and 4 × ¥50 at ¥12.5 = 2500 + 2500, to Russia $100 × 95 = 9500,
 * within Russia 600, the package ₽10 × 40 kg = 400: 15 500.00 in all, VAT 20% inside: 2583.33.
 */
const admin = identityOf({ user_id: 1, roles: ['admin'] });
const TOPICS = 'payments-invoice';
let world: OrdersWorld;
let payments: RunningService;
let seller: Any, seller2: Any, buyer: Any, buyer2: Any, account: Any;
let order: Any;

const pay = async (method: string, params: unknown) => {
  const reply = (await callService(payments.url, method, params, admin)).body as Any;
  if (!reply.ok) throw new Error(`${method}: ${reply.message}`);
  return reply.result;
};
const replicaOf = (entity: string, id: number) =>
  payments.db('replica').where({ entity, id }).first('data', 'deleted');

type Download =
  | { kind: 'json'; status: number; body: { ok: boolean; result: unknown; message?: string } }
  | { kind: 'file'; status: number; type: string; disposition: string; body: Buffer };

async function download(params: Record<string, unknown>, who: Identity): Promise<Download> {
  const res = await fetch(`${payments.url}/api/client_order_invoice_download`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      [IDENTITY_HEADER]: signIdentity(who, process.env.IDENTITY_TOKEN_SECRET ?? DEV_IDENTITY_SECRET),
    },
    body: JSON.stringify(params),
  });
  const type = res.headers.get('content-type') ?? '';
  if (type.startsWith('application/json'))
    return { kind: 'json', status: res.status, body: await res.json() };
  return {
    kind: 'file',
    status: res.status,
    type,
    disposition: res.headers.get('content-disposition') ?? '',
    body: Buffer.from(await res.arrayBuffer()),
  };
}
const refusal = async (params: Record<string, unknown>, who: Identity) => {
  const got = await download(params, who);
  if (got.kind !== 'json') throw new Error(`a file instead of a refusal: ${got.disposition}`);
  return got.body;
};
const file = async (params: Record<string, unknown>, who: Identity) => {
  const got = await download(params, who);
  if (got.kind !== 'file') throw new Error(`refused: ${got.body.message}`);
  return got;
};
/** What every order needs beside its client and operator (spec §5). */
const orderBasics = () => ({
  logistic_route_id: world.route.id,
  buyout_type: 'operator',
  delivery_type: 'to_door',
});
const refused = (message: string) => ({ ok: false, result: null, message });

/** The name the browser saves: content-disposition's filename* (RFC 5987). */
const savedName = (disposition: string) =>
  decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1] ?? '');
const today = () => {
  const [y, m, d] = moscowToday().split('-');
  return `${d}.${m}.${y}`;
};

/** The PDF's title (Chromium writes the page's <title> into the document info as UTF-16 hex). */
function pdfTitle(pdf: Buffer): string {
  const hex = /\/Title\s*<FEFF([0-9A-Fa-f]*)>/.exec(pdf.toString('latin1'))?.[1] ?? '';
  const bytes = Buffer.from(hex, 'hex');
  let text = '';
  for (let i = 0; i + 1 < bytes.length; i += 2) text += String.fromCharCode(bytes.readUInt16BE(i));
  return text;
}
const pdfPages = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;

/** The invoice's page as the service builds it for this identity: its text without tags. */
async function invoiceText(params: Record<string, unknown>, who: Identity) {
  const invoice = buildInvoice(await gatherInvoice(payments.db, who, InvoiceDownloadParams.parse(params)));
  return renderInvoiceHtml(invoice)
    .replace(/<style>[\s\S]*<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/[\s\u00a0]+/g, ' ');
}

beforeAll(async () => {
  const env = { ...process.env, KAFKA_TOPIC_PREFIX: `${process.env.KAFKA_TOPIC_PREFIX ?? ''}${TOPICS}-` };
  [world, payments] = await Promise.all([ordersWorld(TOPICS), startService(paymentsService(env))]);
  await payments.bus.ready;
  const { carriers, orders, create, clientA, opA, toys, users } = world;
  await specCurrencies(carriers);

  // the operator's legal entity with its account, the client's; a second of each, deleted for now
  seller = await pay('legal_entity_update', {
    id: -1,
    title: 'ООО «Восточный экспресс»',
    title_full: 'Общество с ограниченной ответственностью «Восточный экспресс»',
    inn: '7707083893',
    kpp: '770701001',
    address: '123456, г. Москва, ул. Ленина, д. 1',
    director_name: 'Иванов Иван Иванович',
    accountant_name: 'Петрова Анна Сергеевна',
    operator_id: opA.id,
  });
  seller2 = await pay('legal_entity_update', {
    id: -1,
    title: 'ИП Восточный',
    inn: '500100732259',
    director_name: 'Восточный В. В.',
    operator_id: opA.id,
  });
  account = await pay('bank_account_update', {
    id: -1,
    title: 'Основной',
    legal_entity_id: seller.id,
    account_number: '40702810900000000001',
    bank_bik: '044525225',
    bank_account_number: '30101810400000000225',
    bank_title_full: 'ПАО Сбербанк г. Москва',
    bank_title_short: 'Сбербанк',
  });
  buyer = await pay('legal_entity_update', {
    id: -1,
    title: 'ООО «Ромашка»',
    inn: '7736207543',
    kpp: '773601001',
    address: 'г. Москва, ул. Цветочная, 5',
    client_id: clientA.id,
  });
  buyer2 = await pay('legal_entity_update', {
    id: -1,
    title: 'ООО «Ромашка-2»',
    inn: '7704340310',
    client_id: clientA.id,
  });
  await pay('exchange_rate_update', {
    id: -1,
    date: '2026-11-21',
    operator_id: opA.id,
    client_sell_rate_cny: '12.5',
    client_sell_rate_usd: '95',
  });
  const entities = [seller.id, seller2.id, buyer.id, buyer2.id];
  await eventually('the legal entities and the rate in svc-carriers and svc-orders', async () => {
    const there = await Promise.all([
      carriers.db('replica').where({ entity: 'legal_entity' }).whereIn('id', entities),
      orders.db('replica').where({ entity: 'legal_entity' }).whereIn('id', entities),
      orders
        .db('replica')
        .where({ entity: 'exchange_rate' })
        .whereRaw(`(data->>'operator_id')::bigint = ?`, [opA.id]),
    ]);
    return there[0].length === 4 && there[1].length === 4 && there[2].length === 1;
  });
  const operatorSet = await callService(
    carriers.url,
    'operator_update',
    { id: opA.id, legal_entity_id: [seller.id, seller2.id], nds_rate: '20' },
    admin,
  );
  expect(operatorSet.body.ok).toBe(true);
  const clientSet = await callService(
    orders.url,
    'client_update',
    { id: clientA.id, legal_entity_id: [buyer.id, buyer2.id] },
    admin,
  );
  expect(clientSet.body.ok).toBe(true);
  // the second entities leave: each owner names one live entity
  await pay('legal_entity_update', { id: seller2.id, deleted: true });
  await pay('legal_entity_update', { id: buyer2.id, deleted: true });

  // the package and the order, priced by svc-orders
  const bag = await create(carriers, 'package_description', { title: 'Мешок + скотч', title_cn: '袋子' });
  const pack = await create(carriers, 'extra_service', {
    title: 'Мешок + скотч',
    package_description_id: bag.id,
    type: 'package',
    operator_id: opA.id,
    unit: 'kg',
    client_price_currency_id: 2,
    client_price_from: '10',
  });
  await eventually('the package in svc-orders', async () =>
    Boolean(await orders.db('replica').where({ entity: 'extra_service', id: pack.id }).first()),
  );
  order = await create(
    orders,
    'client_order',
    {
      title: 'Весенняя партия',
      client_id: clientA.id,
      operator_id: opA.id,
      ...orderBasics(),
      package_id: pack.id,
    },
    users.clientA,
  );
  const position = (fields: Record<string, unknown>) =>
    create(
      orders,
      'client_order_position',
      {
        client_order_id: order.id,
        link: 'https://item.taobao.com/1',
        type_id: toys.id,
        product_images: [{ file: '/api/files/a.jpg', deleted: false }],
        ...fields,
      },
      users.clientA,
    );
  await position({ title: 'Мягкая игрушка <Заяц> & Co', price_cny: '20', amount: '10', weight: '2' });
  await position({
    title: 'Toy robot',
    title_ru: 'Робот игрушечный',
    price_cny: '50',
    amount: '4',
    weight: '5',
  });
  const measured = await world.call(
    'client_order_update',
    {
      id: order.id,
      weight: '40',
      volume: '0.2',
      to_ru_delivery_price: '100',
      to_ru_delivery_currency_id: 3,
      to_door_delivery_price_rur: '600',
    },
    users.operatorA,
  );
  expect(measured.message).toBeUndefined();

  await eventually(
    'the order, its positions, the operator and the client in svc-payments',
    async () => {
      const [o, op, cl, positions] = await Promise.all([
        replicaOf('client_order', order.id),
        replicaOf('operator', opA.id),
        replicaOf('client', clientA.id),
        payments
          .db('replica')
          .where({ entity: 'client_order_position', deleted: false })
          .whereRaw(`(data->>'client_order_id')::bigint = ?`, [order.id]),
      ]);
      return (
        o?.data.total_price_rur === '15500.00' &&
        op?.data.legal_entity_id.length === 2 &&
        cl?.data.legal_entity_id.length === 2 &&
        positions.length === 2 &&
        positions.every((p) => p.data.buyout_price_rur === '2500.00')
      );
    },
    30_000,
  );
}, 120_000);

afterAll(async () => {
  // svc-payments' stop closes its browser (kit.onStop)
  await Promise.all([world?.stop(), payments?.stop()]);
});

describe('the invoice of an order', () => {
  it('is a PDF named after the order and the day, with the classic layout and the sums', async () => {
    const got = await file({ id: order.id, format_value: 'pdf' }, world.users.clientA);
    expect(got.status).toBe(200);
    expect(got.type).toBe('application/pdf');
    expect(got.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdfPages(got.body)).toBeGreaterThanOrEqual(1);
    expect(pdfTitle(got.body)).toMatch(
      new RegExp(`^Счёт на оплату № ${order.id} от \\d{1,2} [а-я]+ \\d{4} г\\.$`),
    );
    expect(got.disposition).toMatch(
      /^attachment; filename="invoice-\d+-\d{4}-\d{2}-\d{2}\.pdf"; filename\*=UTF-8''/,
    );
    expect(savedName(got.disposition)).toBe(`Счёт № ${order.id} от ${today()}.pdf`);

    const text = await invoiceText({ id: order.id }, world.users.clientA);
    for (const piece of [
      // the bank details box, row by row
      'ПАО Сбербанк г. Москва БИК 044525225 Сч. № 30101810400000000225 Банк получателя ' +
        'ИНН 7707083893 КПП 770701001 Сч. № 40702810900000000001 ' +
        'Общество с ограниченной ответственностью «Восточный экспресс» Получатель',
      `Счёт на оплату № ${order.id} от`,
      'Поставщик (Исполнитель): Общество с ограниченной ответственностью «Восточный экспресс», ИНН 7707083893, КПП 770701001, 123456, г. Москва, ул. Ленина, д. 1',
      'Покупатель (Заказчик): ООО «Ромашка», ИНН 7736207543, КПП 773601001, г. Москва, ул. Цветочная, 5',
      `Основание: Заказ № ${order.id} «Весенняя партия»`,
      '№ Товары (работы, услуги) Кол-во Ед. Цена Сумма',
      // a title is text, never markup
      '1 Мягкая игрушка &lt;Заяц&gt; &amp; Co 10 шт. 250,00 2 500,00',
      '2 Робот игрушечный 4 шт. 625,00 2 500,00',
      '3 Доставка до РФ 1 усл. 9 500,00 9 500,00',
      '4 Доставка по РФ 1 усл. 600,00 600,00',
      '5 Упаковка 1 усл. 400,00 400,00',
      'Итого: 15 500,00 В том числе НДС (20%): 2 583,33 Всего к оплате: 15 500,00',
      'Всего наименований 5, на сумму 15 500,00 руб.',
      'Пятнадцать тысяч пятьсот рублей 00 копеек',
      'Руководитель Иванов Иван Иванович',
      'Бухгалтер Петрова Анна Сергеевна',
    ])
      expect(text).toContain(piece);
  });

  it('is an XLSX with the same content in its cells', async () => {
    const got = await file({ id: order.id, format_value: 'xlsx' }, world.users.operatorA);
    expect(got.type).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(savedName(got.disposition)).toBe(`Счёт № ${order.id} от ${today()}.xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(got.body as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Счёт')!;
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    const cellText = (v: unknown) =>
      v && typeof v === 'object' && 'richText' in v
        ? (v as { richText: { text: string }[] }).richText.map((r) => r.text).join('')
        : typeof v === 'string'
          ? v.replace(/\u00a0/g, ' ')
          : v;
    const flat = rows.map((r) => r.map(cellText));
    const rowWith = (first: unknown) => flat.find((r) => r.includes(first));
    expect(sheet.getCell('E1').value).toBe('044525225');
    expect(sheet.getCell('A4').value).toBe('ИНН 7707083893');
    expect(sheet.getCell('E4').value).toBe('40702810900000000001');
    expect(sheet.getCell('A8').value).toMatch(new RegExp(`^Счёт на оплату № ${order.id} от `));
    expect(sheet.getCell('A8').isMerged).toBe(true);
    expect(rowWith('Мягкая игрушка <Заяц> & Co')).toEqual([
      1,
      'Мягкая игрушка <Заяц> & Co',
      10,
      'шт.',
      250,
      2500,
    ]);
    expect(rowWith('Доставка до РФ')).toEqual([3, 'Доставка до РФ', 1, 'усл.', 9500, 9500]);
    expect(rowWith('Итого:')?.slice(-1)).toEqual([15500]);
    expect(rowWith('В том числе НДС (20%):')?.slice(-1)).toEqual([2583.33]);
    expect(rowWith('Всего к оплате:')?.slice(-1)).toEqual([15500]);
    expect(flat.flat()).toContain('Всего наименований 5, на сумму 15 500,00 руб.');
    expect(flat.flat()).toContain('Пятнадцать тысяч пятьсот рублей 00 копеек');
    expect(flat.flat().some((v) => String(v).startsWith('Поставщик (Исполнитель): Общество'))).toBe(true);
    const totalRow = flat.findIndex((r) => r.includes('Итого:')) + 1;
    expect(sheet.getCell(`F${totalRow}`).numFmt).toBe('#,##0.00');
    expect(sheet.getColumn(2).width).toBeGreaterThan(40);
  });

  it('answers the staff too, and the params as the UI sends them', async () => {
    const got = await download(
      {
        id: order.id,
        operator_id: world.opA.id,
        format_value: 'pdf',
        own_legal_entity_id: seller.id,
        bank_account_id: account.id,
        counterparty_id: buyer.id,
        signed: false,
        user_id: 1,
      },
      admin,
    );
    expect(got.kind).toBe('file');
  });

  it('prints several invoices at once in the one browser', async () => {
    const got = await Promise.all([1, 2, 3].map(() => download({ id: order.id }, world.users.clientA)));
    for (const g of got) {
      expect(g.kind).toBe('file');
      if (g.kind === 'file') expect(pdfTitle(g.body)).toContain(`№ ${order.id}`);
    }
  });
});

describe('who gets it', () => {
  it("another client, another operator and a missing order all get 'запись не найдена'", async () => {
    const { users } = world;
    for (const who of [users.clientB, users.operatorB])
      expect(await refusal({ id: order.id }, who)).toEqual(refused(MESSAGES.notFound));
    expect(await refusal({ id: 987654321 }, admin)).toEqual(refused(MESSAGES.notFound));
    // one foreign order among own ones hides the whole request the same way
    expect(await refusal({ id_arr: [order.id, 987654321] }, users.clientA)).toEqual(
      refused(MESSAGES.notFound),
    );
  });

  it('refuses orders of several clients or operators, and a wrong operator_id', async () => {
    const { create, orders, clientA, clientB, opB } = world;
    const ofB = await create(orders, 'client_order', {
      client_id: clientB.id,
      operator_id: opB.id,
      ...orderBasics(),
    });
    const ofOpB = await create(orders, 'client_order', {
      client_id: clientA.id,
      operator_id: opB.id,
      ...orderBasics(),
    });
    await eventually('both orders in svc-payments', async () =>
      Boolean((await replicaOf('client_order', ofB.id)) && (await replicaOf('client_order', ofOpB.id))),
    );
    expect(await refusal({ id_arr: [order.id, ofB.id] }, admin)).toEqual(
      refused(INVOICE_MESSAGES.mixedClients),
    );
    expect(await refusal({ id_arr: [order.id, ofOpB.id] }, admin)).toEqual(
      refused(INVOICE_MESSAGES.mixedOperators),
    );
    expect(await refusal({ id: order.id, operator_id: opB.id }, admin)).toEqual(
      refused(INVOICE_MESSAGES.otherOperator),
    );
    expect(await refusal({}, admin)).toEqual(refused(INVOICE_MESSAGES.orderRequired));
    expect(await refusal({ id: order.id, format_value: 'docx' }, admin)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^неверное значение поля 'формат'/),
    });
  });
});

describe('what the invoice needs (spec §5, §8), each told as the spec says', () => {
  const m = INVOICE_MESSAGES;
  const ask = (extra: Record<string, unknown> = {}) => refusal({ id: order.id, ...extra }, admin);
  const entity = (id: number, fields: Record<string, unknown>) =>
    pay('legal_entity_update', { id, ...fields });

  it('the operator and the client each name one live legal entity', async () => {
    await entity(seller.id, { deleted: true });
    expect(await ask()).toEqual(refused(m.operatorEntityMissing));
    await entity(buyer.id, { deleted: true });
    // the operator's is told first
    expect(await ask()).toEqual(refused(m.operatorEntityMissing));
    await entity(seller.id, { deleted: false });
    expect(await ask()).toEqual(refused(m.clientEntityMissing));
    await entity(buyer.id, { deleted: false });

    await entity(seller2.id, { deleted: false });
    await entity(buyer2.id, { deleted: false });
    expect(await ask()).toEqual(refused(m.operatorEntityMany));
    expect(await ask({ own_legal_entity_id: seller.id })).toEqual(refused(m.clientEntityMany));
    // a choice among them is taken; a choice outside them is refused
    expect(
      (await download({ id: order.id, own_legal_entity_id: seller.id, counterparty_id: buyer.id }, admin))
        .kind,
    ).toBe('file');
    expect(await ask({ own_legal_entity_id: buyer.id, counterparty_id: buyer.id })).toEqual(
      refused(m.foreignOperatorEntity),
    );
    expect(await ask({ own_legal_entity_id: seller.id, counterparty_id: seller.id })).toEqual(
      refused(m.foreignClientEntity),
    );
    await entity(seller2.id, { deleted: true });
    await entity(buyer2.id, { deleted: true });
  });

  it('the operator entity has one bank account and a director', async () => {
    await pay('bank_account_update', { id: account.id, deleted: true });
    expect(await ask()).toEqual(refused(m.bankAccountMissing));
    await pay('bank_account_update', { id: account.id, deleted: false });
    const second = await pay('bank_account_update', {
      id: -1,
      title: 'Запасной',
      legal_entity_id: seller.id,
      account_number: '40702810900000000002',
      bank_bik: '044525974',
      bank_title_full: 'АО «Т-Банк»',
    });
    expect(await ask()).toEqual(refused(m.bankAccountMany));
    expect(await ask({ bank_account_id: 999999 })).toEqual(refused(m.foreignBankAccount));
    const chosen = await invoiceText({ id: order.id, bank_account_id: second.id }, admin);
    expect(chosen).toContain('АО «Т-Банк»');
    expect(chosen).toContain('Сч. № 40702810900000000002');

    // the operator's own bank account chooses among several
    const designated = await callService(
      world.carriers.url,
      'operator_update',
      { id: world.opA.id, bank_account_id: account.id },
      admin,
    );
    expect(designated.body.ok).toBe(true);
    await eventually('the operator with its account in svc-payments', async () =>
      Boolean((await replicaOf('operator', world.opA.id))?.data.bank_account_id === account.id),
    );
    expect(await invoiceText({ id: order.id }, admin)).toContain('Сч. № 40702810900000000001');
    await pay('bank_account_update', { id: second.id, deleted: true });

    await entity(seller.id, { director_name: '' });
    expect(await ask()).toEqual(refused(m.directorMissing));
    await entity(seller.id, { director_name: 'Иванов Иван Иванович' });
  });

  it('an order with nothing priced has nothing to pay', async () => {
    const empty = await world.create(
      world.orders,
      'client_order',
      { client_id: world.clientA.id, operator_id: world.opA.id, ...orderBasics() },
      world.users.clientA,
    );
    await eventually('the empty order in svc-payments', async () =>
      Boolean(await replicaOf('client_order', empty.id)),
    );
    expect(await refusal({ id: empty.id }, world.users.clientA)).toEqual(refused(m.nothingToPay));
  });
});
