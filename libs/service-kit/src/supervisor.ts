import type { ChildProcess } from 'node:child_process';

/**
 * What `npm start` does with its children, as an orchestrator would: a crashed service is restarted
 * after a growing pause (and says so) instead of the whole system stopping; stopping waits only for
 * the children still alive, so a child killed by a signal (exitCode stays null, signalCode is set)
 * never makes the stop hang.
 */

/** Exited, by a code or by a signal: `exitCode` alone is null for a child killed by a signal. */
export const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

export type Backoff = { baseMs: number; maxMs: number; stableMs: number };
export const DEFAULT_BACKOFF: Backoff = { baseMs: 1000, maxMs: 30_000, stableMs: 60_000 };

/** The pause before restart number `attempt` (0 for the first): doubling from baseMs, capped at maxMs. */
export const restartDelay = (attempt: number, b: Backoff = DEFAULT_BACKOFF) =>
  Math.min(b.maxMs, b.baseMs * 2 ** Math.min(attempt, 30));

const describeExit = (code: number | null, signal: NodeJS.Signals | null) =>
  signal ? `killed by ${signal}` : `code ${code}`;

type Supervised = {
  name: string;
  start: () => ChildProcess;
  child: ChildProcess;
  attempt: number;
  startedAt: number;
  timer?: NodeJS.Timeout;
};

export class Supervisor {
  private readonly all: Supervised[] = [];
  private stopping = false;

  constructor(
    private readonly log: (line: string) => void = (line) => console.error(`[start] ${line}`),
    private readonly backoff: Backoff = DEFAULT_BACKOFF,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts a child and keeps it running: each crash restarts it after restartDelay. */
  run(name: string, start: () => ChildProcess): ChildProcess {
    const entry: Supervised = { name, start, child: start(), attempt: 0, startedAt: this.now() };
    this.all.push(entry);
    this.watch(entry);
    return entry.child;
  }

  /** The children as they are now (a restarted service's newest process). */
  get children(): ChildProcess[] {
    return this.all.map((e) => e.child);
  }

  private watch(entry: Supervised) {
    entry.child.once('exit', (code, signal) => {
      if (this.stopping) return;
      // a child that stayed up a while crashed afresh: start the backoff over
      if (this.now() - entry.startedAt >= this.backoff.stableMs) entry.attempt = 0;
      const delay = restartDelay(entry.attempt, this.backoff);
      entry.attempt += 1;
      this.log(
        `${entry.name} exited (${describeExit(code, signal)}); restarting in ${(delay / 1000).toFixed(1)}s (restart ${entry.attempt})`,
      );
      entry.timer = setTimeout(() => {
        entry.timer = undefined;
        if (this.stopping) return;
        entry.child = entry.start();
        entry.startedAt = this.now();
        this.watch(entry);
      }, delay);
    });
  }

  /**
   * Stops every child still alive (SIGTERM, then SIGKILL after graceMs) and resolves when all have
   * exited; pending restarts are cancelled.
   */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    for (const e of this.all) if (e.timer) clearTimeout(e.timer);
    const alive = this.all.map((e) => e.child).filter((c) => !hasExited(c));
    await Promise.all(
      alive.map(
        (child) =>
          new Promise<void>((resolve) => {
            const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
            child.once('exit', () => {
              clearTimeout(kill);
              resolve();
            });
            if (hasExited(child)) resolve();
            else child.kill('SIGTERM');
          }),
      ),
    );
  }
}
