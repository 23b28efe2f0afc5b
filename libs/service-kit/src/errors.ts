import { MESSAGES } from '@caravan/contracts';

/** A refusal the user should read: becomes `{ok:false, message}` with HTTP 200. */
export class BusinessError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BusinessError';
  }
}

type PgError = { code?: string; constraint?: string; detail?: string; column?: string };

/** Database errors that a caller's input can cause, told in words instead of a 500. */
export function describeDbError(error: unknown): string | null {
  const e = error as PgError;
  switch (e?.code) {
    case '23505':
      return 'такая запись уже существует';
    case '23503': {
      const column = /^Key \((\w+)\)/.exec(e.detail ?? '')?.[1];
      return `ссылка на несуществующую или используемую запись${column ? ` (поле '${column}')` : ''}`;
    }
    case '23502':
      return MESSAGES.fieldRequired(e.column ?? '?');
    case '23514':
      return 'значение не проходит проверку';
    case '22003':
      return 'число вне допустимого диапазона';
    case '22P02':
    case '22007':
    case '22008':
      return MESSAGES.invalidParams;
    case '22021': // a NUL or invalid byte in text
    case '22P05':
      return 'текст содержит недопустимый символ';
    case '22009': // a time zone offset out of range
      return 'неверная дата или время';
    case '08P01': // more values than one statement can take
    case '54000':
    case '54001':
      return 'слишком большой запрос: уменьшите число условий';
    default:
      // any other data exception (class 22) is the caller's value, not our fault
      return e?.code?.startsWith('22') ? MESSAGES.invalidParams : null;
  }
}

/** SQLSTATEs of a lost or refused connection, a server going down, or a conflict that a retry resolves. */
const TRANSIENT_SQLSTATES = new Set([
  '08000', // connection_exception
  '08001', // unable to connect
  '08003', // connection does not exist
  '08004', // server rejected the connection
  '08006', // connection failure
  '57P01', // terminated by administrator (pg_terminate_backend)
  '57P02', // crash shutdown
  '57P03', // cannot connect now (starting up, shutting down)
  '53300', // too many connections
  '40001', // serialization failure
  '40P01', // deadlock detected
]);
const TRANSIENT_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);
const TRANSIENT_MESSAGES =
  /connection terminated|connection ended|connection error|not queryable|timeout acquiring a connection/i;

/**
 * The database was briefly out of reach (dropped connection, restart, full pool): nothing the caller
 * did wrong, and the same call is expected to work again. Answered as 503 'сервис временно недоступен,
 * повторите попытку', never as a 500.
 */
export function isTransientDbError(error: unknown): boolean {
  const e = error as { code?: string; name?: string; message?: string } | null;
  if (!e) return false;
  if (e.code && (TRANSIENT_SQLSTATES.has(e.code) || TRANSIENT_SOCKET_CODES.has(e.code))) return true;
  return e.name === 'KnexTimeoutError' || TRANSIENT_MESSAGES.test(e.message ?? '');
}
