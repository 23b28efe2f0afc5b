// Integration tests: fresh databases and a per-run Kafka topic prefix on the real broker, one set per jest worker
// (docs/adr/0037): files running side by side never share rows, consumer groups or topics.
// CARAVAN_TEST_DATABASE renames the databases, so two runs on one machine do not drop each other's.
module.exports = async (globalConfig) => {
  const database = process.env.CARAVAN_TEST_DATABASE || 'caravan_test';
  const infra = await import('./infra.mjs');
  const runPrefix = process.env.KAFKA_TOPIC_PREFIX || `test-${Date.now()}-`;
  const workers = Math.max(1, globalConfig.maxWorkers ?? 1);
  const sets = [];
  // one after another: the first may start the broker or an embedded PostgreSQL the others then use
  for (let n = 1; n <= workers; n++) {
    // worker 1 keeps the plain names (a run in band is as before); worker n adds `_w<n>` and `w<n>-`
    const name = n === 1 ? database : `${database}_w${n}`;
    const topicPrefix = n === 1 ? runPrefix : `${runPrefix}w${n}-`;
    let DATABASE_URL, KAFKA_BROKERS;
    if (n === 1) ({ DATABASE_URL, KAFKA_BROKERS } = await infra.up(name, { fresh: true, topicPrefix }));
    else {
      DATABASE_URL = await infra.ensurePostgres(name, { fresh: true, own: true });
      KAFKA_BROKERS = sets[0].KAFKA_BROKERS;
      await infra.ensureTopics(KAFKA_BROKERS, topicPrefix);
    }
    // The whole-system tests (gateway/test) seed demo data: their own database, apart from the service tests.
    const SYSTEM_DATABASE_URL = await infra.ensurePostgres(`${name}_system`, { fresh: true, own: n > 1 });
    sets.push({ DATABASE_URL, SYSTEM_DATABASE_URL, KAFKA_BROKERS, KAFKA_TOPIC_PREFIX: topicPrefix });
  }
  Object.assign(process.env, {
    ...sets[0],
    // each worker takes its own set (jest-integration-setup.js); the teardown deletes the run's topics
    CARAVAN_TEST_WORKER_ENVS: JSON.stringify(sets),
    CARAVAN_TEST_RUN_PREFIX: runPrefix,
    LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
  });
};
