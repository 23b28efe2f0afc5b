import { IDENTITY_HEADER, BULK_MESSAGES, type Identity } from '@caravan/contracts';
import { DEV_IDENTITY_SECRET, identityOf, signIdentity } from '@caravan/service-kit';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sheetWithSharedStrings, workbookParts, writeBomb, zipOf } from './fixtures/invoices/handWritten';
import { ordersWorld, type Any, type OrdersWorld } from './support';

/**
 * Issue 17, a service that never falls over (docs/adr/0016-import-as-suppliers-write.md): import bombs,
 * a heavy invoice and a truncated upload sent at once while another user works. The other user's calls
 * keep answering (p95 within a generous bound on a shared machine) and the service stays up.
 */
let w: OrdersWorld;
const dir = mkdtempSync(join(tmpdir(), 'caravan-fault-'));
beforeAll(async () => {
  w = await ordersWorld('orders-import-fault');
});
afterAll(async () => {
  await w?.stop();
  rmSync(dir, { recursive: true, force: true });
});
jest.setTimeout(120_000);

/**
 * The goal is 200 ms; the bound is generous because seven test runs share two cores here and each of
 * the test's workers compiles its TypeScript on start (the service's build runs compiled JS).
 * Measured: 139 ms over 426 calls, and 207 ms under a load average of 15; a CI run beside a load average
 * of 20 saw 703 ms. So the bound also grows with the same calls' median measured just before the imports, on
 * the machine as it is then: an import that held the service's thread for seconds still fails it.
 */
const P95_BOUND_MS = 600;
const TIMES_THE_QUIET_MEDIAN = 8;

const signed = (who: Identity) => signIdentity(who, process.env.IDENTITY_TOKEN_SECRET ?? DEV_IDENTITY_SECRET);

/** A multipart body of the file and the fields; `cut` bytes are left off its end (a dropped connection). */
function multipart(file: Buffer, name: string, fields: Record<string, string>, cut = 0) {
  const boundary = '----caravan-fault';
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  );
  const body = Buffer.concat([
    Buffer.from(parts.join('')),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body: body.subarray(0, body.length - cut), type: `multipart/form-data; boundary=${boundary}` };
}

async function importFile(who: Identity, orderId: number, file: Buffer, cut = 0) {
  const { body, type } = multipart(file, 'счёт.xlsx', { type: 'invoice', orderId: String(orderId) }, cut);
  const res = await fetch(`${w.orders.url}/api/client_order_excel_import`, {
    method: 'POST',
    headers: { [IDENTITY_HEADER]: signed(who), 'content-type': type },
    body,
  });
  expect(res.status).toBeLessThan(500);
  return (await res.json()) as { ok: boolean; message?: string; result: Any };
}

/** A truncated upload may be answered in words or have its connection closed; never a 500. */
const truncated = (who: Identity, orderId: number, file: Buffer, cut: number) =>
  importFile(who, orderId, file, cut).catch((err: Error & { matcherResult?: unknown }) => {
    if (err.matcherResult) throw err; // a 500 fails the test
    return { ok: false, message: `connection closed: ${err.message}`, result: null };
  });

function heavyInvoice(rows: number) {
  const cells: (string | number)[][] = [['Наименование', 'Кол-во', 'Цена', 'Сумма']];
  for (let i = 1; i <= rows; i++) cells.push([`Товар номер ${i}`, (i % 40) + 1, 12.5, ((i % 40) + 1) * 12.5]);
  const { sheet, strings } = sheetWithSharedStrings(cells);
  return zipOf(workbookParts(sheet, strings));
}

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1]!;

it('keeps answering another user while bombs, a heavy file and a truncated upload are read', async () => {
  const bombPath = join(dir, 'bomb.xlsx');
  writeBomb(bombPath, 255);
  const bomb = readFileSync(bombPath);
  const heavy = heavyInvoice(15_000);
  const order = await w.draftOrder();
  // importers: users of client A, each sending one file
  const importer = (n: number) =>
    identityOf({ user_id: 700 + n, roles: ['client'], client_ids: [w.clientA.id] });

  const quiet: number[] = [];
  for (let i = 0; i < 15; i++) {
    const started = performance.now();
    await w.call('client_order_get_by_id', { id: order.id }, w.users.operatorA);
    quiet.push(performance.now() - started);
  }
  const median = [...quiet].sort((a, b) => a - b)[Math.floor(quiet.length / 2)]!;
  const bound = Math.max(P95_BOUND_MS, TIMES_THE_QUIET_MEDIAN * median);

  let loading = true;
  const latencies: number[] = [];
  const health: number[] = [];
  const otherUser = (async () => {
    while (loading) {
      const started = performance.now();
      // the order's operator works on it meanwhile
      const reply = await w.call('client_order_get_by_id', { id: order.id }, w.users.operatorA);
      latencies.push(performance.now() - started);
      expect(reply.ok).toBe(true);
      health.push((await fetch(`${w.orders.url}/healthz`)).status);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  await new Promise((r) => setTimeout(r, 300));
  const started = Date.now();
  const replies = await Promise.all([
    ...Array.from({ length: 8 }, (_, i) => importFile(importer(i), order.id, bomb)),
    importFile(importer(8), order.id, heavy),
    truncated(importer(9), order.id, heavy, 4000),
    truncated(importer(10), order.id, bomb, 1000),
  ]);
  const importsTook = Date.now() - started;
  await new Promise((r) => setTimeout(r, 300));
  loading = false;
  await otherUser;

  const messages = replies.map((r) => (r.ok ? `${r.result.rows.length} rows` : r.message));
  // each bomb refused in words (or told to wait when the queue is full), the heavy file read
  for (const m of messages.slice(0, 8))
    expect([BULK_MESSAGES.importTooLarge, BULK_MESSAGES.importBusy]).toContain(m);
  expect(messages[8]).toBe('15000 rows');
  // the truncated uploads are refused in words, never a 500
  for (const reply of replies.slice(9)) expect(reply.ok).toBe(false);
  expect(health.every((s) => s === 200)).toBe(true);
  expect(latencies.length).toBeGreaterThan(5);
  const figure = p95(latencies);
  console.info(
    `import fault: other user's p95 ${figure.toFixed(0)} ms over ${latencies.length} calls (bound ${bound.toFixed(0)} ms); imports ${importsTook} ms; ${JSON.stringify(messages)}`,
  );
  expect(figure).toBeLessThanOrEqual(bound);
  // the service still reads an invoice after all that
  expect((await importFile(importer(11), order.id, heavyInvoice(3))).result.rows).toHaveLength(3);
});
