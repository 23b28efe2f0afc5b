import pino from 'pino';

export type Logger = pino.Logger;

/** Headers that carry credentials: never written to logs. */
const REDACTED = [
  'req.headers["auth-token"]',
  'req.headers["x-caravan-identity"]',
  'req.headers.cookie',
  'req.headers.authorization',
];

export const createLogger = (name: string, level: string, destination?: pino.DestinationStream) =>
  pino(
    {
      name,
      level,
      base: { service: name },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED, censor: '[redacted]' },
    },
    destination,
  );
