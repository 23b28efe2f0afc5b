import { parentPort, workerData } from 'node:worker_threads';
import { InvoiceReadError, readInvoice, type ReadOptions } from './readInvoice';

/** The worker side of readInvoiceIsolated: reads one file and answers with the rows or the refusal. */
export type WorkerRequest = { path: string; extension: 'xlsx' | 'xls'; options: ReadOptions };
export type WorkerAnswer =
  { ok: true; result: Awaited<ReturnType<typeof readInvoice>> } | { ok: false; message: string | null };

const { path, extension, options } = workerData as WorkerRequest;
readInvoice(path, extension, options).then(
  (result) => parentPort!.postMessage({ ok: true, result } satisfies WorkerAnswer),
  (err: unknown) =>
    parentPort!.postMessage({
      ok: false,
      message: err instanceof InvoiceReadError ? err.message : null,
    } satisfies WorkerAnswer),
);
