import pino from 'pino';

export type Logger = pino.Logger;

export const createLogger = (name: string, level: string) =>
  pino({ name, level, base: { service: name }, timestamp: pino.stdTimeFunctions.isoTime });
