import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BULK_MESSAGES } from '@caravan/contracts';
import {
  sheetWithSharedStrings,
  workbookParts,
  writeBomb,
  zipOf,
} from '../../../test/fixtures/invoices/handWritten';
import { ImportQueue } from './importQueue';
import { readInvoiceIsolated } from './isolatedRead';
import { InvoiceReadError } from './readInvoice';
import { XLSX_LIMITS } from './xlsxSheets';

/** The import's worker thread and its queue (docs/adr/0016-import-as-suppliers-write.md). */
const dir = mkdtempSync(join(tmpdir(), 'caravan-isolated-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
jest.setTimeout(30_000);

async function refusal(promise: Promise<unknown>) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvoiceReadError);
  return (err as Error).message;
}

function table(name: string, rows = 2) {
  const cells: (string | number)[][] = [['Наименование', 'Кол-во', 'Цена']];
  for (let i = 1; i <= rows; i++) cells.push([`Товар ${i}`, i, 10]);
  const { sheet, strings } = sheetWithSharedStrings(cells);
  const path = join(dir, name);
  writeFileSync(path, zipOf(workbookParts(sheet, strings)));
  return path;
}

describe('readInvoiceIsolated', () => {
  it('reads the rows in a worker thread', async () => {
    const read = await readInvoiceIsolated(table('ok.xlsx'), 'xlsx');
    expect(read.rows.map((r) => r.title)).toEqual(['Товар 1', 'Товар 2']);
  });

  it('passes the reader’s refusals through in words', async () => {
    const bomb = join(dir, 'bomb.xlsx');
    writeBomb(bomb, 255);
    expect(await refusal(readInvoiceIsolated(bomb, 'xlsx'))).toBe(BULK_MESSAGES.importTooLarge);
    const text = join(dir, 'text.xlsx');
    writeFileSync(text, 'не таблица');
    expect(await refusal(readInvoiceIsolated(text, 'xlsx'))).toBe(BULK_MESSAGES.importUnreadable);
  });

  it('refuses a file that outgrows the worker’s heap, and one that reads too long', async () => {
    // within the unpacking bounds raised for the test, 12 MB of shared strings outgrow a 16 MB heap
    const heavy = join(dir, 'heavy.xlsx');
    writeBomb(heavy, 12);
    const limits = { ...XLSX_LIMITS, sharedStrings: 10_000_000 };
    expect(
      await refusal(readInvoiceIsolated(heavy, 'xlsx', { limits }, { memoryMb: 16, timeoutMs: 20_000 })),
    ).toBe(BULK_MESSAGES.importTooLarge);
    expect(
      await refusal(
        readInvoiceIsolated(table('slow.xlsx', 3000), 'xlsx', {}, { memoryMb: 256, timeoutMs: 5 }),
      ),
    ).toBe(BULK_MESSAGES.importTooSlow);
  });
});

describe('ImportQueue', () => {
  const later = () => {
    let done!: () => void;
    const promise = new Promise<void>((resolve) => (done = resolve));
    return { promise, done };
  };

  it('reads one file at a time, lets a few wait, refuses the rest and a second file of one user', async () => {
    const queue = new ImportQueue({ concurrency: 1, waiting: 1 });
    const first = later();
    const order: string[] = [];
    const a = queue.run(1, async () => {
      order.push('a');
      await first.promise;
    });
    const b = queue.run(2, async () => void order.push('b'));
    expect(await refusal(queue.run(1, async () => undefined))).toBe(BULK_MESSAGES.importUserBusy);
    expect(await refusal(queue.run(3, async () => undefined))).toBe(BULK_MESSAGES.importBusy);
    expect(queue.size).toEqual({ running: 1, waiting: 1 });
    first.done();
    await Promise.all([a, b]);
    expect(order).toEqual(['a', 'b']);
    expect(queue.size).toEqual({ running: 0, waiting: 0 });
    // a failed read frees its slot and its user
    await expect(queue.run(1, () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    await expect(queue.run(1, async () => 'again')).resolves.toBe('again');
  });

  it('refuses a file that waited its turn too long, and frees its place', async () => {
    const queue = new ImportQueue({ concurrency: 1, waiting: 1, maxWaitMs: 50 });
    const first = later();
    const a = queue.run(1, () => first.promise);
    expect(await refusal(queue.run(2, async () => undefined))).toBe(BULK_MESSAGES.importBusy);
    expect(queue.size).toEqual({ running: 1, waiting: 0 });
    first.done();
    await a;
    await expect(queue.run(2, async () => 'now')).resolves.toBe('now');
  });
});
