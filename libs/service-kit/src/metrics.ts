import client from 'prom-client';
import type { Db } from './db';

/**
 * What a service shows Prometheus at /metrics (the dashboard of deploy/grafana reads these names; its test
 * fails when one is renamed): the process's own metrics, call durations, the outbox's backlog and how late
 * consumed events are handled.
 */
export function serviceMetrics(db: Db) {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const rpcDuration = new client.Histogram({
    name: 'caravan_rpc_duration_seconds',
    help: 'call_pg_func procedure duration',
    labelNames: ['method', 'ok'],
    registers: [registry],
  });
  outboxPendingGauge(db, registry);
  const inboxDelay = new client.Histogram({
    name: 'caravan_inbox_delay_seconds',
    help: "from an event's occurred_at to its handling by a subscription (outbox, relay, Kafka and the consumer)",
    labelNames: ['subscription'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  return { registry, rpcDuration, inboxDelay };
}

/** Outbox rows not yet published: grows when Kafka is out of reach or the relay falls behind. */
export function outboxPendingGauge(db: Db, registry: client.Registry) {
  return new client.Gauge({
    name: 'caravan_outbox_pending',
    help: 'outbox rows not yet published',
    registers: [registry],
    async collect() {
      const row = await db('outbox').whereNull('sent_at').count({ n: '*' }).first();
      this.set(Number(row?.n ?? 0));
    },
  });
}
