/** A clock the bucket reads and sleeps on: real time in the service, a fake one in unit tests. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (ms <= 0 || signal?.aborted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    }),
};

/**
 * Paces the requests of one vendor: `perSecond` tokens a second, at most `burst` saved up; `pause`
 * holds every request until a moment (the vendor's Retry-After of a 429 counts for all its shipments).
 * Takers are served in the order they asked.
 */
export class TokenBucket {
  private tokens: number;
  private refilledAt: number;
  private pausedUntil = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly clock: Clock = realClock,
  ) {
    if (!(perSecond > 0)) throw new Error('a token bucket needs a positive rate');
    this.tokens = burst;
    this.refilledAt = clock.now();
  }

  pause(ms: number) {
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + ms);
  }

  /** Resolves when the caller may send one request (at once when stopped through `signal`). */
  take(signal?: AbortSignal): Promise<void> {
    const turn = this.queue.then(() => this.waitForToken(signal));
    this.queue = turn;
    return turn;
  }

  private refill() {
    const now = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) / 1000) * this.perSecond);
    this.refilledAt = now;
  }

  private async waitForToken(signal?: AbortSignal) {
    for (;;) {
      if (signal?.aborted) return;
      const paused = this.pausedUntil - this.clock.now();
      if (paused > 0) {
        await this.clock.sleep(paused, signal);
        continue;
      }
      this.refill();
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await this.clock.sleep(Math.ceil(((1 - this.tokens) / this.perSecond) * 1000), signal);
    }
  }
}
