import { randomUUID } from 'node:crypto';
import { loggableUrl, type Logger } from '@caravan/service-kit';
import type { NextFunction, Request, Response } from 'express';

export type LoggedRequest = Request & { id: string; log: Logger };

export { loggableUrl };

/**
 * Request ids and one log line per API call (not per static file or SSE stream), with a child
 * logger made only when something logs: the hot path pays for no logger it does not use.
 */
export function requestLog(log: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const r = req as LoggedRequest;
    const given = req.headers['x-request-id'];
    r.id = typeof given === 'string' && given.length <= 100 ? given : randomUUID();
    res.setHeader('x-request-id', r.id);
    let child: Logger | undefined;
    Object.defineProperty(r, 'log', {
      get: () => (child ??= log.child({ reqId: r.id })),
      configurable: true,
    });
    const url = req.url;
    if (url.startsWith('/api/') && !url.startsWith('/api/sse') && log.isLevelEnabled('info')) {
      const started = process.hrtime.bigint();
      res.on('finish', () =>
        r.log.info(
          {
            method: req.method,
            url: loggableUrl(url),
            status: res.statusCode,
            ms: Number(process.hrtime.bigint() - started) / 1e6,
          },
          'request completed',
        ),
      );
    }
    next();
  };
}
