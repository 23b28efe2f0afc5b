import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { trace } from '@opentelemetry/api';
import { createLogger } from './logger';
import {
  currentTraceCarrier,
  inSpan,
  startClientSpan,
  startPublishing,
  startTracing,
  traceRequests,
  tracingEnabled,
} from './tracing';

/** Modules of the OpenTelemetry SDK this test file's registry has loaded. */
const sdkLoaded = () => Object.keys(require.cache).filter((m) => /@opentelemetry\/sdk-trace/.test(m));
const listener: RequestListener = (_req, res) => res.end();
const stored = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };

describe('tracing without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
  it('starts nothing: no SDK loaded, requests served by the same listener, no span recorded or sent on', async () => {
    const tracing = startTracing('svc-test', '');
    expect(tracing.enabled).toBe(false);
    expect(tracingEnabled()).toBe(false);
    expect(sdkLoaded()).toEqual([]);
    expect(traceRequests(listener)).toBe(listener);

    const headers: Record<string, unknown> = {};
    await inSpan('action', {}, async (span) => {
      expect(span.isRecording()).toBe(false);
      startClientSpan('POST /rpc', headers)();
      expect(currentTraceCarrier()).toBeNull();
    });
    expect(headers).toEqual({});
    // a row stored while tracing was on is published without headers once it is off
    expect(startPublishing('carriers.country.v1', stored).headers).toEqual({});
    await tracing.stop();
  });
});

describe('tracing with an endpoint', () => {
  it('loads the SDK, records spans, hands their context on and exports them; the last stop turns it off', async () => {
    const received: string[] = [];
    const collector = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        received.push(`${req.method} ${req.url} ${body}`);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const tracing = startTracing('svc-test', `http://127.0.0.1:${(collector.address() as AddressInfo).port}`);
    expect(tracing.enabled).toBe(true);
    expect(sdkLoaded().length).toBeGreaterThan(0);
    expect(traceRequests(listener)).not.toBe(listener);

    let logged = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logged += chunk.toString();
        done();
      },
    });
    const log = createLogger('svc-test', 'info', sink, { traceIds: tracing.enabled });
    const headers: Record<string, unknown> = {};
    await inSpan('action', {}, async (span) => {
      expect(span.isRecording()).toBe(true);
      log.info('inside the action');
      expect(JSON.parse(logged)).toMatchObject({
        trace_id: span.spanContext().traceId,
        span_id: span.spanContext().spanId,
      });
      startClientSpan('POST /rpc', headers)();
      expect(currentTraceCarrier()?.traceparent).toContain(span.spanContext().traceId);
    });
    expect(String(headers.traceparent)).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(startPublishing('carriers.country.v1', stored).headers.traceparent).toContain(
      '0af7651916cd43dd8448eb211c80319c',
    );

    await tracing.stop(); // exports what is left
    collector.close();
    expect(received.join('\n')).toMatch(/^POST \/v1\/traces .*"name":"action"/);
    expect(tracingEnabled()).toBe(false);
    expect(trace.getTracer('x').startSpan('after').isRecording()).toBe(false);
  });
});
