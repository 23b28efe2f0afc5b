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

/** What the pace leaves for the calls' arrival jitter at the vendor: 5 % of each interval (50 ms a second). */
export const JITTER_ALLOWANCE = 0.05;

/**
 * The pace of one vendor's calls from one replica: its budget shared among the replicas, evenly spaced (a
 * burst of one) and 5 % apart more than the budget needs, so no second of the vendor's holds more calls than
 * the budget, the round's first included, even when arrivals jitter by tens of milliseconds. A bucket that
 * saved up a second's worth sent nearly twice the budget in a round's first second (the carriers bench saw 84
 * calls in a second at a budget of 50) and drew 429s; calls spaced at exactly the budget now and then landed
 * one too many in a vendor's second (11 at a budget of 10).
 */
export function vendorPace(requestsPerSecond: number, replicas: number, clock: Clock = realClock) {
  return new TokenBucket(requestsPerSecond / replicas / (1 + JITTER_ALLOWANCE), 1, clock);
}
