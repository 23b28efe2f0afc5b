import type { Kafka, Producer } from 'kafkajs';
import type { Logger } from '../logger';
import type { InboxConsumer } from './inbox';
import { ensureTopics } from './kafka';
import type { OutboxRelay } from './outbox';

/** 'unreachable': it was connected, but the broker does not answer now (the relay and consumers retry). */
export type BusState = 'connecting' | 'connected' | 'unreachable' | 'stopped';

/** How often the connected bus asks the broker whether it is there, and how long it waits for it. */
export type BusProbe = { everyMs: number; timeoutMs: number };
const DEFAULT_PROBE: BusProbe = { everyMs: 5000, timeoutMs: 3000 };

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 30_000;
/** One quick look at the broker per attempt; the bus itself retries with backoff. */
const PROBE_RETRY = { retries: 1, initialRetryTime: 200 };

/**
 * A service's Kafka side, brought up in the background so the service starts, answers and writes into
 * its outbox while Kafka is away: topics and producer, then the outbox relay (which catches up on
 * everything written meanwhile), then the inbox consumers, each retried with backoff (0.5 s doubling,
 * at most 30 s) until it works or the service stops.
 */
export class Bus {
  state: BusState = 'connecting';
  /** Resolves once the relay runs and every consumer has joined its group. */
  readonly ready: Promise<void>;
  private markReady!: () => void;
  private stopped = false;
  private readonly sleepers = new Set<() => void>();
  private probeTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly kafka: Kafka,
    private readonly producer: Producer,
    readonly relay: OutboxRelay,
    readonly consumers: readonly InboxConsumer[],
    private readonly topicPrefix: string,
    private readonly log: Logger,
    private readonly probe: BusProbe = DEFAULT_PROBE,
  ) {
    this.ready = new Promise((resolve) => (this.markReady = resolve));
  }

  start() {
    void this.connect();
  }

  async stop() {
    this.stopped = true;
    this.state = 'stopped';
    if (this.probeTimer) clearTimeout(this.probeTimer);
    for (const wake of this.sleepers) wake();
    await this.relay.stop();
    await Promise.all(this.consumers.map((c) => c.stop().catch(() => {})));
    await this.producer.disconnect().catch(() => {});
  }

  private async connect() {
    const connected = await this.retrying('Kafka producer', async () => {
      await ensureTopics(this.kafka, this.topicPrefix, undefined, PROBE_RETRY);
      await this.producer.connect();
    });
    if (!connected) return;
    this.relay.start();
    const joined = await Promise.all(
      this.consumers.map((c) => this.retrying('Kafka consumer', () => c.start())),
    );
    if (this.stopped || !joined.every(Boolean)) return;
    this.state = 'connected';
    this.log.info('Kafka connected');
    this.markReady();
    this.scheduleProbe();
  }

  /**
   * Once connected, the state follows the broker: a metadata request that fails or takes longer than
   * timeoutMs makes it 'unreachable' until one answers again (/readyz reports the bus as it is).
   */
  private scheduleProbe() {
    if (this.stopped) return;
    this.probeTimer = setTimeout(
      () => void this.probeOnce().finally(() => this.scheduleProbe()),
      this.probe.everyMs,
    );
  }

  private async probeOnce() {
    const admin = this.kafka.admin({ retry: { retries: 0 } });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('Kafka did not answer in time')), this.probe.timeoutMs);
    });
    try {
      await Promise.race([
        (async () => {
          await admin.connect();
          await admin.describeCluster();
        })(),
        timeout,
      ]);
      if (this.stopped) return;
      if (this.state !== 'connected') this.log.info('Kafka reachable again');
      this.state = 'connected';
    } catch (err) {
      if (this.stopped) return;
      if (this.state === 'connected') this.log.warn({ err }, 'Kafka unreachable');
      this.state = 'unreachable';
    } finally {
      clearTimeout(timer);
      void admin.disconnect().catch(() => {});
    }
  }

  /** Runs `step` until it succeeds (true) or the bus stops (false). */
  private async retrying(what: string, step: () => Promise<void>): Promise<boolean> {
    for (let delay = FIRST_RETRY_MS; !this.stopped; delay = Math.min(delay * 2, MAX_RETRY_MS)) {
      try {
        await step();
        if (this.stopped) await this.stop(); // stopped meanwhile: disconnect what just connected
        return !this.stopped;
      } catch (err) {
        if (this.stopped) return false;
        this.log.warn({ err, retryInMs: delay }, `${what} unavailable; serving without it, retrying`);
        await this.sleep(delay);
      }
    }
    return false;
  }

  private sleep(ms: number) {
    return new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }
}
