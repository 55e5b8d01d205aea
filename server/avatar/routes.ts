import { z } from 'zod';
import { AppError } from '../platform/errors.ts';
import type { FetchedImage, GitLabApi } from '../gitlab/api.ts';
import type { RouteModule } from '../http/app.ts';
import { describedRoutes, type RouteDoc } from '../http/openapi.ts';
import { parseInput } from '../http/validation.ts';

/** Avatar hosts GitLab links to besides itself (Gravatar, GitLab.com uploads). */
export const KNOWN_AVATAR_HOSTS = [
  'secure.gravatar.com',
  'www.gravatar.com',
  'gravatar.com',
  'gitlab.com',
];

/** Image types an avatar may have; anything else (or a list of types) is refused. */
const AVATAR_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/svg+xml',
  'image/x-icon',
  'image/vnd.microsoft.icon',
  'image/bmp',
]);

// Uploaded avatars live at <gitlab>/uploads/-/system/{user,group,project}/avatar/:id/:file (GitLab
// issue 227413 shows the layout); Gravatar's at /avatar/:md5-or-sha256.
const UPLOAD_AVATAR_PATH = /^\/uploads\/-\/system\/(?:user|group|project)\/avatar\/\d+\/[^/]+$/;
const GRAVATAR_PATH = /^\/avatar\/[0-9a-f]{32,64}$/i;

const MAX_AVATAR_BYTES = 512 * 1024;
const AVATAR_TIMEOUT_MS = 5_000;
const CACHE_ENTRIES = 300;
const FAILURE_TTL_MS = 60_000;

/** The avatar proxy's own small share of the GitLab budget. */
export interface AvatarBudget {
  /** Avatar downloads at once (default 2 of the host's 6 slots). */
  maxConcurrent: number;
  /** Downloads waiting for a slot before a 503 (default 64). */
  maxWaiting: number;
  /** Downloads per minute (default 120, 6 % of GitLab.com's 2,000). */
  perMinute: number;
}

const DEFAULT_BUDGET: AvatarBudget = { maxConcurrent: 2, maxWaiting: 64, perMinute: 120 };

const avatarQuerySchema = z.object({
  url: z.string({ error: 'is required' }).min(1, { error: 'is required' }).max(2048),
});

const ROUTE_DOCS: readonly RouteDoc[] = [
  {
    method: 'get',
    path: '/avatar',
    tag: 'Avatars',
    summary: 'An avatar image from GitLab or Gravatar, proxied (avatar paths only, 512 KiB, 5 s)',
    docs: 'get-apiavatar',
    query: avatarQuerySchema,
    response: { description: 'The image, in its own image type.', contentTypes: ['image/*'] },
  },
];

/**
 * Decides whether the proxy may fetch `raw`: only avatar paths on the GitLab origin and on the
 * known avatar hosts (no SSRF, and no other GitLab resource through the user's token).
 */
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
  const notAnAvatar = () => new AppError('bad_request', "Invalid 'url': not an avatar image path");
  if (url.origin === gitlab.origin) {
    // GitLab under a relative root (https://host/gitlab) serves uploads below that root.
    const root = gitlab.pathname.replace(/\/+$/, '');
    const rest = url.pathname.startsWith(`${root}/`) ? url.pathname.slice(root.length) : '';
    if (!UPLOAD_AVATAR_PATH.test(rest)) throw notAnAvatar();
    return url;
  }
  if (
    url.protocol === 'https:' &&
    KNOWN_AVATAR_HOSTS.includes(url.hostname) &&
    (url.port === '' || url.port === '443')
  ) {
    const pattern = url.hostname === 'gitlab.com' ? UPLOAD_AVATAR_PATH : GRAVATAR_PATH;
    if (!pattern.test(url.pathname)) throw notAnAvatar();
    return url;
  }
  throw new AppError(
    'bad_request',
    `Invalid 'url': avatars are proxied only from ${gitlab.origin} and ${KNOWN_AVATAR_HOSTS.join(', ')}`,
  );
}

/**
 * GET /api/avatar?url= — proxies avatar images (the dashboard cannot load them cross-origin).
 * Answers are cached (failures briefly too), and downloads draw on a small budget of their own so
 * avatars can never crowd out the summary, details or logs.
 */
export function avatarRoutes(deps: {
  gitlab: GitLabApi;
  budget?: Partial<AvatarBudget>;
  now?: () => number;
}): RouteModule {
  const budget = { ...DEFAULT_BUDGET, ...deps.budget };
  const now = deps.now ?? Date.now;
  const cache = new Map<string, FetchedImage>();
  const failures = new Map<string, { error: AppError; until: number }>();
  const inFlight = new Map<string, Promise<FetchedImage>>();
  const startedAt: number[] = [];
  let active = 0;
  const waiting: (() => void)[] = [];

  const slot = async (): Promise<() => void> => {
    while (startedAt.length > 0 && startedAt[0]! <= now() - 60_000) startedAt.shift();
    if (startedAt.length >= budget.perMinute) {
      throw new AppError('overloaded', 'Too many avatar downloads this minute; try again shortly', {
        retryAfterMs: startedAt[0]! + 60_000 - now(),
      });
    }
    if (active >= budget.maxConcurrent) {
      if (waiting.length >= budget.maxWaiting) {
        throw new AppError('overloaded', 'Too many avatar downloads waiting; try again shortly', {
          retryAfterMs: 1_000,
        });
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else active++;
    startedAt.push(now());
    return () => {
      const next = waiting.shift();
      if (next) next();
      else active--;
    };
  };

  const download = async (target: string): Promise<FetchedImage> => {
    const release = await slot();
    try {
      const image = await deps.gitlab.fetchImage(target, {
        maxBytes: MAX_AVATAR_BYTES,
        timeoutMs: AVATAR_TIMEOUT_MS,
      });
      if (!AVATAR_TYPES.has(image.contentType)) {
        throw new AppError(
          'unsupported_media_type',
          `The avatar's Content-Type '${image.contentType}' is not one image type`,
        );
      }
      cache.set(target, image);
      if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
      return image;
    } catch (err) {
      if (err instanceof AppError && err.code !== 'overloaded') {
        failures.set(target, { error: err, until: now() + FAILURE_TTL_MS });
        if (failures.size > CACHE_ENTRIES) failures.delete(failures.keys().next().value!);
      }
      throw err;
    } finally {
      release();
    }
  };

  return describedRoutes(ROUTE_DOCS, (router) => {
    router.get('/avatar', async (ctx) => {
      const { url } = parseInput(avatarQuerySchema, ctx.query, 'query');
      const target = allowedAvatarUrl(url, deps.gitlab.baseUrl).toString();
      let image = cache.get(target);
      if (!image) {
        const failed = failures.get(target);
        if (failed && failed.until > now()) throw failed.error;
        // Concurrent requests for one avatar share one download.
        let pending = inFlight.get(target);
        if (!pending) {
          pending = download(target).finally(() => inFlight.delete(target));
          inFlight.set(target, pending);
        }
        image = await pending;
      }
      ctx.type = image.contentType;
      ctx.set('Cache-Control', 'private, max-age=3600');
      // An SVG from a remote host must not run script in our origin.
      ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
      ctx.body = image.body;
    });
  });
}
