import { z } from 'zod';
import { AppError } from '../platform/errors.ts';
import type { FetchedImage, GitLabApi } from '../gitlab/api.ts';
import type { RouteModule } from '../http/app.ts';
import { parseInput } from '../http/validation.ts';

/** Avatar hosts GitLab links to besides itself (Gravatar, GitLab.com uploads). */
export const KNOWN_AVATAR_HOSTS = [
  'secure.gravatar.com',
  'www.gravatar.com',
  'gravatar.com',
  'gitlab.com',
];

const MAX_AVATAR_BYTES = 512 * 1024;
const AVATAR_TIMEOUT_MS = 5_000;
const CACHE_ENTRIES = 300;

const avatarQuerySchema = z.object({
  url: z.string({ error: 'is required' }).min(1, { error: 'is required' }).max(2048),
});

/** Decides whether the proxy may fetch `raw`: only the GitLab origin and known avatar hosts (no SSRF). */
export function allowedAvatarUrl(raw: string, gitlabBaseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError('bad_request', "Invalid 'url': not an absolute URL");
  }
  const gitlab = new URL(gitlabBaseUrl);
  if (url.username || url.password)
    throw new AppError('bad_request', "Invalid 'url': credentials are not allowed");
  if (url.origin === gitlab.origin) return url;
  if (
    url.protocol === 'https:' &&
    KNOWN_AVATAR_HOSTS.includes(url.hostname) &&
    (url.port === '' || url.port === '443')
  )
    return url;
  throw new AppError(
    'bad_request',
    `Invalid 'url': avatars are proxied only from ${gitlab.origin} and ${KNOWN_AVATAR_HOSTS.join(', ')}`,
  );
}

/** GET /api/avatar?url= — proxies avatar images (the dashboard cannot load them cross-origin). */
export function avatarRoutes(deps: { gitlab: GitLabApi }): RouteModule {
  const cache = new Map<string, FetchedImage>();
  return (router) => {
    router.get('/avatar', async (ctx) => {
      const { url } = parseInput(avatarQuerySchema, ctx.query, 'query');
      const target = allowedAvatarUrl(url, deps.gitlab.baseUrl).toString();
      let image = cache.get(target);
      if (!image) {
        image = await deps.gitlab.fetchImage(target, {
          maxBytes: MAX_AVATAR_BYTES,
          timeoutMs: AVATAR_TIMEOUT_MS,
        });
        cache.set(target, image);
        if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
      }
      ctx.type = image.contentType;
      ctx.set('Cache-Control', 'private, max-age=3600');
      // An SVG from a remote host must not run script in our origin.
      ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
      ctx.body = image.body;
    });
  };
}
