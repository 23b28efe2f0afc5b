/* global jest */
// Integration tests start real services and wait for real Kafka deliveries.
jest.setTimeout(60000);

// This worker's databases and topic prefix (jest-global-setup.js made one set per worker).
const sets = JSON.parse(process.env.CARAVAN_TEST_WORKER_ENVS || '[]');
const mine = sets[Number(process.env.JEST_WORKER_ID || 1) - 1];
if (mine) Object.assign(process.env, mine);
