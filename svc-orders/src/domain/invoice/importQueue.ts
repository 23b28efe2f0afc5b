import { BULK_MESSAGES } from '@caravan/contracts';
import { InvoiceReadError } from './table';

/**
 * env IMPORT_CONCURRENCY (files read at once), IMPORT_QUEUE (files waiting their turn); a file waits at
 * most `maxWaitMs`, so that waiting and reading (IMPORT_TIMEOUT_MS) stay within the gateway's 120 s.
 */
export type QueueBounds = { concurrency: number; waiting: number; maxWaitMs?: number };
export const QUEUE_BOUNDS: Required<QueueBounds> = { concurrency: 1, waiting: 8, maxWaitMs: 50_000 };

/**
 * Imports take turns (docs/adr/0016-import-as-suppliers-write.md): at most `concurrency` files are
 * read at once in the service, at most `waiting` wait for their turn, and one user has one file in the
 * queue at a time. The rest are refused in words at once (importBusy, importUserBusy) rather than
 * piling up memory and CPU while the service's other calls wait.
 */
export class ImportQueue {
  private running = 0;
  private readonly queue: (() => void)[] = [];
  private readonly users = new Set<number>();

  constructor(private readonly bounds: QueueBounds = QUEUE_BOUNDS) {}

  async run<T>(user: number, task: () => Promise<T>): Promise<T> {
    if (this.users.has(user)) throw new InvoiceReadError(BULK_MESSAGES.importUserBusy);
    if (this.running >= this.bounds.concurrency && this.queue.length >= this.bounds.waiting)
      throw new InvoiceReadError(BULK_MESSAGES.importBusy);
    this.users.add(user);
    try {
      // a finished file hands its slot straight to the next one waiting
      if (this.running < this.bounds.concurrency) this.running++;
      else await this.turn();
      try {
        return await task();
      } finally {
        const next = this.queue.shift();
        if (next) next();
        else this.running--;
      }
    } finally {
      this.users.delete(user);
    }
  }

  /** Waits for a finished file's slot; refused as busy when it does not come in time. */
  private turn(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const go = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.queue.splice(this.queue.indexOf(go), 1);
        reject(new InvoiceReadError(BULK_MESSAGES.importBusy));
      }, this.bounds.maxWaitMs ?? QUEUE_BOUNDS.maxWaitMs);
      this.queue.push(go);
    });
  }

  get size() {
    return { running: this.running, waiting: this.queue.length };
  }
}
