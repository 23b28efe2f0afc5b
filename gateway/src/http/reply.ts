import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { createGzip, gzip } from 'node:zlib';

/** Replies smaller than this go as they are: compressing them costs more than it saves. */
export const COMPRESS_FROM_BYTES = 1024;
const GZIP = { level: 5 };

export const acceptsGzip = (req: IncomingMessage) => /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');

/** A JSON reply on a plain Node response (the hot path does without Express), gzipped when large and accepted. */
export function sendJson(req: IncomingMessage, res: ServerResponse, status: number, body: unknown) {
  const json = Buffer.from(JSON.stringify(body));
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  if (json.length < COMPRESS_FROM_BYTES || !acceptsGzip(req)) {
    res.setHeader('content-length', json.length);
    res.end(json);
    return;
  }
  gzip(json, GZIP, (err, zipped) => {
    if (err) {
      res.setHeader('content-length', json.length);
      res.end(json);
      return;
    }
    res.setHeader('content-encoding', 'gzip');
    res.setHeader('vary', 'Accept-Encoding');
    res.setHeader('content-length', zipped.length);
    res.end(zipped);
  });
}

/** Streams a service's reply to the browser, gzipped on the way when it is large, not yet encoded and accepted. */
export function pipeReply(req: IncomingMessage, reply: IncomingMessage, res: ServerResponse) {
  const length = Number(reply.headers['content-length'] ?? NaN);
  const compress =
    acceptsGzip(req) &&
    !reply.headers['content-encoding'] &&
    /json|text|javascript|svg/.test(reply.headers['content-type'] ?? '') &&
    !(length < COMPRESS_FROM_BYTES);
  let source: Readable = reply;
  if (compress) {
    res.removeHeader('content-length');
    res.setHeader('content-encoding', 'gzip');
    res.setHeader('vary', 'Accept-Encoding');
    source = reply.pipe(createGzip(GZIP));
  }
  source.pipe(res);
}
