// `node deploy/local/bench/bulk.mjs`: positions in bulk (issue 10), measured at the service (svc-orders'
// endpoints with a signed admin identity, no gateway), on its own database (caravan_bench_bulk,
// recreated) and ports (+23000).
//   1. import of a 10,000-row supplier invoice (.xlsx made with exceljs in a 1C-like layout): the upload
//      and read (POST /api/client_order_excel_import) and the creation of its positions
//      (client_order_position_import), each into a fresh draft order, 3 times; the service's peak
//      memory (VmHWM) before and after
//   2. bulk stage change of 1,000 positions (client_order_position_bulk_action): warehouse_waiting, then
//      warehouse_received, on 1,000 positions seeded in SQL (buyout_done, each with a waybill), 3 times
// Prints median and worst of each beside its goal, judged on the worst: read ≤ 3 s, create ≤ 1.5 s (issue 21), the
// import ≤ 6 s in all, the service's peak RSS ≤ 512 MB, a stage change ≤ 2 s; exits 1 when one misses.
// Each run waits until the outbox has relayed its events to Kafka (that time is printed, without a goal).
// BENCH_BULK_ROWS (invoice rows, default 10,000), BENCH_BULK_POSITIONS (default 1,000), BENCH_BULK_RUNS
// (default 3), BENCH_BULK_SERVICE (another build of the service), BENCH_BULK_NODE_ARGS (e.g. --cpu-prof),
// BENCH_BULK_LOGS=1 (the service's log on the terminal).
/* global FormData, Blob -- Node's own, like fetch */
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { buildIfStale } from '../build.mjs';
import * as infra from '../infra.mjs';
import {
  exitByGoals,
  identityHeader,
  missGoal,
  peakRssMb,
  rpc,
  signIdentity,
  startBenchService,
  summary,
  verdict,
} from './service.mjs';

const root = infra.root;
const require = createRequire(import.meta.url);
const offset = Number(process.env.BENCH_BULK_PORT_OFFSET ?? 23000);
const ROWS = Number(process.env.BENCH_BULK_ROWS ?? 10_000);
const POSITIONS = Number(process.env.BENCH_BULK_POSITIONS ?? 1000);
const RUNS = Number(process.env.BENCH_BULK_RUNS ?? 3);
const INVOICE_NUMBER = '123';
// creating the positions: issue 21's 1.5 s (issue 10 asked 3 s)
const GOALS = { readMs: 3000, createMs: 1500, importMs: 6000, rssMb: 512, stageMs: 2000 };
const log = (...a) => console.log('[bench bulk]', ...a);

buildIfStale({ web: false });
const ExcelJS = require(require.resolve('exceljs', { paths: [path.join(root, 'svc-orders')] }));
const { Client } = require('pg');

// ---------------------------------------------------------------- the invoice

const GOODS = [
  ['Кроссовки беговые', 'пар'],
  ['Куртка демисезонная', 'шт'],
  ['Термокружка', 'шт'],
  ['Рюкзак городской', 'шт'],
  ['Наушники беспроводные', 'шт'],
  ['Чехол для телефона', 'упак'],
  ['Лампа настольная светодиодная', 'шт'],
  ['Набор посуды', 'компл'],
  ['Кабель USB-C', 'упак'],
  ['Носки хлопковые', 'пар'],
  ['Зонт складной', 'шт'],
  ['Игрушка мягкая', 'шт'],
];
const BRANDS = [
  'Xiaomi',
  'Baseus',
  'Li-Ning',
  'Anta',
  'Ugreen',
  'Deli',
  'Miniso',
  'Yiwu Star',
  'Haier',
  'Joyoung',
];
const COLORS = ['чёрный', 'белый', 'серый', 'синий', 'красный', 'бежевый', 'зелёный'];

/** Row i of the invoice: a title, a quantity, a unit and a price that differ from row to row, the same every run. */
function good(i) {
  const [kind, unit] = GOODS[i % GOODS.length];
  const brand = BRANDS[(i * 7) % BRANDS.length];
  const color = COLORS[(i * 3) % COLORS.length];
  return {
    title: `${kind} ${brand} арт. ${100000 + ((i * 7919) % 900000)}, ${color}, ${36 + (i % 12)}`,
    amount: 1 + ((i * 37) % 500),
    unit,
    price: Math.round((50 + ((i * 7717) % 450000) / 100) * 100) / 100,
  };
}

/**
 * A supplier's invoice as 1C prints one: the supplier's details, 'Счет на оплату № … от …', the parties,
 * the table (№, Товары (работы, услуги), Кол-во, Ед., Цена, Сумма) with borders and money formats, the
 * totals ('Итого', VAT, to pay) and the signatures.
 */
