/**
 * What the GitLab client tells a user when GitLab (or an image host) answers with something other
 * than data: one place for the wording, so messages stay consistent and name what to do next.
 */
import { AppError } from '../platform/errors.ts';
import { headerValue, type HeaderBag } from './rate-limit-headers.ts';

/** "Pipeline 7 of …" → "pipeline 7 of …" inside a sentence; names starting with GitLab stay. */
export function lowerFirst(text: string): string {
  return text.startsWith('GitLab') ? text : text.charAt(0).toLowerCase() + text.slice(1);
}

/** A duration for a message: `800 ms`, `15s`, `1.5s`. */
export function formatSeconds(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
}

/** How a group is named in messages. */
export function describeGroup(idOrPath: string | number): string {
  return typeof idOrPath === 'number' ? `GitLab group ${idOrPath}` : `GitLab group '${idOrPath}'`;
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNRESET: 'connection reset',
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  EPIPE: 'connection closed',
  ERR_HTTP_CONTENT_LENGTH_MISMATCH: 'truncated response body',
};

/** A network failure in words, with the system code, e.g. "connection reset (ECONNRESET)". */
export function networkReason(err: unknown): string {
  const code = (err as { code?: unknown })?.code;
  if (typeof code !== 'string') return 'network error';
  return `${NETWORK_REASONS[code] ?? 'network error'} (${code})`;
}

/** The error for a non-retryable GitLab API status; `what` names the resource asked for. */
export function gitLabStatusError(
  status: number,
  headers: HeaderBag,
  what: string,
  apiRoot: URL,
): AppError {
  const host = apiRoot.host;
  if (status === 401) {
    return new AppError(
      'unauthorized',
      "GitLab rejected the token (401): invalid token for the source-control host. Check GITLAB_TOKEN or run 'pipeline-summary token set'.",
      { upstreamStatus: 401 },
    );
  }
  if (status === 403) {
    // 403 is not 401: the token is valid, but GitLab will not show this resource to its user.
    return new AppError(
      'forbidden',
      `GitLab refused access to ${lowerFirst(what)} (403) although the token is valid: CI/CD may be disabled for the project, the token's user may be only a Guest (or lack the read_api scope), or an IP restriction blocks this address.`,
      { upstreamStatus: 403 },
    );
  }
  if (status === 404) {
    return new AppError('not_found', `${what} not found (or not visible to this GitLab token)`, {
      upstreamStatus: 404,
    });
  }
  if (status >= 300 && status < 400) {
    const location = headerValue(headers, 'location');
    let elsewhere = 'another address';
    try {
      if (location) elsewhere = new URL(location, apiRoot).origin;
    } catch {
      // Keep the generic wording.
    }
    return new AppError(
      'upstream_unavailable',
      `GitLab at ${host} redirected the request for ${lowerFirst(what)} to ${elsewhere} (HTTP ${status}); check the GitLab URL setting`,
    );
  }
  return new AppError(
    'upstream_unavailable',
    `GitLab at ${host} rejected the request for ${lowerFirst(what)} (HTTP ${status})`,
  );
}

/** The error for an image host's non-2xx answer. */
export function imageStatusError(status: number, target: URL): AppError {
  if (status === 404) return new AppError('not_found', `Image not found on ${target.host}`);
  if (status >= 300 && status < 400) {
    return new AppError(
      'upstream_unavailable',
      `${target.host} redirected the image to another host (HTTP ${status}); not followed`,
    );
  }
  return new AppError(
    'upstream_unavailable',
    `Could not fetch the image from ${target.host} (HTTP ${status})`,
  );
}

/** The error for an image over the size limit. */
export function imageTooLarge(target: URL, maxBytes: number): AppError {
  return new AppError(
    'payload_too_large',
    `The image from ${target.host} is larger than ${Math.round(maxBytes / 1024)} KiB`,
  );
}
