import { readFileSync } from 'node:fs';
import path from 'node:path';
import { serviceMetrics, type Db } from '@caravan/service-kit';
import client from 'prom-client';
import { gatewayMetrics } from '../../gateway/src/metrics';

/**
 * The dashboard asks Prometheus only for metrics our code registers: a metric renamed or dropped in
 * service-kit or the gateway fails here, not silently as an empty panel.
 */
type Panel = { title: string; type: string; targets?: { expr: string }[]; panels?: Panel[] };
const dashboard = JSON.parse(readFileSync(path.join(__dirname, 'caravan.json'), 'utf8')) as {
  panels: Panel[];
  templating: { list: { query?: string | { query: string } }[] };
};
const panels = dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]).filter((p) => p.type !== 'row');

/** A PromQL expression's metric names: what is left once functions, labels, ranges and keywords are out. */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const keywords = new Set(['and', 'or', 'unless', 'bool', 'offset']);
  return [...bare.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\b(?!\s*\()/g)]
    .map((m) => m[1]!)
    .filter((name) => !keywords.has(name));
}

const nothing = {} as Db; // the gauges query only when scraped
const registered = [
  ...serviceMetrics(nothing).registry.getMetricsAsArray(),
  ...gatewayMetrics(nothing, () => 0).getMetricsAsArray(),
];
const names = new Set(registered.map((m) => (m as unknown as { name: string }).name));
const histograms = new Set(
  registered.filter((m) => m instanceof client.Histogram).map((m) => (m as unknown as { name: string }).name),
);

/** A series name Prometheus shows for a registered metric: itself, or a histogram's _bucket/_sum/_count. */
const isRegistered = (series: string) => {
  if (names.has(series)) return true;
  const histogram = /^(.+)_(?:bucket|sum|count)$/.exec(series)?.[1];
  return histogram !== undefined && histograms.has(histogram);
};

it('reads the metric names out of PromQL', () => {
  expect(
    metricNames(
      'histogram_quantile(0.95, sum by (le, method) (rate(caravan_rpc_duration_seconds_bucket{job=~"$job"}[5m])))',
    ),
  ).toEqual(['caravan_rpc_duration_seconds_bucket']);
  expect(metricNames('sum by (job) (rate(a_sum[1m])) / sum by (job) (rate(a_count[1m]))')).toEqual([
    'a_sum',
    'a_count',
  ]);
});

it('queries in every panel only metrics the services and the gateway register', () => {
  const queried = panels.flatMap((p) =>
    (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr, metrics: metricNames(t.expr) })),
  );
  const variables = dashboard.templating.list.flatMap((v) =>
    typeof v.query === 'object' ? [{ panel: 'variable', expr: v.query.query, metrics: [] as string[] }] : [],
  );
  for (const v of variables) v.metrics = [/label_values\((\w+)/.exec(v.expr)?.[1] ?? v.expr];

  expect(panels.filter((p) => !p.targets?.length).map((p) => p.title)).toEqual([]);
  expect(queried.filter((q) => q.metrics.length === 0)).toEqual([]);
  const unknown = [...queried, ...variables].flatMap((q) =>
    q.metrics.filter((m) => !isRegistered(m)).map((m) => `${q.panel}: ${m}`),
  );
  expect(unknown).toEqual([]);
});

it('shows the calls, the outbox, the inbox delay, the processes and the SSE streams', () => {
  const used = new Set(panels.flatMap((p) => (p.targets ?? []).flatMap((t) => metricNames(t.expr))));
  for (const metric of [
    'caravan_rpc_duration_seconds_bucket',
    'caravan_outbox_pending',
    'caravan_inbox_delay_seconds_bucket',
    'caravan_sse_streams',
    'process_cpu_seconds_total',
    'process_resident_memory_bytes',
  ])
    expect({ metric, used: used.has(metric) }).toEqual({ metric, used: true });
});
