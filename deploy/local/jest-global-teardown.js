module.exports = async () => {
  const infra = await import('./infra.mjs');
  await infra.deleteTopics(process.env.KAFKA_BROKERS, process.env.CARAVAN_TEST_RUN_PREFIX);
  await infra.stopPostgres();
};
