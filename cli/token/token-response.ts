import { TokenError } from './errors.ts';
import type { CachedToken } from './token-cache.ts';

/** The token response get-token prints with `-o json|yaml` (GET-TOKEN.md), fields in this order. */
export interface TokenResponse {
  token_type: string;
  /** Space-separated scopes granted. */
  scope: string;
  /** Seconds left until expiry, at the time of output. */
  expires_in: number;
  access_token: string;
  /** Empty when the server issued none (client-credentials). */
  refresh_token: string;
  /** ISO 8601 UTC. */
  expires_at: string;
}

/** get-token's output formats. */
export const OUTPUT_FORMATS = ['token', 'json', 'yaml'] as const;
/** One of `OUTPUT_FORMATS`. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The response for a cached entry as seen at `now` (ms). */
export function toTokenResponse(entry: CachedToken, now: number): TokenResponse {
  return {
    token_type: entry.tokenType,
    scope: entry.scope,
    expires_in: Math.max(0, Math.floor((entry.expiresAt - now) / 1000)),
    access_token: entry.accessToken,
    refresh_token: entry.refreshToken ?? '',
    expires_at: new Date(entry.expiresAt).toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
}

/** Parses `-o`; anything else is a usage error. */
export function parseOutputFormat(value: string | undefined): OutputFormat {
  if (value === undefined) return 'token';
  if ((OUTPUT_FORMATS as readonly string[]).includes(value)) return value as OutputFormat;
  throw new TokenError(
    'usage',
    `--output must be one of ${OUTPUT_FORMATS.join(', ')}, not '${value}'`,
  );
}

/**
 * The printable output, ending in a newline. `token` is the access token alone; `json` is the
 * response as pretty JSON; `yaml` is flat YAML with every string double-quoted (valid YAML 1.2,
 * so no YAML library has to load on the cached path).
 */
export function formatTokenResponse(response: TokenResponse, format: OutputFormat): string {
  if (format === 'token') return response.access_token + '\n';
  if (format === 'json') return JSON.stringify(response, null, 2) + '\n';
  return (
    Object.entries(response)
      .map(([key, value]) => `${key}: ${typeof value === 'number' ? value : JSON.stringify(value)}`)
      .join('\n') + '\n'
  );
}
