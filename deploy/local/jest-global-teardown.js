module.exports = async () => {
  const infra = await import('./infra.mjs');
  await infra.deleteTopics(process.env.KAFKA_BROKERS, process.env.KAFKA_TOPIC_PREFIX);
  await infra.stopPostgres();
};
