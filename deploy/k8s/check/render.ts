import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

/** The repository's root and the overlays CI renders. */
export const ROOT = path.resolve(__dirname, '../../..');
export const OVERLAYS = ['local', 'production'] as const;
/** The Node deployables: each has a Deployment whose command runs its compiled main. */
export const NODE_DEPLOYABLES = ['svc-orders', 'svc-payments', 'svc-carriers', 'gateway'] as const;

export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
};
type EnvVar = {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: KeyRef; configMapKeyRef?: KeyRef };
};
type KeyRef = { name: string; key: string };
type EnvFrom = { configMapRef?: { name: string }; secretRef?: { name: string } };
export type Container = {
  name: string;
  image: string;
  command?: string[];
  env?: EnvVar[];
  envFrom?: EnvFrom[];
  ports?: { name: string; containerPort: number }[];
  livenessProbe?: { httpGet?: { path: string } };
  readinessProbe?: { httpGet?: { path: string } };
  startupProbe?: { httpGet?: { path: string } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
};

/** `kubectl kustomize` (kustomize v5 built into kubectl) of one overlay, as objects. */
export function renderOverlay(overlay: string): K8sObject[] {
  const text = execFileSync('kubectl', ['kustomize', path.join(ROOT, 'deploy/k8s/overlays', overlay)], {
    encoding: 'utf8',
  });
  return parseAllDocuments(text)
    .map((d) => d.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
}

export const ofKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);

export function containerOf(deployment: K8sObject): Container {
  const spec = deployment.spec as { template: { spec: { containers: Container[] } } };
  const [container] = spec.template.spec.containers;
  if (!container) throw new Error(`Deployment ${deployment.metadata.name} has no container`);
  return container;
}

/** Where a variable's value comes from; `secret` values may live outside the render (operators, production). */
export type EnvSource =
  { from: 'value'; value: string } | { from: 'configMap' | 'secret'; name: string; key: string };

/** Every variable a container gets, in Kubernetes' order: envFrom first, then env overriding it. */
export function containerEnv(objects: K8sObject[], container: Container): Map<string, EnvSource> {
  const env = new Map<string, EnvSource>();
  const byName = (kind: string, name: string) =>
    objects.find((o) => o.kind === kind && o.metadata.name === name);
  for (const from of container.envFrom ?? []) {
    const ref = from.configMapRef ?? from.secretRef;
    if (!ref) continue;
    const kind = from.configMapRef ? 'ConfigMap' : 'Secret';
    const object = byName(kind, ref.name);
    const keys = object ? Object.keys({ ...object.data, ...object.stringData }) : secretsOutside(ref.name);
    for (const key of keys)
      env.set(key, { from: kind === 'ConfigMap' ? 'configMap' : 'secret', name: ref.name, key });
  }
  for (const v of container.env ?? []) {
    const ref = v.valueFrom?.secretKeyRef ?? v.valueFrom?.configMapKeyRef;
    if (ref) env.set(v.name, { from: v.valueFrom?.secretKeyRef ? 'secret' : 'configMap', ...ref });
    else env.set(v.name, { from: 'value', value: v.value ?? '' });
  }
  return env;
}

let outside: Record<string, string[]> | null = null;
/** The production Secrets kept out of git, by name, with their keys (overlays/production). */
export function secretsOutside(name: string): string[] {
  outside ??= parseAllDocuments(
    readFileSync(path.join(ROOT, 'deploy/k8s/overlays/production/secrets-provided-outside.yaml'), 'utf8'),
  )[0]?.toJS() as Record<string, string[]>;
  return outside[name] ?? [];
}

/** A value as the pod sees it: `$(VAR)` of an earlier variable expanded, as the kubelet does. */
export function expand(value: string, resolved: Record<string, string>) {
  return value.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (all, name: string) => resolved[name] ?? all);
}

export function decodedData(object: K8sObject): Record<string, string> {
  const data = Object.fromEntries(
    Object.entries(object.data ?? {}).map(([k, v]) => [
      k,
      object.kind === 'Secret' ? Buffer.from(v, 'base64').toString('utf8') : v,
    ]),
  );
  return { ...data, ...object.stringData };
}

/** The sources a deployable runs: its own and the libraries' (tests aside). */
function sourcesOf(deployable: string): string[] {
  const roots = [deployable, 'libs/service-kit', 'libs/contracts'].map((d) => path.join(ROOT, d, 'src'));
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((f) => {
      const file = path.join(dir, f);
      if (statSync(file).isDirectory()) return walk(file);
      return /\.ts$/.test(f) && !/\.test\.ts$/.test(f) && !/testing\.ts$/.test(f) ? [file] : [];
    });
  return roots.flatMap(walk);
}

/**
 * The variables a deployable's code reads: the keys of its zod env schemas (`NAME: z.…`, `NAME: orDefault(`),
 * `env.NAME` / `process.env.NAME`, and names given to a reader (`numberOf(env, 'NAME', …)`, `env['NAME']`).
 * run-locally.test.ts checks this list against what each process really reads.
 */
export function variablesRead(deployable: string): Set<string> {
  const found = new Set<string>();
  const patterns = [
    /^\s+([A-Z][A-Z0-9_]+): (?:z\.|orDefault\()/gm,
    /\benv\??\.([A-Z][A-Z0-9_]+)\b/g,
    /\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g,
    /\(env, '([A-Z][A-Z0-9_]+)'/g,
  ];
  for (const file of sourcesOf(deployable)) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of patterns) for (const m of text.matchAll(pattern)) if (m[1]) found.add(m[1]);
  }
  return found;
}
