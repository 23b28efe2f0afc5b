// Integration tests: a fresh `caravan_test` database and a per-run Kafka topic prefix on the real broker.
// CARAVAN_TEST_DATABASE renames the databases, so two runs on one machine do not drop each other's.
module.exports = async () => {
  const database = process.env.CARAVAN_TEST_DATABASE || 'caravan_test';
  const infra = await import('./infra.mjs');
  const topicPrefix = process.env.KAFKA_TOPIC_PREFIX || `test-${Date.now()}-`;
  const { DATABASE_URL, KAFKA_BROKERS } = await infra.up(database, { fresh: true, topicPrefix });
  // The whole-system tests (gateway/test) seed demo data: their own database, apart from the service tests.
  const SYSTEM_DATABASE_URL = await infra.ensurePostgres(`${database}_system`, { fresh: true });
  Object.assign(process.env, {
    DATABASE_URL,
    SYSTEM_DATABASE_URL,
    KAFKA_BROKERS,
    KAFKA_TOPIC_PREFIX: topicPrefix,
    LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
  });
};
