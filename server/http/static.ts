import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Middleware } from 'koa';
import { AppError } from '../platform/errors.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/** The dashboard's Content-Security-Policy: own origin only, inline styles for the chart library. */
export const DASHBOARD_CSP =
  "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/**
 * Serves the built dashboard from `root` for GET requests outside /api, with an SPA fallback to
 * index.html (deep links such as /pipelines/12/34 work). Hashed assets are cached for a year.
 */
export function dashboardMiddleware(root: string): Middleware {
  const resolvedRoot = path.resolve(root);
  return async (ctx, next) => {
    if (
      (ctx.method !== 'GET' && ctx.method !== 'HEAD') ||
      ctx.path.startsWith('/api/') ||
      ctx.path === '/api'
    ) {
      return next();
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(ctx.path);
    } catch {
      throw new AppError('bad_request', 'Malformed percent-escape in the path');
    }
    let file = path.resolve(resolvedRoot, '.' + decoded);
    // Compare whole segments: a sibling folder such as `renderer-old` must not pass for the root.
    if (file !== resolvedRoot && !file.startsWith(resolvedRoot + path.sep)) return next();
    let info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) {
      // SPA fallback only for navigations, not for missing assets.
      if (path.extname(ctx.path) !== '') return next();
      file = path.join(resolvedRoot, 'index.html');
      info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) return next();
    }
    ctx.type = TYPES[path.extname(file)] ?? 'application/octet-stream';
    ctx.set(
      'Cache-Control',
      file.includes(`${path.sep}assets${path.sep}`)
        ? 'public, max-age=31536000, immutable'
        : 'no-cache',
    );
    if (ctx.type.startsWith('text/html')) ctx.set('Content-Security-Policy', DASHBOARD_CSP);
    // HEAD gets an empty body with the file's length: a null body would turn the answer into a 204
    // without Content-Type or Content-Length, and a stream nobody reads would open the file after
    // the answer was sent (failing with ENOENT if the file was removed by then).
    ctx.body = ctx.method === 'HEAD' ? Buffer.alloc(0) : createReadStream(file);
    ctx.length = info.size;
  };
}
