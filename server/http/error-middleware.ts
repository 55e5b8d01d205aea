import type { Middleware } from 'koa';
import type { ErrorBody } from '../contract.ts';
import { AppError, type ErrorCode } from '../platform/errors.ts';
import type { Logger } from '../platform/logger.ts';

/** The one table from domain error codes to HTTP statuses. */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  bad_request: 400,
  not_configured: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  overloaded: 503,
  upstream_unavailable: 502,
  upstream_timeout: 504,
  internal: 500,
};

/** Builds the error body every route returns. */
export function errorBody(statusCode: number, error: string, now = new Date()): ErrorBody {
  return { error, statusCode, timestamp: now.toISOString() };
}

/**
 * Maps every thrown error to `{error, statusCode, timestamp}`. AppErrors keep their message;
 * Koa/http-errors with `expose` keep theirs; anything else is a 500 with a generic message and the
 * details go to the log only (never to the caller).
 */
export function errorMiddleware(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new AppError('not_found', `No route for ${ctx.method} ${ctx.path}`);
      }
    } catch (err) {
      let status = 500;
      let message = 'Internal server error';
      if (err instanceof AppError) {
        status = STATUS_BY_CODE[err.code];
        message = err.message;
        if (err.retryAfterMs !== undefined) {
          ctx.set('Retry-After', String(Math.ceil(err.retryAfterMs / 1000)));
        }
      } else if (isExposedHttpError(err)) {
        status = err.status;
        message = err.message;
      }
      if (status >= 500) {
        logger.error({ err, method: ctx.method, path: ctx.path }, 'request failed');
      }
      ctx.status = status;
      ctx.type = 'application/json';
      ctx.body = errorBody(status, message);
    }
  };
}

function isExposedHttpError(err: unknown): err is { status: number; message: string } {
  const e = err as { status?: unknown; expose?: unknown; message?: unknown };
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.status === 'number' &&
    e.status >= 400 &&
    e.status < 600 &&
    e.expose === true &&
    typeof e.message === 'string'
  );
}
