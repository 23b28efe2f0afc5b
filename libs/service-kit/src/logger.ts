import pino from 'pino';
import { traceIdsOfActiveSpan } from './tracing';

export type Logger = pino.Logger;

/** Headers that carry credentials: never written to logs. */
const REDACTED = [
  'req.headers["auth-token"]',
  'req.headers["x-caravan-identity"]',
  'req.headers.cookie',
  'req.headers.authorization',
  'req.query.authToken',
];

/** A URL fit for the logs: a token in the query (the SSE path takes one) never reaches them. */
export const loggableUrl = (url: string) => url.replace(/([?&]authToken=)[^&]*/gi, '$1***');

/** pino-http's serializers for a service: the request's URL without its token. */
export const httpLogSerializers = {
  req: (req: { url?: string }) => (typeof req.url === 'string' ? { ...req, url: loggableUrl(req.url) } : req),
};

/** A process's logger; with `traceIds` (tracing on) each line in a traced action names its trace_id and span_id. */
export const createLogger = (
  name: string,
  level: string,
  destination?: pino.DestinationStream,
  options: { traceIds?: boolean } = {},
) =>
  pino(
    {
      name,
      level,
      base: { service: name },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED, censor: '[redacted]' },
      ...(options.traceIds ? { mixin: traceIdsOfActiveSpan } : {}),
    },
    destination,
  );
