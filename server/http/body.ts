import type { Context } from 'koa';
import { AppError } from '../platform/errors.ts';

/** Largest JSON body the service accepts (job logs sent for analysis fit comfortably). */
export const DEFAULT_BODY_LIMIT = 8 * 1024 * 1024;

/**
 * Reads and parses a JSON request body with a size cap. Rejects other content types (415), oversize
 * bodies (413, without buffering them) and malformed JSON (400).
 */
export async function readJsonBody(ctx: Context, limit = DEFAULT_BODY_LIMIT): Promise<unknown> {
  const declared = Number(ctx.get('content-length') || '0');
  if (declared > limit) {
    throw new AppError('payload_too_large', `Request body is larger than ${limit} bytes`);
  }
  if (!ctx.is('application/json')) {
    if (declared === 0 && !ctx.get('transfer-encoding')) return {};
    throw new AppError(
      'unsupported_media_type',
      'Request body must be JSON (Content-Type: application/json)',
    );
  }
  const chunks = await readLimited(ctx, limit);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError('bad_request', 'Request body is not valid JSON');
  }
}

/**
 * Collects the body up to `limit` bytes. Past it, stops collecting and answers 413 with
 * `Connection: close`; Node discards the rest of the upload, so the client reads the 413 instead of
 * a reset connection (destroying the request would reset the socket).
 */
function readLimited(ctx: Context, limit: number): Promise<Buffer[]> {
  const req = ctx.req;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      cleanup();
      ctx.set('Connection', 'close');
      reject(new AppError('payload_too_large', `Request body is larger than ${limit} bytes`));
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks);
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}