async function invoiceXlsx(rows) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('TDSheet');
  ws.columns = [{ width: 6 }, { width: 60 }, { width: 10 }, { width: 7 }, { width: 14 }, { width: 16 }];
  const money = '#,##0.00';
  const thin = { style: 'thin' };
  const boxed = { top: thin, left: thin, bottom: thin, right: thin };
  ws.addRow(['ООО «Иу Трейд Импорт»']).font = { bold: true };
  ws.addRow(['109012, г. Москва, ул. Ильинка, д. 4, офис 12, тел. +7 495 000-00-00']);
  ws.addRow(['ПАО Сбербанк, БИК 044525225, к/с 30101810400000000225, р/с 40702810900000012345']);
  ws.addRow(['ИНН 7701234567, КПП 770101001']);
  ws.addRow([]);
  const title = ws.addRow([`Счет на оплату № ${INVOICE_NUMBER} от 14 ноября 2026 г.`]);
  title.font = { bold: true, size: 14 };
  ws.mergeCells(title.number, 1, title.number, 6);
  ws.addRow([]);
  ws.addRow([
    'Поставщик:',
    'ООО «Иу Трейд Импорт», ИНН 7701234567, КПП 770101001, г. Москва, ул. Ильинка, д. 4',
  ]);
  ws.addRow(['Покупатель:', 'ООО «Караван», ИНН 7707654321, КПП 770701001, г. Москва, Тверская ул., д. 1']);
  ws.addRow(['Основание:', 'Договор поставки № 17/26 от 01.02.2026']);
  ws.addRow([]);
  const header = ws.addRow(['№', 'Товары (работы, услуги)', 'Кол-во', 'Ед.', 'Цена', 'Сумма']);
  header.font = { bold: true };
  header.eachCell((c) => (c.border = boxed));
  let total = 0;
  for (let i = 1; i <= rows; i++) {
    const g = good(i);
    const sum = Math.round(g.amount * g.price * 100) / 100;
    total += sum;
    const row = ws.addRow([i, g.title, g.amount, g.unit, g.price, sum]);
    row.getCell(5).numFmt = money;
    row.getCell(6).numFmt = money;
    row.eachCell((c) => (c.border = boxed));
  }
  const totalRow = (label, value) => {
    const row = ws.addRow(['', '', '', '', label, Math.round(value * 100) / 100]);
    row.font = { bold: true };
    row.getCell(6).numFmt = money;
  };
  totalRow('Итого:', total);
  totalRow('В том числе НДС:', (total * 20) / 120);
  totalRow('Всего к оплате:', total);
  ws.addRow([]);
  ws.addRow([`Всего наименований ${rows}, на сумму ${total.toFixed(2)} руб.`]);
  ws.addRow([]);
  ws.addRow(['Руководитель', '', '______________ Иванов И. И.']);
  ws.addRow(['Бухгалтер', '', '______________ Петрова А. С.']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

// ---------------------------------------------------------------- seeding

/** The client, its operator, a route: what an order refers to. */
async function seedDirectories(db) {
  const { rows } = await db.query(
    `insert into orders.client (title, type) values ('ООО «Караван-Бенч»', 'company') returning id`,
  );
  await db.query(
    `insert into orders.replica (entity, id, data, occurred_at, event_id) values
       ('operator', 1, jsonb_build_object('id', 1, 'title', 'Оператор 1', 'client_list',
          jsonb_build_array(jsonb_build_object('id', $1::bigint))), now(), gen_random_uuid()),
       ('logistic_route', 1, '{"id": 1, "title": "Авто Иу — Москва"}', now(), gen_random_uuid())`,
    [rows[0].id],
  );
  return Number(rows[0].id);
}

async function insertOrder(db, clientId, stage) {
  const { rows } = await db.query(
    `insert into orders.client_order (client_id, operator_id, logistic_route_id, stage, state, order_number)
     values ($1, 1, 1, $2, 'active', $3) returning id`,
    [clientId, stage, stage === 'draft' ? '' : 'ЗК-бенч'],
  );
  return Number(rows[0].id);
}

/** An order bought out with `POSITIONS` positions bought out, each with a waybill: what a bulk stage change takes. */
async function seedBoughtOut(db, clientId) {
  const orderId = await insertOrder(db, clientId, 'buyout_done');
  const { rows } = await db.query(
    `insert into orders.client_order_position (client_order_id, title, waybill, stage, buyout_state,
        price_cny, amount, weight, volume)
     select $1, 'Товар ' || g, 'YT' || (7000000000 + $1::bigint * 100000 + g), 'buyout_done', 'done',
        (10 + g % 300)::numeric(14,2), 1 + g % 20, (g % 5000) / 1000.0, (g % 300) / 10000.0
       from generate_series(1, ${POSITIONS}) g
     returning id`,
    [orderId],
  );
  return { orderId, ids: rows.map((r) => Number(r.id)).sort((a, b) => a - b) };
}

// ---------------------------------------------------------------- cases

const ADMIN = signIdentity(1, ['admin'], {}, 6 * 3600);

async function readInvoice(base, orderId, file) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), `Счет на оплату № ${INVOICE_NUMBER}.xlsx`);
  form.append('type', 'invoice');
  form.append('orderId', String(orderId));
  const t = performance.now();
  const res = await fetch(`${base}/api/client_order_excel_import`, {
    method: 'POST',
    headers: { [identityHeader()]: ADMIN },
    body: form,
  });
  const body = await res.json();
  const ms = performance.now() - t;
  if (!body.ok) throw new Error(`client_order_excel_import: ${body.message}`);
  return { ms, result: body.result };
}

