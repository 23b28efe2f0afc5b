import type { NextFunction, Request, Response } from 'express';
import { jsonErrorHandler } from './http';

/**
 * The Express paths' last word (issue 17): a dropped database connection is a retryable 503 as on
 * call_pg_func, not a 500 'что-то пошло не так'; a malformed body stays the caller's 400.
 */
function answer(err: unknown) {
  const res = { headersSent: false, statusCode: 0, body: undefined as unknown } as Response & {
    body: unknown;
  };
  res.status = (code: number) => {
    res.statusCode = code;
    return res;
  };
  res.json = (body: unknown) => {
    res.body = body;
    return res;
  };
  const log = { warn: jest.fn(), error: jest.fn() };
  jsonErrorHandler(err as Error, { log } as unknown as Request, res, jest.fn() as NextFunction);
  return { status: res.statusCode, body: res.body, log };
}

test('a terminated backend or a refused connection: 503, retry', () => {
  for (const err of [
    Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    new Error('Connection terminated unexpectedly'),
  ]) {
    const { status, body, log } = answer(err);
    expect(status).toBe(503);
    expect(body).toEqual({
      ok: false,
      result: null,
      message: 'сервис временно недоступен, повторите попытку',
    });
    expect(log.error).not.toHaveBeenCalled();
  }
});

test('a malformed body is 400; anything else ours is 500', () => {
  expect(
    answer(Object.assign(new Error('bad json'), { type: 'entity.parse.failed', status: 400 })).status,
  ).toBe(400);
  expect(answer(new Error('a bug')).status).toBe(500);
});
