import { identiconPng } from '../identicon.ts';
import type { SimRouteModule } from './context.ts';
import type { Reply } from './reply.ts';

const NOT_FOUND: Reply = {
  status: 404,
  headers: { 'content-type': 'text/plain; charset=utf-8' },
  body: 'Not Found\n',
};

/** GET /uploads/-/system/{user|group}/avatar/:id/:file (no token needed, as on GitLab). */
export const avatarRoutes: SimRouteModule = (router, deps) => {
  const avatars = new Map<string, Buffer>();
  router.get('/uploads/-/system/:owner/avatar/:id/:file', (ctx) => {
    const { owner, file } = ctx.params;
    const id = Number(ctx.params.id);
    const { data } = deps;
    const ok =
      (owner === 'user' && data.userById.has(id)) ||
      (owner === 'group' && data.groupById.get(id)?.hasAvatar === true);
    if (!ok) {
      ctx.state.reply = NOT_FOUND;
      return;
    }
    const key = `${owner}:${id}`;
    let png = avatars.get(key);
    if (!png) {
      png = identiconPng(key);
      avatars.set(key, png);
    }
    ctx.state.reply = {
      status: 200,
      headers: {
        'content-type': 'image/png',
        'cache-control': 'max-age=3600, private',
        'content-disposition': `inline; filename="${file}"`,
      },
      body: png,
    };
  });
  // Anything else under /uploads is a plain-text 404, like GitLab's uploads controller.
  router.get(/^\/uploads(?:\/.*)?$/, (ctx) => {
    ctx.state.reply ??= NOT_FOUND;
  });
};