/**
 * Waits until the outbox has relayed every event to Kafka, so that one run's relay does not slow the
 * next run; returns how long that took (ms), or null after 2 minutes.
 */
async function relayed(db) {
  const t = performance.now();
  while (performance.now() - t < 120_000) {
    const { rows } = await db.query('select count(*)::int as n from orders.outbox where sent_at is null');
    if (!rows[0].n) return performance.now() - t;
    await new Promise((r) => setTimeout(r, 50));
  }
  return null;
}

const orNull = (v) => (v === null || v === undefined || v === '' ? null : v);

/** One import as the edit dialog makes it: read the file, then create the rows it returned. */
async function importOnce(base, db, clientId, file) {
  const orderId = await insertOrder(db, clientId, 'draft');
  const read = await readInvoice(base, orderId, file);
  const { rows, number } = read.result;
  if (rows.length !== ROWS) throw new Error(`the invoice read as ${rows.length} rows, not ${ROWS}`);
  if (number !== INVOICE_NUMBER) throw new Error(`the invoice read as number '${number}'`);
  const params = {
    client_order_id: orderId,
    source: 'excel',
    order_number: number,
    positions: rows.map((r) => ({
      title: r.title,
      amount: orNull(r.amount),
      sell_price_no_nds_rur: orNull(r.price_no_nds),
      sell_price_nds_rur: orNull(r.price_nds),
    })),
  };
  const create = await rpc(base, ADMIN, 'client_order_position_import', params);
  const relay = await relayed(db);
  const { rows: stored } = await db.query(
    `select count(*)::int as n, count(*) filter (where sell_price_no_nds_rur is not null or sell_price_nds_rur is not null)::int as priced,
            (select order_number from orders.client_order where id = $1) as number
       from orders.client_order_position where client_order_id = $1 and not deleted`,
    [orderId],
  );
  const s = stored[0];
  if (s.n !== ROWS) throw new Error(`order ${orderId} holds ${s.n} positions after the import, not ${ROWS}`);
  if (s.priced !== ROWS) throw new Error(`only ${s.priced} of ${ROWS} imported positions have a price`);
  if (s.number !== INVOICE_NUMBER) throw new Error(`order ${orderId}'s number is '${s.number}'`);
  return {
    read: read.ms,
    create: create.ms,
    both: read.ms + create.ms,
    relay,
    sample: rows[0],
    requestBytes: Buffer.byteLength(JSON.stringify({ method: 'client_order_position_import', params })),
  };
}

async function stagesOf(db, orderId) {
  const { rows } = await db.query(
    `select stage, count(*)::int as n from orders.client_order_position where client_order_id = $1 group by stage`,
    [orderId],
  );
  return Object.fromEntries(rows.map((r) => [r.stage, r.n]));
}

async function bulkStage(base, db, orderId, ids, params) {
  const { ms, result } = await rpc(base, ADMIN, 'client_order_position_bulk_action', { ids, ...params });
  if (result.count !== ids.length)
    throw new Error(`${params.action}: count ${result.count}, not ${ids.length}`);
  const stages = await stagesOf(db, orderId);
  if (stages[params.action] !== ids.length)
    throw new Error(`${params.action}: the positions' stages are ${JSON.stringify(stages)}`);
  return ms;
}

/** warehouse_waiting, then warehouse_received, over all positions of a freshly seeded order. */
async function stageChangeOnce(base, db, clientId) {
  const { orderId, ids } = await seedBoughtOut(db, clientId);
  const waiting = await bulkStage(base, db, orderId, ids, {
    action: 'warehouse_waiting',
    receive_date: '2026-11-20',
  });
  const received = await bulkStage(base, db, orderId, ids, {
    action: 'warehouse_received',
    receive_record: { date: '2026-11-27', amount: 40, transporter: 'Карго Иу' },
  });
  return { waiting, received, relay: await relayed(db) };
}

