import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BULK_MESSAGES,
  EXCEL_EXTENSIONS,
  EXCEL_MAX_BYTES,
  extensionOf,
  fail,
  MESSAGES,
  ok,
  UPLOAD_MESSAGES,
} from '@caravan/contracts';
import {
  BusinessError,
  type EntityStore,
  type IdentifiedRequest,
  type ServiceKit,
} from '@caravan/service-kit';
import busboy from 'busboy';
import type { Request, Response } from 'express';
import { ImportQueue, QUEUE_BOUNDS } from '../domain/invoice/importQueue';
import { readInvoiceIsolated, WORKER_BOUNDS } from '../domain/invoice/isolatedRead';
import { InvoiceReadError } from '../domain/invoice/readInvoice';
import { abandon, unreadableForm } from './upload';

type Received = { path: string | null; name: string; truncated: boolean; fields: Record<string, string> };

/** Streams the form's one file to a temporary file (never whole into memory), cut at the Excel limit. */
function receiveToDisk(req: Request, dir: string): Promise<Received> {
  return new Promise<Received>((resolve, reject) => {
    const got: Received = { path: null, name: '', truncated: false, fields: {} };
    const writes: Promise<void>[] = [];
    const form = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      limits: { fileSize: EXCEL_MAX_BYTES, files: 1, fields: 10, fieldSize: 1000 },
    });
    form.on('file', (_field, stream, info) => {
      got.name = info.filename ?? '';
      got.path = join(dir, 'upload');
      const out = createWriteStream(got.path);
      writes.push(
        new Promise((done, failed) => {
          out.on('finish', done);
          out.on('error', failed);
        }),
      );
      stream.on('limit', () => (got.truncated = true));
      // 'Unexpected end of form' reaches the file's stream too: unheard, it would crash the service
      stream.on('error', (err) => {
        out.destroy();
        reject(err);
      });
      stream.pipe(out);
    });
    form.on('field', (name, value) => (got.fields[name] = value));
    form.on('close', () => Promise.all(writes).then(() => resolve(got), reject));
    form.on('error', reject);
    req.on('error', reject);
    req.pipe(form);
  }).catch((err: unknown) => {
    abandon(req);
    throw err;
  });
}

/**
 * POST /api/client_order_excel_import (spec §7): multipart file, type 'invoice', orderId. Reads a
 * supplier invoice into rows for the edit dialog; nothing is stored until the dialog's import
 * (client_order_position_import). Only for a draft order the caller may change.
 */
export function registerExcelImport(
  kit: ServiceKit,
  orders: () => EntityStore,
  env: Record<string, string | undefined> = process.env,
) {
  const bounds = importBounds(env);
  const queue = new ImportQueue(bounds.queue);
  kit.api.post('/client_order_excel_import', async (req: Request, res: Response) => {
    const dir = await mkdtemp(join(tmpdir(), 'caravan-import-'));
    try {
      let got: Received;
      try {
        got = await receiveToDisk(req, dir);
      } catch {
        res.status(400).json(fail(unreadableForm(req)));
        return;
      }
      if (!got.path) return void res.json(fail(UPLOAD_MESSAGES.noFile));
      if (got.truncated) return void res.json(fail(UPLOAD_MESSAGES.tooBig(EXCEL_MAX_BYTES)));
      const extension = extensionOf(got.name);
      if (!(EXCEL_EXTENSIONS as readonly string[]).includes(extension))
        return void res.json(fail(UPLOAD_MESSAGES.extension(EXCEL_EXTENSIONS)));
      if ((got.fields.type ?? 'invoice') !== 'invoice') return void res.json(fail(UPLOAD_MESSAGES.rejected));
      const orderId = Number(got.fields.orderId);
      if (!Number.isInteger(orderId) || orderId <= 0) return void res.json(fail(MESSAGES.notFound));
      const { identity } = req as IdentifiedRequest;
      const store = orders();
      const order = await store.get(kit.db, identity, orderId);
      if (!(await store.rights(kit.db, identity, orderId)).write)
        return void res.json(fail(MESSAGES.accessDenied));
      if (order.stage !== 'draft') return void res.json(fail(BULK_MESSAGES.importDraftOnly));
      const path = got.path;
      const result = await queue.run(identity.user_id, () =>
        readInvoiceIsolated(path, extension as 'xlsx' | 'xls', {}, bounds.worker),
      );
      res.json(ok(result));
    } catch (err) {
      if (err instanceof BusinessError || err instanceof InvoiceReadError) res.json(fail(err.message));
      else {
        kit.log.error({ err }, 'excel import failed');
        res.status(500).json(fail(MESSAGES.somethingWentWrong));
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}

/** The import's bounds from the environment (docs/adr/0016-import-as-suppliers-write.md). */
function importBounds(env: Record<string, string | undefined>) {
  const positive = (name: string, fallback: number) => {
    const value = Number(env[name]);
    return Number.isInteger(value) && value > 0 ? value : fallback;
  };
  return {
    queue: {
      concurrency: positive('IMPORT_CONCURRENCY', QUEUE_BOUNDS.concurrency),
      waiting: positive('IMPORT_QUEUE', QUEUE_BOUNDS.waiting),
      maxWaitMs: QUEUE_BOUNDS.maxWaitMs,
    },
    worker: {
      memoryMb: positive('IMPORT_WORKER_MEMORY_MB', WORKER_BOUNDS.memoryMb),
      timeoutMs: positive('IMPORT_TIMEOUT_MS', WORKER_BOUNDS.timeoutMs),
    },
  };
}
