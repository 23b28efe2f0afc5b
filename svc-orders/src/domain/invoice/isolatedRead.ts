import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { BULK_MESSAGES, type InvoiceImport } from '@caravan/contracts';
import { InvoiceReadError, type ReadOptions } from './readInvoice';
import type { WorkerAnswer, WorkerRequest } from './readInvoiceWorker';

/** A worker's bounds (docs/adr/0016-import-as-suppliers-write.md); env IMPORT_WORKER_MEMORY_MB, IMPORT_TIMEOUT_MS. */
export type WorkerBounds = { memoryMb: number; timeoutMs: number };
export const WORKER_BOUNDS: WorkerBounds = { memoryMb: 256, timeoutMs: 60_000 };

/**
 * Under the service's build the worker is the compiled .js beside this file; under the tests (run from
 * the TypeScript sources by swc) the worker compiles its .ts modules the same way as it requires them.
 */
function workerOf(request: WorkerRequest, bounds: WorkerBounds): Worker {
  const resourceLimits = {
    maxOldGenerationSizeMb: bounds.memoryMb,
    maxYoungGenerationSizeMb: Math.max(8, Math.round(bounds.memoryMb / 8)),
    stackSizeMb: 4,
  };
  const compiled = join(__dirname, 'readInvoiceWorker.js');
  if (existsSync(compiled)) return new Worker(compiled, { workerData: request, resourceLimits });
  const source = join(__dirname, 'readInvoiceWorker.ts');
  const bootstrap = `
    const { readFileSync } = require('node:fs');
    const { transformSync } = require('@swc/core');
    require.extensions['.ts'] = (module, filename) => {
      const { code } = transformSync(readFileSync(filename, 'utf8'), {
        filename,
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'commonjs' },
      });
      module._compile(code, filename);
    };
    require(${JSON.stringify(source)});`;
  return new Worker(bootstrap, { eval: true, workerData: request, resourceLimits });
}

/**
 * readInvoice in a worker thread with a bounded heap and time: a file that still costs too much is
 * refused in words (importTooLarge, importTooSlow) and the service's own thread keeps answering.
 */
export function readInvoiceIsolated(
  path: string,
  extension: 'xlsx' | 'xls',
  options: ReadOptions = {},
  bounds: WorkerBounds = WORKER_BOUNDS,
): Promise<InvoiceImport> {
  return new Promise((resolve, reject) => {
    const worker = workerOf({ path, extension, options }, bounds);
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(
      () => settle(() => reject(new InvoiceReadError(BULK_MESSAGES.importTooSlow))),
      bounds.timeoutMs,
    );
    worker.on('message', (answer: WorkerAnswer) =>
      settle(() =>
        answer.ok
          ? resolve(answer.result)
          : reject(new InvoiceReadError(answer.message ?? BULK_MESSAGES.importUnreadable)),
      ),
    );
    worker.on('error', (err: Error & { code?: string }) =>
      settle(() =>
        reject(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new InvoiceReadError(BULK_MESSAGES.importTooLarge, { cause: err })
            : err,
        ),
      ),
    );
    worker.on('exit', (code) =>
      settle(() => reject(new Error(`the import worker exited with ${code} before answering`))),
    );
  });
}
