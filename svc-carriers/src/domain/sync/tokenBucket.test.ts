import { TokenBucket, vendorPace, type Clock } from './tokenBucket';

/** A clock that moves only when a taker sleeps: each sleep advances it by exactly what was asked. */
function fakeClock() {
  let now = 1_000_000;
  const sleeps: number[] = [];
  const clock: Clock = {
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  };
  return { clock, sleeps, at: () => now };
}

describe('TokenBucket', () => {
  test('a vendor allowing 2 requests a second gets its burst at once, then one every 500 ms', async () => {
    const { clock, at } = fakeClock();
    const bucket = new TokenBucket(2, 2, clock);
    const start = at();
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      await bucket.take();
      times.push(at() - start);
    }
    expect(times).toEqual([0, 0, 500, 1000, 1500]);
  });

  test("a pause (the vendor's Retry-After) holds every request until it ends", async () => {
    const { clock, at } = fakeClock();
    const bucket = new TokenBucket(10, 10, clock);
    const start = at();
    bucket.pause(3000);
    await bucket.take();
    expect(at() - start).toBe(3000);
  });

  test('a stopped sync is not kept waiting', async () => {
    const { clock, sleeps } = fakeClock();
    const bucket = new TokenBucket(1, 1, clock);
    await bucket.take();
    const stop = new AbortController();
    stop.abort();
    await bucket.take(stop.signal);
    expect(sleeps).toEqual([]);
  });

  test('a rate divided among replicas paces each replica slower', async () => {
    const { clock, at } = fakeClock();
    // PEC's budget shared by 4 replicas: each may send one request every 4 s at 1 request a second
    const bucket = new TokenBucket(1 / 4, 1, clock);
    const start = at();
    await bucket.take();
    await bucket.take();
    expect(at() - start).toBe(4000);
  });

  test("a vendor's calls are evenly spaced with room for jitter: no second holds more than the budget, the round's first included", async () => {
    const { clock, at } = fakeClock();
    const pace = vendorPace(5, 1, clock);
    const start = at();
    const times: number[] = [];
    for (let i = 0; i < 11; i++) {
      await pace.take();
      times.push(at() - start);
    }
    expect(times).toEqual([0, 210, 420, 630, 840, 1050, 1260, 1470, 1680, 1890, 2100]);
    // six calls (one over the budget) never fit in one second, even arriving 50 ms closer together
    for (let i = 0; i + 5 < times.length; i++) expect(times[i + 5]! - times[i]!).toBeGreaterThanOrEqual(1050);
  });

  test('two replicas sharing a budget of 10 each send one call every 210 ms', async () => {
    const { clock, at } = fakeClock();
    const pace = vendorPace(10, 2, clock);
    const start = at();
    for (let i = 0; i < 3; i++) await pace.take();
    expect(at() - start).toBe(420);
  });
});
