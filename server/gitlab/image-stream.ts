/**
 * Streams one image with hard limits: only `image/*` answers, at most `maxBytes` (cut off beyond,
 * whatever Content-Length claims), within `timeoutMs`, and redirects only within the URL's origin.
 */
import { TimeoutError, type Got, type PlainResponse } from 'got';
import { AppError } from '../platform/errors.ts';
import type { FetchedImage } from './api.ts';
import { formatSeconds, imageStatusError, imageTooLarge, networkReason } from './error-wording.ts';
import { headerValue, type HeaderBag } from './rate-limit-headers.ts';

/** What one image download needs besides the URL. */
export interface ImageStreamOptions {
  headers: Record<string, string>;
  maxBytes: number;
  timeoutMs: number;
  /** Called with the status and headers once they arrive (the client adapts its budget). */
  onResponse: (status: number, headers: HeaderBag) => void;
  /** Turns got's error (which carries request headers) into one safe to log or chain. */
  safeCause: (err: unknown) => Error;
}

function sameOriginRedirect(response: PlainResponse, origin: string): boolean {
  const location = headerValue(response.headers, 'location');
  if (!location) return false;
  try {
    return new URL(location, response.url).origin === origin;
  } catch {
    return false;
  }
}

/** Downloads `target` into memory under the limits, or rejects with an AppError saying why not. */
export function streamImage(
  http: Got,
  target: URL,
  options: ImageStreamOptions,
): Promise<FetchedImage> {
  return new Promise<FetchedImage>((resolve, reject) => {
    const stream = http.stream(target, {
      headers: options.headers,
      timeout: { request: options.timeoutMs },
      followRedirect: (response: PlainResponse) => sameOriginRedirect(response, target.origin),
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let contentType = '';
    let settled = false;
    const fail = (err: AppError) => {
      if (settled) return;
      settled = true;
      stream.destroy();
      reject(err);
    };
    stream.on('response', (response: PlainResponse) => {
      const status = response.statusCode;
      options.onResponse(status, response.headers);
      if (status < 200 || status >= 300) {
        fail(imageStatusError(status, target));
        return;
      }
      contentType = (headerValue(response.headers, 'content-type') ?? '')
        .split(';')[0]!
        .trim()
        .toLowerCase();
      if (!contentType.startsWith('image/')) {
        fail(
          new AppError(
            'unsupported_media_type',
            `${target.host} answered with ${contentType || 'no content type'}, not an image`,
          ),
        );
        return;
      }
      const declared = Number(headerValue(response.headers, 'content-length'));
      if (declared > options.maxBytes) fail(imageTooLarge(target, options.maxBytes));
    });
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > options.maxBytes) fail(imageTooLarge(target, options.maxBytes));
      else chunks.push(chunk);
    });
    stream.on('end', () => {
      if (settled) return;
      settled = true;
      resolve({ contentType, body: Buffer.concat(chunks) });
    });
    stream.on('error', (err: unknown) => {
      if (settled) return;
      settled = true;
      reject(
        err instanceof TimeoutError
          ? new AppError(
              'upstream_timeout',
              `${target.host} did not send the image within ${formatSeconds(options.timeoutMs)}`,
              { cause: options.safeCause(err) },
            )
          : new AppError(
              'upstream_unavailable',
              `Could not fetch the image from ${target.host}: ${networkReason(err)}`,
              { cause: options.safeCause(err) },
            ),
      );
    });
  });
}
