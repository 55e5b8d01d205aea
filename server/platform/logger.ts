import pino from 'pino';

/** The service's structured logger (pino). Secrets are redacted by path. */
export type Logger = pino.Logger;

/** Creates a logger; `silent` in tests, `info` otherwise unless LOG_LEVEL says else. */
export function createLogger(
  options: { level?: string; destination?: NodeJS.WritableStream } = {},
): Logger {
  const level = options.level ?? process.env.LOG_LEVEL ?? 'info';
  return pino(
    {
      level,
      redact: {
        paths: [
          'token',
          '*.token',
          'headers.authorization',
          'headers["private-token"]',
          '*.headers.authorization',
          '*.headers["private-token"]',
          'apiKey',
          '*.apiKey',
        ],
        censor: '[redacted]',
      },
    },
    options.destination ?? pino.destination(2),
  );
}

/** A logger that drops everything (tests). */
export const silentLogger: Logger = pino({ level: 'silent' });
