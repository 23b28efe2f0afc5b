import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fail, MESSAGES } from '@caravan/contracts';
import type { Express, NextFunction, Request, Response } from 'express';
import { isTransientDbError } from './errors';
import type { Logger } from './logger';

/**
 * A body parser's refusal of the client's request (bad JSON, an unknown Content-Encoding or charset,
 * too large, cut short): its 4xx in words, as call_pg_func answers them, never a 500.
 */
export function clientRefusal(
  err: Error & { status?: number; type?: string },
): { status: number; message: string } | null {
  if (err.type === 'encoding.unsupported') return { status: 415, message: MESSAGES.unsupportedEncoding };
  if (err.type === 'charset.unsupported') return { status: 415, message: MESSAGES.unsupportedBody };
  if (err.status === 413) return { status: 413, message: MESSAGES.bodyTooLarge };
  if (err.type === 'entity.parse.failed' || (err.status && err.status >= 400 && err.status < 500))
    return { status: err.status ?? 400, message: MESSAGES.invalidParams };
  return null;
}

/**
 * Express error handler: a malformed or oversized body is the caller's mistake (4xx); the database out of
 * reach a moment (a dropped connection) a retryable 503, as on call_pg_func; anything else ours (500).
 */
export function jsonErrorHandler(
  err: Error & { status?: number; type?: string },
  req: Request,
  res: Response,
  _next: NextFunction,
) {
  const refusal = clientRefusal(err);
  if (refusal) {
    if (!res.headersSent) res.status(refusal.status).json(fail(refusal.message));
    return;
  }
  if (isTransientDbError(err)) {
    req.log.warn({ err }, 'database unavailable');
    if (!res.headersSent) res.status(503).json(fail(MESSAGES.serviceUnavailable));
    return;
  }
  req.log.error({ err }, 'request failed');
  if (!res.headersSent) res.status(500).json(fail(MESSAGES.somethingWentWrong));
}

export type Listening = { server: Server; url: string; close(): Promise<void> };

/**
 * Connections the kernel holds until the service accepts them (Node's default: 511). A burst of a
 * thousand at once on a busy machine overflowed 511 between two turns of the event loop, and the
 * kernel answered the callers with a reset (the ledger's 1,000 concurrent debits, seen at load 20).
 */
const LISTEN_BACKLOG = 4096;

/**
 * Listens with an Express app, or any request listener (the gateway puts its hot path ahead of
 * Express); `close()` stops accepting, ends idle keep-alive sockets and resolves when the server is closed.
 */
export async function listen(
  app: Express | RequestListener,
  host: string,
  port: number,
  log: Logger,
): Promise<Listening> {
  const server: Server = await new Promise((resolve) => {
    const s = createServer(app as RequestListener).listen(port, host, LISTEN_BACKLOG, () => resolve(s));
  });
  server.keepAliveTimeout = 65_000;
  const url = `http://${host}:${(server.address() as AddressInfo).port}`;
  log.info({ url }, 'listening');
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
  return { server, url, close };
}

/** Entry point of a process: start, and stop cleanly on SIGINT / SIGTERM. */
export function runMain(name: string, start: () => Promise<{ stop(): Promise<void> }>) {
  start().then(
    (running) => {
      const shutdown = () =>
        running.stop().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      process.once('SIGINT', shutdown);
      process.once('SIGTERM', shutdown);
    },
    (err) => {
      console.error(`${name} failed to start:`, err);
      process.exit(1);
    },
  );
}

/**
 * A request's body as text, for the vendors' sandboxes and the tests' stand-ins; a body over `maxBytes`
 * rejects with `tooLarge()` (each sandbox answers it in its vendor's words) and the request is dropped.
 */
export function readRequestBody(
  req: IncomingMessage,
  maxBytes = 64 * 1024,
  tooLarge: () => Error = () => new Error('request body too large'),
): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(tooLarge());
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
