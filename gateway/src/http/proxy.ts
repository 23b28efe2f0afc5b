import {
  Agent,
  request,
  type ServerResponse,
  type IncomingMessage,
  type OutgoingHttpHeaders,
} from 'node:http';
import type { Readable } from 'node:stream';
import { fail, IDENTITY_HEADER, MESSAGES } from '@caravan/contracts';
import { startClientSpan, type Logger } from '@caravan/service-kit';
import { pipeReply, sendJson } from './reply';

/**
 * The request headers a service gets from a caller: only these, so a caller's identity header,
 * Auth-token, Expect, cookies or hop-by-hop headers never reach a service.
 */
const FORWARDED_REQUEST_HEADERS = [
  'content-type',
  'accept',
  'accept-language',
  'idempotency-key',
  'range',
  'if-none-match',
  'if-modified-since',
];
/** Hop-by-hop headers of a service's reply, not passed on to the browser. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection']);

export type Upstream = {
  /** The service's base URL. */
  base: URL;
  method: string;
  path: string;
  identityToken: string | undefined;
  requestId: string;
  /** The caller's request: its headers are filtered by the whitelist. */
  caller: IncomingMessage;
  /** The whole body already read (call_pg_func), or the caller's stream (uploads, downloads). */
  body: Buffer | Readable | null;
};

/**
 * A lean reverse proxy to the services: one keep-alive agent, a whitelist of headers, the signed
 * identity added, the reply streamed back. Its refusals tell the truth: a service that was not reached
 * is 'unavailable'; one that got the request but did not answer may have acted, and the UI's
 * idempotency key makes the retry it asks for safe.
 */
export class ServiceProxy {
  // idle sockets close after 30 s, before a service's keep-alive timeout (65 s) could close one under a request
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 256, timeout: 30_000 });

  constructor(
    private readonly log: Logger,
    private readonly timeoutMs = 120_000,
  ) {}

  forward(upstream: Upstream, res: ServerResponse): void {
    const headers: OutgoingHttpHeaders = { 'x-request-id': upstream.requestId };
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = upstream.caller.headers[name];
      if (value !== undefined) headers[name] = value;
    }
    if (upstream.identityToken) headers[IDENTITY_HEADER] = upstream.identityToken;
    const body = upstream.body;
    if (Buffer.isBuffer(body)) headers['content-length'] = body.length;
    else if (body) {
      const { 'content-length': length, 'content-encoding': encoding } = upstream.caller.headers;
      if (length !== undefined) headers['content-length'] = length;
      else headers['transfer-encoding'] = 'chunked';
      if (encoding) headers['content-encoding'] = encoding;
    }

    // traced: the service's span is a child of this call's (its traceparent header)
    const traced = startClientSpan(`${upstream.method} ${upstream.path.split('?')[0]}`, headers);
    let sent = false;
    const outgoing = request(
      {
        protocol: upstream.base.protocol,
        hostname: upstream.base.hostname,
        port: upstream.base.port,
        method: upstream.method,
        path: upstream.path,
        headers,
        agent: this.agent,
        timeout: this.timeoutMs,
      },
      (reply: IncomingMessage) => {
        reply.once('end', () => traced(reply.statusCode));
        this.relay(upstream.caller, reply, res);
      },
    );
    outgoing.on('finish', () => (sent = true));
    outgoing.on('timeout', () => outgoing.destroy(new Error('service timed out')));
    outgoing.on('error', (err: NodeJS.ErrnoException) => {
      // Refused or unreachable before the request left: nothing happened there.
      const reached = sent && err.code !== 'ECONNREFUSED';
      // a retry is safe only for a call under an Idempotency-Key: only then does the answer promise it
      const keyed = Boolean(upstream.caller.headers['idempotency-key']);
      traced(undefined, err);
      this.log.warn(
        { err: err.message, code: err.code, path: upstream.path, reached },
        'service call failed',
      );
      if (!res.headersSent)
        sendJson(
          upstream.caller,
          res,
          503,
          fail(
            !reached
              ? MESSAGES.serviceUnavailable
              : keyed
                ? MESSAGES.serviceNoAnswer
                : MESSAGES.serviceNoAnswerUnkeyed,
          ),
        );
      else res.destroy();
    });
    res.on('close', () => {
      if (!res.writableFinished) outgoing.destroy();
      traced();
    });

    if (Buffer.isBuffer(body)) outgoing.end(body);
    else if (body) body.pipe(outgoing);
    else outgoing.end();
  }

  private relay(caller: IncomingMessage, reply: IncomingMessage, res: ServerResponse) {
    res.statusCode = reply.statusCode ?? 502;
    for (const [name, value] of Object.entries(reply.headers))
      if (value !== undefined && !HOP_BY_HOP.has(name)) res.setHeader(name, value);
    reply.on('error', () => res.destroy());
    pipeReply(caller, reply, res);
  }

  close() {
    this.agent.destroy();
  }
}
