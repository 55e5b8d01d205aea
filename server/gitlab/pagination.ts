/**
 * GitLab REST pagination: offset pagination advertises the next page both in `Link: <…>; rel="next"`
 * and in `x-next-page`; keyset pagination only in `Link`. The Link header wins when both are present.
 */
import { AppError } from '../platform/errors.ts';
import { headerValue, type HeaderBag } from './rate-limit-headers.ts';

/** GitLab's maximum page size; fewer, larger pages keep us further from the rate limit. */
export const MAX_PER_PAGE = 100;

/**
 * Parses an RFC 8288 `Link` header into `rel → URL` (first link wins for each rel). got ships a
 * parser too, but it splits on every comma (a keyset cursor or query value may contain one) and
 * throws on anything unusual; a tolerant reader suits a header we only need one rel from.
 */
export function parseLinkHeader(value: string | undefined): Map<string, string> {
  const links = new Map<string, string>();
  if (!value) return links;
  for (const match of value.matchAll(/<([^>]*)>([^<]*)/g)) {
    const target = match[1]!;
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(match[2]!);
    const rels = (rel?.[1] ?? rel?.[2] ?? '').split(/\s+/).filter(Boolean);
    for (const name of rels)
      if (!links.has(name.toLowerCase())) links.set(name.toLowerCase(), target);
  }
  return links;
}

const API_SEGMENT = '/api/v4/';

/**
 * The URL of the page after `current`, or undefined on the last page.
 *
 * A GitLab whose `external_url` is misconfigured (behind a proxy, or moved) advertises next links on
 * another host or scheme. We never follow those as-is, because the token would go with them: the
 * link's `/api/v4/…` path and query are re-based onto `apiRoot` (our configured `…/api/v4`).
 */
export function nextPageUrl(current: URL, headers: HeaderBag, apiRoot: URL): URL | undefined {
  const next = parseLinkHeader(headerValue(headers, 'link')).get('next');
  if (next !== undefined) {
    let link: URL;
    try {
      link = new URL(next, current);
    } catch {
      throw new AppError(
        'upstream_unavailable',
        `GitLab at ${apiRoot.origin} sent an unreadable pagination link`,
      );
    }
    const rootPath = apiRoot.pathname.endsWith('/') ? apiRoot.pathname : `${apiRoot.pathname}/`;
    if (link.origin === apiRoot.origin && link.pathname.startsWith(rootPath)) return link;
    const at = link.pathname.indexOf(API_SEGMENT);
    if (at < 0) {
      throw new AppError(
        'upstream_unavailable',
        `GitLab at ${apiRoot.origin} sent a pagination link outside its API; check the GitLab URL setting`,
      );
    }
    return new URL(
      `${rootPath}${link.pathname.slice(at + API_SEGMENT.length)}${link.search}`,
      apiRoot,
    );
  }
  const page = headerValue(headers, 'x-next-page');
  if (page !== undefined && /^\d+$/.test(page)) {
    const url = new URL(current);
    url.searchParams.set('page', page);
    return url;
  }
  return undefined;
}
