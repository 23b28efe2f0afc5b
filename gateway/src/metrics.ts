import { outboxPendingGauge, type Db } from '@caravan/service-kit';
import client from 'prom-client';

/** What the gateway shows Prometheus at /metrics: its process, its outbox and the browsers' open event streams. */
export function gatewayMetrics(db: Db, openStreams: () => number) {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  outboxPendingGauge(db, registry);
  new client.Gauge({
    name: 'caravan_sse_streams',
    help: 'server-sent event streams open on this gateway instance',
    registers: [registry],
    collect() {
      this.set(openStreams());
    },
  });
  return registry;
}
