import { ALL_TOPICS, prefixedTopic, TOPIC_PARTITIONS } from '@caravan/contracts';
import {
  Kafka,
  logLevel,
  Partitioners,
  type Admin,
  type Producer,
  type RetryOptions,
  type SASLOptions,
} from 'kafkajs';
import type { Logger } from '../logger';

export function createKafka(clientId: string, brokers: string[], log: Logger, sasl?: SASLOptions): Kafka {
  const toPino = {
    [logLevel.ERROR]: 'error',
    [logLevel.WARN]: 'warn',
    [logLevel.INFO]: 'info',
    [logLevel.DEBUG]: 'debug',
  };
  return new Kafka({
    clientId,
    brokers,
    ...(sasl ? { sasl } : {}),
    logLevel: logLevel.WARN,
    retry: { initialRetryTime: 200, retries: 8 },
    logCreator:
      () =>
      ({ level, log: entry }) => {
        const { message, ...rest } = entry;
        // The outbox relay owns retries (rows stay unsent until acknowledged), so bounded producer retries are intended.
        if (String(message).startsWith('Limiting retries for the idempotent producer')) return;
        // Protocol responses with an error (coordinator loading, leader moving) are retried by kafkajs itself.
        const retried = level === logLevel.ERROR && String(message).startsWith('Response ');
        const method = (retried ? 'warn' : (toPino[level as keyof typeof toPino] ?? 'info')) as 'info';
        log[method]({ kafka: rest }, String(message));
      },
  });
}

/** `retry` bounds one send; the outbox relay retries beyond it with its own backoff. */
export function createProducer(kafka: Kafka, retry?: RetryOptions): Producer {
  return kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
    ...(retry ? { retry } : {}),
  });
}

/** Creates the topics of the contracts list (idempotent), each with TOPIC_PARTITIONS partitions. */
export async function ensureTopics(
  kafka: Kafka,
  prefix: string,
  topics: readonly string[] = ALL_TOPICS,
  retry?: RetryOptions,
) {
  const admin = kafka.admin(retry ? { retry } : undefined);
  await admin.connect();
  try {
    const ours = topics.map((t) => prefixedTopic(prefix, t));
    const existing = new Set(await admin.listTopics());
    const missing = ours.filter((t) => !existing.has(t));
    if (missing.length) {
      await admin
        .createTopics({
          waitForLeaders: true,
          topics: missing.map((topic) => ({ topic, numPartitions: TOPIC_PARTITIONS, replicationFactor: 1 })),
        })
        .catch((err: unknown) => {
          // services starting together race to create the same topics: another one's creation is as good
          if (!createdByAnother(err)) throw err;
        });
    }
    // topics another service has just created may have no leader yet: its consumers would find none
    await untilLed(admin, ours);
    return missing;
  } finally {
    await admin.disconnect();
  }
}

const createdByAnother = (err: unknown) => {
  const errors = (err as { errors?: { type?: string }[] } | null)?.errors;
  return (
    Array.isArray(errors) && errors.length > 0 && errors.every((e) => e?.type === 'TOPIC_ALREADY_EXISTS')
  );
};

/** Waits (at most `ms`) until the broker names a leader for every partition of the topics. */
async function untilLed(admin: Admin, topics: string[], ms = 30_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const led = await admin.fetchTopicMetadata({ topics }).then(
      ({ topics: found }) =>
        found.length === topics.length &&
        found.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0)),
      () => false,
    );
    if (led && (await allReadable(admin, topics))) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * A leader named in the metadata may not hold the partition's log yet (a loaded single-node broker
 * answers ListOffsets with 'not the leader' for seconds after creating many topics): a consumer
 * starting then waits out its whole retry budget. Ready means the offsets of every partition answer.
 */
async function allReadable(admin: Admin, topics: string[]) {
  for (const topic of topics) {
    const readable = await admin.fetchTopicOffsets(topic).then(
      () => true,
      () => false,
    );
    if (!readable) return false;
  }
  return true;
}
