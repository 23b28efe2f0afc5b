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
    default:
      return null;
  }
}
