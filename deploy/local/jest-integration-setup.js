/* global jest */
// Integration tests start real services and wait for real Kafka deliveries.
jest.setTimeout(60000);