// ---------------------------------------------------------------- report

const ms = (v) => `${v.toFixed(0).padStart(6)} ms`;
/** Median and worst of one figure of the runs, beside its goal (judged on the worst). */
function row(label, runs, key, goal) {
  const s = summary(runs.map((r) => r[key]));
  console.log(
    `${label.padEnd(44)} ${ms(s.median)}  ${ms(s.worst)}   goal ≤ ${goal.toLocaleString('en')} ms   ${verdict(s.worst <= goal)}`,
  );
}

/** A figure without a goal: the outbox relay after a call (the next run waits for it). */
function relayRow(label, runs) {
  const done = runs.map((r) => r.relay).filter((v) => v !== null);
  const late = runs.length - done.length;
  const s = done.length ? summary(done) : null;
  console.log(
    `${label.padEnd(44)} ${s ? `${ms(s.median)}  ${ms(s.worst)}` : ''}${late ? `   ${late} not drained after 2 min` : ''}`,
  );
}

const svc = await startBenchService({
  service: 'svc-orders',
  database: 'caravan_bench_bulk',
  port: 4001 + offset,
  topicPrefix: 'bench-bulk-',
  entry: process.env.BENCH_BULK_SERVICE,
  nodeArgs: (process.env.BENCH_BULK_NODE_ARGS ?? '').split(' ').filter(Boolean),
  logs: Boolean(process.env.BENCH_BULK_LOGS),
});
try {
  const db = new Client({ connectionString: svc.databaseUrl });
  await db.connect();
  const clientId = await seedDirectories(db);
  const t = performance.now();
  const file = await invoiceXlsx(ROWS);
  log(
    `invoice of ${ROWS} rows: ${(file.length / 1024).toFixed(0)} KB, made in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );

  const loadBefore = loadavg()[0];
  const rssBefore = peakRssMb(svc.pid);
  const imports = [];
  for (let i = 0; i < RUNS; i++) {
    imports.push(await importOnce(svc.base, db, clientId, file));
    log(`import ${i + 1}: read ${imports[i].read.toFixed(0)} ms, create ${imports[i].create.toFixed(0)} ms`);
  }
  const rssAfterImports = peakRssMb(svc.pid);

  const stages = [];
  for (let i = 0; i < RUNS; i++) {
    stages.push(await stageChangeOnce(svc.base, db, clientId));
    log(
      `stage change ${i + 1}: warehouse_waiting ${stages[i].waiting.toFixed(0)} ms, warehouse_received ${stages[i].received.toFixed(0)} ms`,
    );
  }
  const rssEnd = peakRssMb(svc.pid);
  await db.end();

  console.log(
    `\nsvc-orders at the service as an admin, ${RUNS} runs each; median and worst, judged on the worst` +
      `\nload average (1 min, ${cpus().length} cores) ${loadBefore.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after: others' work on the machine slows the figures\n`,
  );
  console.log(
    `invoice: ${ROWS.toLocaleString('en')} rows, ${(file.length / 1024 / 1024).toFixed(2)} MB .xlsx; ` +
      `position_import's request ${(imports[0].requestBytes / 1024 / 1024).toFixed(2)} MB; ` +
      `first row read as ${JSON.stringify(imports[0].sample)}`,
  );
  console.log(`${'case'.padEnd(44)} ${'median'.padStart(9)}  ${'worst'.padStart(9)}`);
  row('import: upload + read (excel_import)', imports, 'read', GOALS.readMs);
  row('import: create positions (position_import)', imports, 'create', GOALS.createMs);
  row('import: both', imports, 'both', GOALS.importMs);
  relayRow(`its ${ROWS.toLocaleString('en')} events relayed to Kafka after`, imports);
  console.log(
    `${'service peak RSS (VmHWM) before → after'.padEnd(44)} ${rssBefore.toFixed(0).padStart(6)} MB → ${rssAfterImports.toFixed(0)} MB   goal ≤ ${GOALS.rssMb} MB   ${verdict(rssAfterImports <= GOALS.rssMb)}`,
  );
  console.log(
    `\nbulk stage change of ${POSITIONS.toLocaleString('en')} positions (client_order_position_bulk_action)`,
  );
  row('buyout_done → warehouse_waiting', stages, 'waiting', GOALS.stageMs);
  row('warehouse_waiting → warehouse_received', stages, 'received', GOALS.stageMs);
  relayRow(`their ${(2 * POSITIONS).toLocaleString('en')} events relayed to Kafka after`, stages);
  console.log(`${'service peak RSS at the end'.padEnd(44)} ${rssEnd.toFixed(0).padStart(6)} MB`);
} catch (err) {
  missGoal();
  console.error(err);
} finally {
  await svc.stop();
}
exitByGoals();
