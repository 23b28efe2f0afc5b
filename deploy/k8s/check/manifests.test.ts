import { ALL_TOPICS, TOPIC_PARTITIONS } from '@caravan/contracts';
import Ajv from 'ajv';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  containerEnv,
  containerOf,
  NODE_DEPLOYABLES,
  ofKind,
  OVERLAYS,
  renderOverlay,
  ROOT,
  secretsOutside,
  variablesRead,
  type K8sObject,
} from './render';

/**
 * deploy/k8s as CI checks it (docs/adr/0031): every overlay renders with kustomize, every object is
 * valid for Kubernetes and for the operators' CRDs, every topic of the contracts has its KafkaTopic,
 * and every variable a deployable's code reads is set in its Deployment.
 */
const rendered: Record<string, K8sObject[]> = Object.fromEntries(OVERLAYS.map((o) => [o, renderOverlay(o)]));
const renderedOf = (overlay: string) => rendered[overlay] ?? [];
const CUSTOM = /strimzi\.io|cnpg\.io/;

describe.each(OVERLAYS)('the %s overlay', (overlay) => {
  const objects = renderedOf(overlay);

  it('renders every part: the services, the gateway, the static sites, PostgreSQL and Kafka', () => {
    const names = (kind: string) => ofKind(objects, kind).map((o) => o.metadata.name);
    expect(names('Deployment')).toEqual(
      expect.arrayContaining([...NODE_DEPLOYABLES, 'shell', 'mf-orders', 'mf-wallet', 'mf-directories']),
    );
    expect(names('Cluster')).toEqual(['caravan-pg']);
    expect(names('Kafka')).toEqual(['caravan']);
    expect(names('KafkaUser').sort()).toEqual([...NODE_DEPLOYABLES].sort());
  });

  it('validates every Kubernetes object against the API schemas (kubernetes-models)', () => {
    const builtIn = objects.filter((o) => !CUSTOM.test(o.apiVersion));
    const problems = JSON.parse(
      execFileSync('node', [path.join(__dirname, 'validate-kubernetes.mjs')], {
        input: JSON.stringify(builtIn),
        encoding: 'utf8',
      }),
    ) as string[];
    expect(problems).toEqual([]);
  });

  it("validates every custom resource against the operators' CRD schemas (schemas/crds.json)", () => {
    const schemas = JSON.parse(readFileSync(path.join(ROOT, 'deploy/k8s/schemas/crds.json'), 'utf8'));
    const ajv = new Ajv({ allErrors: true });
    ajv.addSchema({ definitions: schemas.definitions }, 'crds');
    const problems = objects
      .filter((o) => CUSTOM.test(o.apiVersion))
      .flatMap((o) => {
        const schema = schemas.kinds[`${o.apiVersion}/${o.kind}`];
        if (!schema) return [`${o.kind} ${o.metadata.name}: no schema for ${o.apiVersion}`];
        const validate = ajv.compile(
          JSON.parse(JSON.stringify(schema).replaceAll('"#/definitions', '"crds#/definitions')),
        );
        return validate(o) ? [] : [`${o.kind} ${o.metadata.name}: ${ajv.errorsText(validate.errors)}`];
      });
    expect(problems).toEqual([]);
  });

  it('has a KafkaTopic for every topic of the contracts, with its partitions and a retention', () => {
    const topics = new Map(
      ofKind(objects, 'KafkaTopic').map((t) => [t.spec?.topicName ?? t.metadata.name, t.spec]),
    );
    const missing = ALL_TOPICS.filter((t) => !topics.has(t));
    expect(missing).toEqual([]);
    for (const topic of ALL_TOPICS) {
      const spec = topics.get(topic) as { partitions: number; config: Record<string, unknown> };
      expect({ topic, partitions: spec.partitions }).toEqual({ topic, partitions: TOPIC_PARTITIONS });
      expect(Number(spec.config['retention.ms'])).toBeGreaterThan(0);
    }
  });

  it('gives each service and the gateway ≥ 2 replicas, probes, resources, a PodDisruptionBudget and an autoscaler', () => {
    for (const name of NODE_DEPLOYABLES) {
      const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === name)!;
      const container = containerOf(deployment);
      expect({ name, replicas: deployment.spec?.replicas }).toEqual({ name, replicas: 2 });
      expect(container.livenessProbe?.httpGet?.path).toBe('/healthz');
      expect(container.readinessProbe?.httpGet?.path).toBe('/readyz');
      expect(container.resources?.requests?.cpu).toBeDefined();
      expect(container.resources?.limits?.memory).toBeDefined();
      const pdb = ofKind(objects, 'PodDisruptionBudget').find((p) => p.metadata.name === name);
      expect(pdb?.spec?.minAvailable).toBe(1);
      const hpa = ofKind(objects, 'HorizontalPodAutoscaler').find((h) => h.metadata.name === name);
      expect(hpa?.spec?.minReplicas).toBeGreaterThanOrEqual(2);
    }
  });

  it('sets in its Deployment every variable the code of each deployable reads', () => {
    for (const name of NODE_DEPLOYABLES) {
      const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === name)!;
      const env = containerEnv(objects, containerOf(deployment));
      const unset = [...variablesRead(name)].filter((v) => !env.has(v));
      expect({ name, unset }).toEqual({ name, unset: [] });
    }
  });

  it('refers only to ConfigMaps and Secrets it renders, its KafkaUsers make or production keeps outside git', () => {
    const users = new Set(ofKind(objects, 'KafkaUser').map((u) => u.metadata.name));
    const has = (kind: string, name: string) =>
      objects.some((o) => o.kind === kind && o.metadata.name === name) ||
      (kind === 'Secret' &&
        (users.has(name) || (overlay === 'production' && secretsOutside(name).length > 0)));
    const dangling = ofKind(objects, 'Deployment').flatMap((d) => {
      const c = containerOf(d);
      const refs = [
        ...(c.envFrom ?? []).map((f): [string, string] =>
          f.configMapRef ? ['ConfigMap', f.configMapRef.name] : ['Secret', f.secretRef!.name],
        ),
        ...(c.env ?? []).flatMap((v): [string, string][] => {
          const s = v.valueFrom?.secretKeyRef;
          return s ? [['Secret', s.name]] : [];
        }),
      ];
      return refs
        .filter(([kind, ref]) => !has(kind, ref))
        .map(([kind, ref]) => `${d.metadata.name}: ${kind} ${ref}`);
    });
    expect(dangling).toEqual([]);
  });
});

it("grants each KafkaUser Write on its own service's topics only", () => {
  const users = ofKind(renderedOf('production'), 'KafkaUser');
  for (const user of users) {
    const own = user.metadata.name.replace(/^svc-/, '');
    const acls = (
      user.spec as {
        authorization: { acls: { resource: { type: string; name: string }; operations: string[] }[] };
      }
    ).authorization.acls;
    const written = acls.filter((a) => a.resource.type === 'topic' && a.operations.includes('Write'));
    expect(written.map((a) => a.resource.name)).toEqual([`${own}.`]);
    expect(ALL_TOPICS.filter((t) => t.startsWith(`${own}.`)).length).toBeGreaterThan(0);
  }
});
