import { GITLAB_PIPELINE_STATUSES, type GitLabJobStatus } from '../../gitlab/wire.ts';

/** A response before it is written (so faults can truncate it). */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

/** A GitLab error answer thrown from deep inside a handler; the app writes `body` as JSON. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, string>,
  ) {
    super(JSON.stringify(body));
  }
}

/** Statuses GitLab accepts in `?status=` of the pipelines list. */
export const PIPELINE_STATUSES: ReadonlySet<string> = new Set(GITLAB_PIPELINE_STATUSES);

/** Statuses GitLab accepts in `?scope[]=` of the jobs list. */
export const JOB_STATUSES: ReadonlySet<string> = new Set<GitLabJobStatus>([
  'created',
  'pending',
  'running',
  'failed',
  'success',
  'canceled',
  'canceling',
  'skipped',
  'waiting_for_resource',
  'manual',
  'scheduled',
  'preparing',
]);

/** A JSON reply. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

/** GitLab's boolean query values; null when absent or not a boolean. */
export function bool(value: string | null): boolean | null {
  if (value === null) return null;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return null;
}

/** An ISO 8601 query parameter in ms; 400 when unparseable, as Grape answers. */
export function date(query: URLSearchParams, name: string): number | null {
  const raw = query.get(name);
  if (raw === null || raw === '') return null;
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) throw new HttpError(400, { error: `${name} is invalid` });
  return ms;
}

/** An enumerated query parameter; 400 for a value outside `allowed`. */
export function oneOf(
  query: URLSearchParams,
  name: string,
  allowed: ReadonlySet<string>,
  fallback: string,
): string {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!allowed.has(raw)) throw new HttpError(400, { error: `${name} does not have a valid value` });
  return raw;
}

/** `?sort=asc|desc` as a multiplier. */
export function sortDir(query: URLSearchParams, fallback: 'asc' | 'desc'): 1 | -1 {
  const raw = oneOf(query, 'sort', new Set(['asc', 'desc']), fallback);
  return raw === 'asc' ? 1 : -1;
}

/** Three-way comparison of sort keys. */
export function compare(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** GitLab offset pagination: the page slice plus x-* headers and an absolute Link header. */
export function paginate<T>(
  items: readonly T[],
  url: URL,
  baseUrl: string,
): { page: T[]; headers: Record<string, string> } {
  const rawPer = Number.parseInt(url.searchParams.get('per_page') ?? '', 10);
  const perPage = Number.isFinite(rawPer) && rawPer >= 1 ? Math.min(rawPer, 100) : 20;
  const rawPage = Number.parseInt(url.searchParams.get('page') ?? '', 10);
  const page = Number.isFinite(rawPage) && rawPage >= 1 ? rawPage : 1;
  const total = items.length;
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const link = (n: number): string => {
    const params = new URLSearchParams(url.searchParams);
    params.set('page', String(n));
    params.set('per_page', String(perPage));
    return `${baseUrl}${url.pathname}?${params.toString()}`;
  };
  const links: string[] = [];
  if (page > 1) links.push(`<${link(Math.min(page - 1, totalPages))}>; rel="prev"`);
  if (page < totalPages) links.push(`<${link(page + 1)}>; rel="next"`);
  links.push(`<${link(1)}>; rel="first"`, `<${link(totalPages)}>; rel="last"`);
  return {
    page: slice,
    headers: {
      'x-page': String(page),
      'x-per-page': String(perPage),
      'x-next-page': page < totalPages ? String(page + 1) : '',
      'x-prev-page': page > 1 ? String(Math.min(page - 1, totalPages)) : '',
      'x-total': String(total),
      'x-total-pages': String(totalPages),
      link: links.join(', '),
    },
  };
}

const ERROR_PAGES: Record<number, string> = {
  502: '<!DOCTYPE html>\n<html>\n<head><title>GitLab is not responding (502)</title></head>\n<body>\n<h1>502</h1>\n<h3>Whoops, GitLab is taking too much time to respond.</h3>\n</body>\n</html>\n',
  503: '<!DOCTYPE html>\n<html>\n<head><title>The server is temporarily unavailable (503)</title></head>\n<body>\n<h1>503</h1>\n<h3>The server is temporarily unavailable.</h3>\n</body>\n</html>\n',
};

/** GitLab's answer for a given error status, in the body style GitLab uses for it. */
export function statusReply(status: 429 | 500 | 502 | 503, retryAfterSec?: number): Reply {
  const headers: Record<string, string> = {};
  if (retryAfterSec !== undefined) headers['retry-after'] = String(retryAfterSec);
  if (status === 429) {
    return { status, headers: { ...headers, 'content-type': 'text/plain' }, body: 'Retry later\n' };
  }
  if (status === 500) return json(500, { message: '500 Internal Server Error' }, headers);
  return {
    status,
    headers: { ...headers, 'content-type': 'text/html; charset=utf-8' },
    body: ERROR_PAGES[status] ?? '',
  };
}
