// The whole system as `npm start` starts it, in a child process on shifted ports with its own fresh
// database and topic prefix: for the bench and the web size report.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { localKafka, root } from './infra.mjs';

const ALL_THERE = /Caravan is running/;
const WEB_BUILT = /web apps all built/;

/** Starts it; resolves when `readyPath` answers, with its base URL, a stop function, start.mjs's pid and the topic prefix. */
export async function startSystemProcess({
  offset,
  database,
  prefix,
  web = true,
  readyPath = '/api/healthz',
}) {
  const baseUrl = `http://127.0.0.1:${8080 + offset}`;
  const kafkaWasRunning =
    Boolean(process.env.KAFKA_BROKERS) ||
    spawnSync(path.join(root, 'deploy/local/kafka/kafka.sh'), ['status'], {
      env: { ...process.env, ...localKafka(offset).env },
    }).status === 0;
  const topicPrefix = `${prefix}-${Date.now()}-`;
  const system = spawn(process.execPath, [path.join(root, 'deploy/local/start.mjs')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      CARAVAN_PORT_OFFSET: String(offset),
      CARAVAN_DATABASE: database,
      CARAVAN_FRESH_DB: '1',
      KAFKA_TOPIC_PREFIX: topicPrefix,
      ...(web ? {} : { CARAVAN_NO_WEB: '1' }),
      ...(kafkaWasRunning ? { CARAVAN_KEEP_KAFKA: '1' } : {}),
      LOG_LEVEL: 'error',
    },
  });
  // its gateway answers before the services are ready and its remotes may still be building: its own
  // lines say when all is there (docs/adr/0032)
  let tail = '';
  let running = false;
  let webBuilt = !web;
  system.stdout.on('data', (d) => {
    const text = tail + d; // a line split between two chunks is still seen
    running ||= ALL_THERE.test(text);
    webBuilt ||= WEB_BUILT.test(text);
    tail = text.slice(-100);
  });
  const allThere = () => running && webBuilt;
  const stop = async () => {
    if (system.exitCode !== null || system.signalCode !== null) return;
    system.kill('SIGTERM');
    await new Promise((r) => system.once('exit', r));
  };
  const deadline = Date.now() + 600_000;
  for (;;) {
    if (system.exitCode !== null || system.signalCode !== null)
      throw new Error('the system exited before it was ready');
    const ready = await fetch(`${baseUrl}${readyPath}`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready && allThere()) return { baseUrl, stop, pid: system.pid, topicPrefix };
    if (Date.now() > deadline) {
      await stop();
      throw new Error('the system was not ready after 10 minutes');
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}
