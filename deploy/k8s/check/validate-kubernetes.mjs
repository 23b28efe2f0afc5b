// Validates the Kubernetes objects given as JSON on stdin against the API's schemas as published in
// the `kubernetes-models` package (generated from Kubernetes' OpenAPI; ESM only, hence this script);
// prints a JSON list of problems, empty when every object is valid. Custom resources are not its
// business (manifests.test.ts checks them against schemas/crds.json).
import { readFileSync } from 'node:fs';

const MODELS = {
  'v1/Namespace': 'kubernetes-models/v1/Namespace',
  'v1/ConfigMap': 'kubernetes-models/v1/ConfigMap',
  'v1/Secret': 'kubernetes-models/v1/Secret',
  'v1/Service': 'kubernetes-models/v1/Service',
  'apps/v1/Deployment': 'kubernetes-models/apps/v1/Deployment',
  'policy/v1/PodDisruptionBudget': 'kubernetes-models/policy/v1/PodDisruptionBudget',
  'autoscaling/v2/HorizontalPodAutoscaler': 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler',
  'networking.k8s.io/v1/Ingress': 'kubernetes-models/networking.k8s.io/v1/Ingress',
};

const objects = JSON.parse(readFileSync(0, 'utf8'));
const problems = [];
for (const object of objects) {
  const id = `${object.apiVersion}/${object.kind}`;
  const module = MODELS[id];
  if (!module) {
    problems.push(`${id} ${object.metadata?.name}: no Kubernetes schema known for this kind`);
    continue;
  }
  const Model = Object.values(await import(module))[0];
  // kustomize folds long base64 over lines; the API server's decoder skips the line breaks, the schema's "byte" does not
  if (object.kind === 'Secret' && object.data)
    object.data = Object.fromEntries(Object.entries(object.data).map(([k, v]) => [k, v.replace(/\s/g, '')]));
  try {
    new Model(object).validate();
  } catch (err) {
    problems.push(`${id} ${object.metadata?.name}: ${err.message}`);
  }
}
process.stdout.write(JSON.stringify(problems));
