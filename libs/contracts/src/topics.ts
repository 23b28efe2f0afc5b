/**
 * Kafka topics, named `<service>.<entity>.v<N>` and keyed by the aggregate id.
 * deploy/local creates them explicitly; `KAFKA_TOPIC_PREFIX` isolates test runs on a shared broker.
 */
export const TOPICS = {
  carriersCountry: 'carriers.country.v1',
  carriersCurrency: 'carriers.currency.v1',
  paymentsWallet: 'payments.wallet.v1',
  ordersClient: 'orders.client.v1',
} as const;
export type TopicName = (typeof TOPICS)[keyof typeof TOPICS];

export const TOPIC_PARTITIONS = 3;
export const ALL_TOPICS: readonly TopicName[] = Object.values(TOPICS);

/** Which topic carries the entity-changed events of an entity. */
export const ENTITY_TOPICS: Record<string, TopicName> = {
  country: TOPICS.carriersCountry,
  currency: TOPICS.carriersCurrency,
  wallet: TOPICS.paymentsWallet,
  client: TOPICS.ordersClient,
};

export const prefixedTopic = (prefix: string | undefined, topic: string) => `${prefix ?? ''}${topic}`;
