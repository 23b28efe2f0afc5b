import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type TextMapGetter,
} from '@opentelemetry/api';
import type { Knex } from 'knex';

/**
 * Traces across the bus (docs/adr/0033): explicit spans, no auto-instrumentation. One setup for the
 * gateway and every service: exported over OTLP/HTTP (JSON) when OTEL_EXPORTER_OTLP_ENDPOINT is set;
 * otherwise no SDK is loaded and every helper below returns at its first line.
 */

const TRACER = '@caravan/service-kit';
/** The W3C trace context as carried by HTTP headers, Kafka headers and the outbox's `trace` column. */
export type TraceCarrier = Record<string, string>;

type Provider = { forceFlush(): Promise<void>; shutdown(): Promise<void> };
let provider: Provider | null = null;
let users = 0;

/** Exports the spans that have ended now, not at the batch's next turn (tests; before an exit). */
export const flushTraces = () => provider?.forceFlush() ?? Promise.resolve();

/** True while traces are exported in this process. */
export const tracingEnabled = () => provider !== null;

export type Tracing = {
  enabled: boolean;
  /** Exports what has ended (tests; before a process exits). */
  flush(): Promise<void>;
  /** The last user of the process's provider to stop shuts it down. */
  stop(): Promise<void>;
};

const OFF: Tracing = { enabled: false, flush: async () => {}, stop: async () => {} };

/**
 * Starts the process's tracer provider when OTEL_EXPORTER_OTLP_ENDPOINT is set (the collector's base URL:
 * traces go to `<endpoint>/v1/traces`). Several parts of one process (the tests' whole system) share the
 * first one's provider; its `service.name` names the process.
 */
