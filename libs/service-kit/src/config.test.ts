import { kafkaSasl, loadConfig } from './config';

describe('the brokers login (KAFKA_SASL_*)', () => {
  it('is none when no username is set, as on a local broker', () => {
    expect(kafkaSasl(loadConfig({}, {}))).toBeUndefined();
  });

  it('is SCRAM-SHA-512 as the KafkaUser of deploy/k8s', () => {
    const config = loadConfig({}, { KAFKA_SASL_USERNAME: 'svc-orders', KAFKA_SASL_PASSWORD: 's3cret' });
    expect(kafkaSasl(config)).toEqual({
      mechanism: 'scram-sha-512',
      username: 'svc-orders',
      password: 's3cret',
    });
  });

  it('refuses a username without its password rather than connect anonymously', () => {
    expect(() => kafkaSasl(loadConfig({}, { KAFKA_SASL_USERNAME: 'svc-orders' }))).toThrow(
      'KAFKA_SASL_PASSWORD must be set with KAFKA_SASL_USERNAME',
    );
  });
});
