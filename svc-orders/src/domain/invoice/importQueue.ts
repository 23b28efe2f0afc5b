import { BULK_MESSAGES } from '@caravan/contracts';
import { InvoiceReadError } from './table';

/** env IMPORT_CONCURRENCY (files read at once), IMPORT_QUEUE (files waiting their turn). */
export type QueueBounds = { concurrency: number; waiting: number };
export const QUEUE_BOUNDS: QueueBounds = { concurrency: 1, waiting: 8 };

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
      else await new Promise<void>((go) => this.queue.push(go));
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

  get size() {
    return { running: this.running, waiting: this.queue.length };
  }
}