export function startTracing(serviceName: string, endpoint: string): Tracing {
  if (!endpoint) return OFF;
  provider ??= createProvider(serviceName, endpoint);
  users++;
  let stopped = false;
  return {
    enabled: true,
    flush: flushTraces,
    async stop() {
      if (stopped) return;
      stopped = true;
      if (--users > 0 || !provider) return;
      const ending = provider;
      provider = null;
      await ending.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

function createProvider(serviceName: string, endpoint: string): Provider {
  // loaded only when tracing is on: a process without an endpoint never loads the SDK
  const { NodeTracerProvider, BatchSpanProcessor } =
    require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { resourceFromAttributes } =
    require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const exporter = new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` });
  const created = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  // the AsyncLocalStorage context manager and the W3C trace-context propagator, as globals
  created.register();
  return created;
}

const tracer = () => trace.getTracer(TRACER);

/** The active span records: spans of work done outside any traced action (polls, startup) are not made. */
const inTrace = (ctx: Context = context.active()) => trace.getSpan(ctx)?.isRecording() === true;

function endWith(span: Span, err?: unknown) {
  if (err) {
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: String((err as Error)?.message ?? err) });
  }
  span.end();
}

/** The active span's ids for a log line (pino's `mixin`): a line in the logs leads to its trace. */
export function traceIdsOfActiveSpan(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan();
  if (!span?.isRecording()) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** Runs `fn` in a new span (a child of the active one, or of `parent`), ending it when `fn` settles. */
export async function inSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; parent?: Context },
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = options.parent ?? context.active();
  const span = tracer().startSpan(name, { kind: options.kind, attributes: options.attributes }, parent);
  try {
    const result = await context.with(trace.setSpan(parent, span), () => fn(span));
    span.end();
    return result;
  } catch (err) {
    endWith(span, err);
    throw err;
  }
}

/** Runs `fn` in a span of its own when a traced action is under way; otherwise just runs it. */
export function inChildSpan<T>(name: string, attributes: Attributes, fn: () => Promise<T>): Promise<T> {
  if (!provider || !inTrace()) return fn();
  return inSpan(name, { attributes }, () => fn());
}

/** The active trace context to store beside an outbox row (null when nothing is traced). */
export function currentTraceCarrier(): TraceCarrier | null {
  if (!provider || !inTrace()) return null;
  const carrier: TraceCarrier = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? carrier : null;
}

/** Adds the active trace context to outgoing headers (a call to a service). */
export function injectTraceHeaders(headers: Record<string, unknown>) {
  if (provider && inTrace()) propagation.inject(context.active(), headers);
}

/** Paths traced when they come in: calls and the spec's HTTP paths, not probes, metrics, streams or static files. */
const UNTRACED = new Set(['/api/sse', '/api/healthz', '/api/readyz']);
const isTraced = (path: string) => (path === '/rpc' || path.startsWith('/api/')) && !UNTRACED.has(path);

/**
 * A server span around each traced request, a child of the caller's `traceparent` (the gateway's, or a
 * browser's). The request and response emitters are bound to it: a body parser's callbacks run in it.
 * Without tracing the listener is returned as it is.
 */
export function traceRequests(listener: RequestListener): RequestListener {
  if (!provider) return listener;
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!; // never the query: the SSE token travels there
    if (!isTraced(path)) return listener(req, res);
    const parent = propagation.extract(ROOT_CONTEXT, req.headers, headerGetter);
    const span = tracer().startSpan(
      `${req.method} ${path}`,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': req.method ?? '', 'url.path': path },
      },
      parent,
    );
    const ctx = trace.setSpan(parent, span);
    context.bind(ctx, req);
    context.bind(ctx, res);
    res.once('close', () => {
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(ctx, () => listener(req, res));
  };
}

/** Names the request's span after the call it carries (`POST /rpc client_order_update`). */
export function nameCall(route: string, method: string) {
  const span = provider ? trace.getActiveSpan() : undefined;
  if (!span) return;
  span.setAttribute('rpc.method', method);
  span.updateName(`${route} ${method}`);
}

/**
 * A client span around a call to a service; its context goes into the request headers, so the service's
 * server span is its child. Returns what ends the span (with the status, or the error).
 */
export function startClientSpan(
  name: string,
  headers: Record<string, unknown>,
): (status?: number, err?: unknown) => void {
  if (!provider || !inTrace()) return () => {};
  const span = tracer().startSpan(name, { kind: SpanKind.CLIENT });
  propagation.inject(trace.setSpan(context.active(), span), headers);
  let ended = false;
  return (status, err) => {
    if (ended) return;
    ended = true;
    if (status !== undefined) span.setAttribute('http.response.status_code', status);
    endWith(span, err);
  };
}

type QueryEvent = { __knexQueryUid: string; sql?: string; method?: string };

/**
 * A span for each SQL statement of a traced action: the statement's text with its placeholders (never
 * its values: they hold people's data), a child of the span it ran in.
 */
export function traceQueries(db: Knex) {
  if (!provider) return;
  const open = new Map<string, Span>();
  db.on('query', (q: QueryEvent) => {
    if (!inTrace()) return;
    const sql = String(q.sql ?? '');
    const operation = (/^\s*(\w+)/.exec(sql)?.[1] ?? q.method ?? 'query').toLowerCase();
    open.set(
      q.__knexQueryUid,
      tracer().startSpan(`pg ${operation}`, {
        kind: SpanKind.CLIENT,
        attributes: { 'db.system.name': 'postgresql', 'db.query.text': sql.slice(0, 2000) },
      }),
    );
  });
  const close = (q: QueryEvent | undefined, err?: unknown) => {
    const span = q && open.get(q.__knexQueryUid);
    if (!span) return;
    open.delete(q.__knexQueryUid);
    endWith(span, err);
  };
  db.on('query-response', (_response: unknown, q: QueryEvent) => close(q));
  db.on('query-error', (err: unknown, q: QueryEvent) => close(q, err));
}

/** Kafka header values are Buffers (or strings, or lists of either). */
type KafkaHeaders = Record<string, Buffer | string | (Buffer | string)[] | undefined>;

const headerGetter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get(carrier, key) {
    const value = carrier[key];
    if (value === undefined || value === null) return undefined;
    const first = Array.isArray(value) ? value[0] : value;
    return first === undefined ? undefined : String(first);
  },
};

/** The producer's side of one outbox row: a span child of the row's stored context, its own context in the message. */
export type Publishing = { headers: TraceCarrier; end(err?: unknown): void };

const NOT_TRACED: Publishing = { headers: {}, end: () => {} };

/**
 * Starts the `publish <topic>` span of an outbox row written while a traced action was under way (its
 * stored `trace`); the message carries the span's context. Rows written untraced are sent untraced.
 */
export function startPublishing(topic: string, stored: TraceCarrier | null | undefined): Publishing {
  if (!provider || !stored?.traceparent) return NOT_TRACED;
  const parent = propagation.extract(ROOT_CONTEXT, stored, headerGetter);
  const span = tracer().startSpan(
    `publish ${topic}`,
    {
      kind: SpanKind.PRODUCER,
      attributes: {
        'messaging.system': 'kafka',
        'messaging.operation.type': 'send',
        'messaging.destination.name': topic,
      },
    },
    parent,
  );
  const headers: TraceCarrier = {};
  propagation.inject(trace.setSpan(parent, span), headers);
  return { headers, end: (err) => endWith(span, err) };
}

/**
 * Handles one consumed message inside a `process <topic>` span continuing the trace its headers carry
 * (none: not traced); the handler's statements and the events it writes belong to that trace.
 */
export function consumeTraced<T>(
  topic: string,
  group: string,
  headers: KafkaHeaders | undefined,
  handle: () => Promise<T>,
): Promise<T> {
  if (!provider || !headers?.traceparent) return handle();
  const parent = propagation.extract(ROOT_CONTEXT, headers, headerGetter);
  if (!trace.getSpan(parent)) return handle();
  return inSpan(
    `process ${topic}`,
    {
      kind: SpanKind.CONSUMER,
      parent,
      attributes: {
        'messaging.system': 'kafka',
        'messaging.operation.type': 'process',
        'messaging.destination.name': topic,
        'messaging.consumer.group.name': group,
      },
    },
    async (span) => {
      const outcome = await handle();
      if (typeof outcome === 'string') span.setAttribute('caravan.inbox.outcome', outcome);
      return outcome;
    },
  );
}
