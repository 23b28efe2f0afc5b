import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import {
  containerEnv,
  containerOf,
  decodedData,
  expand,
  NODE_DEPLOYABLES,
  renderOverlay,
  ROOT,
  variablesRead,
  type K8sObject,
} from './render';

/**
 * Each Deployment of the local overlay, run here as its pod would run it: its command, from the
 * repository root (the image's WORKDIR), with the environment the manifests give it. Only what points
 * at the cluster is moved: PostgreSQL and Kafka to this machine's (no SCRAM on the local broker), the
 * Services' names to 127.0.0.1, every port shifted by K8S_CHECK_PORT_OFFSET. Its probes must answer,
 * and every variable the process reads must be one its Deployment sets.
 */
const OFFSET = Number(process.env.K8S_CHECK_PORT_OFFSET ?? 24000);
const objects = renderOverlay('local');
const database = `${process.env.CARAVAN_TEST_DATABASE || 'caravan_test'}_k8s`;
const admin = () =>
  new Client({ connectionString: process.env.DATABASE_URL!.replace(/\/[^/]*$/, '/postgres') });
let running: ChildProcess | null = null;

beforeAll(async () => {
  const client = admin();
  await client.connect();
  await client.query(`drop database if exists "${database}" with (force)`);
  await client.query(`create database "${database}"`);
  await client.end();
}, 60_000);

/** SIGTERM, as Kubernetes ends a pod: the service leaves its consumer groups; SIGKILL after 10 s. */
afterEach(async () => {
  const child = running;
  running = null;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(killer);
}, 20_000);

afterAll(async () => {
  const client = admin();
  await client.connect();
  await client.query(`drop database if exists "${database}" with (force)`);
  await client.end();
}, 60_000);

/** The pod's environment, from the ConfigMaps and Secrets of the render; the Strimzi user's password is the operator's. */
function podEnv(deployment: K8sObject): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const [name, source] of containerEnv(objects, containerOf(deployment))) {
    if (source.from === 'value') {
      resolved[name] = expand(source.value, resolved);
      continue;
    }
    const kind = source.from === 'configMap' ? 'ConfigMap' : 'Secret';
    const object = objects.find((o) => o.kind === kind && o.metadata.name === source.name);
    resolved[name] = object ? (decodedData(object)[source.key] ?? '') : 'made-by-the-strimzi-user-operator';
  }
  return resolved;
}

/** What only the cluster has, moved to this machine. */
function onThisMachine(env: Record<string, string>): Record<string, string> {
  const moved: Record<string, string> = { ...env };
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${database}`;
  moved.DATABASE_URL = url.toString();
  moved.KAFKA_BROKERS = process.env.KAFKA_BROKERS!;
  moved.KAFKA_SASL_USERNAME = '';
  // topics and consumer groups of their own: these pods seed demo data into another database, and a pod sharing the
  // service tests' groups took partitions (and events) from the svc-orders a later test file started
  moved.KAFKA_TOPIC_PREFIX = `${process.env.KAFKA_TOPIC_PREFIX ?? ''}k8s-`;
  moved.HOST = '127.0.0.1';
  for (const [name, value] of Object.entries(moved)) {
    if (/(^|_)PORT$/.test(name) && /^\d+$/.test(value) && value !== '0')
      moved[name] = String(Number(value) + OFFSET);
    const service = value.match(/^http:\/\/(svc-[a-z]+):(\d+)$/);
    if (service) moved[name] = `http://127.0.0.1:${Number(service[2]) + OFFSET}`;
  }
  return moved;
}

async function answers(url: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return (await res.json()) as { ok: boolean };
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = String((err as Error).cause ?? err);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url}: no answer in ${timeoutMs / 1000}s (${last})`);
}

const deployments = objects.filter(
  (o) => o.kind === 'Deployment' && NODE_DEPLOYABLES.some((n) => o.metadata.name.startsWith(n)),
);

it.each(deployments.map((d) => [d.metadata.name, d] as const))(
  '%s starts from its Deployment and answers its probes',
  async (name, deployment) => {
    const container = containerOf(deployment);
    const env = onThisMachine(podEnv(deployment));
    const record = path.join(tmpdir(), `caravan-k8s-env-${name}-${process.pid}`);
    rmSync(record, { force: true });
    const [command, ...args] = container.command!;
    const child = spawn(command!, ['-r', path.join(__dirname, 'record-env.cjs'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH!, ...env, CARAVAN_ENV_RECORD: record },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    running = child;
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const port = Number(env.PORT);
    try {
      for (const probe of [container.livenessProbe, container.readinessProbe])
        expect(await answers(`http://127.0.0.1:${port}${probe!.httpGet!.path}`)).toMatchObject({ ok: true });
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${stderr.slice(-2000)}`);
    }
    // what the process read and our code names (libraries' own variables aside) must be set by the Deployment
    const ours = variablesRead(NODE_DEPLOYABLES.find((n) => name.startsWith(n))!);
    const read = readFileSync(record, 'utf8')
      .split('\n')
      .filter((v) => ours.has(v));
    expect(read.length).toBeGreaterThan(5);
    expect(read.filter((v) => !(v in env))).toEqual([]);
    rmSync(record, { force: true });
  },
  180_000,
);
