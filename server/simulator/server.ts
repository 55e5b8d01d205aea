import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../platform/clock.ts';
import type { GitLabJobStatus, GitLabPipelineStatus } from '../gitlab/wire.ts';
import type { Dataset } from './dataset.ts';
import type { FaultDecision, Faults } from './faults.ts';
import { identiconPng } from './identicon.ts';
import { renderTrace } from './logs/trace.ts';
import type { SimGroup, SimPipeline, SimProject, SimUser } from './model.ts';
import type { RouteKind, Stats } from './stats.ts';
import type { Views } from './views.ts';

/** Everything the request handler needs. */
export interface HandlerDeps {
  data: Dataset;
  views: Views;
  faults: Faults;
  stats: Stats;
  clock: Clock;
  /** token → user */
  tokens: ReadonlyMap<string, SimUser>;
  latencyMs: number;
  rateLimitPerMinute: number;
  baseUrl: () => string;
}

/** A response before it is written (so faults can truncate it). */
interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, string>,
  ) {
    super(JSON.stringify(body));
  }
}

const PIPELINE_STATUSES: ReadonlySet<string> = new Set<GitLabPipelineStatus>([
  'created',
  'waiting_for_resource',
  'preparing',
  'pending',
  'running',
  'success',
  'failed',
  'canceling',
  'canceled',
  'skipped',
  'manual',
  'scheduled',
]);
const JOB_STATUSES: ReadonlySet<string> = new Set<GitLabJobStatus>([
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
const PIPELINE_ORDER = new Set(['id', 'status', 'ref', 'updated_at', 'user_id']);
const PROJECT_ORDER = new Set([
  'id',
  'name',
  'path',
  'created_at',
  'updated_at',
  'last_activity_at',
  'similarity',
  'star_count',
]);
const GROUP_ORDER = new Set(['name', 'path', 'id', 'similarity']);

function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

function bool(value: string | null): boolean | null {
  if (value === null) return null;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return null;
}

function date(query: URLSearchParams, name: string): number | null {
  const raw = query.get(name);
  if (raw === null || raw === '') return null;
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) throw new HttpError(400, { error: `${name} is invalid` });
  return ms;
}

function oneOf(
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

function sortDir(query: URLSearchParams, fallback: 'asc' | 'desc'): 1 | -1 {
  const raw = oneOf(query, 'sort', new Set(['asc', 'desc']), fallback);
  return raw === 'asc' ? 1 : -1;
}

function compare(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The GitLab route kind of a path (for stats), before any auth or lookups. */
export function routeKind(segments: readonly string[]): RouteKind {
  if (segments[0] === 'uploads') return 'avatar';
  if (segments[0] !== 'api' || segments[1] !== 'v4') return 'other';
  const [, , root, , sub, , leaf] = segments;
  if (root === 'user') return 'user';
  if (root === 'groups') return segments[4] === 'projects' ? 'projects' : 'groups';
  if (root !== 'projects') return 'other';
  if (segments.length <= 4) return 'projects';
  if (sub === 'pipelines') {
    if (segments.length === 5) return 'pipelines-list';
    if (segments.length === 6) return 'pipeline';
    if (segments[6] === 'jobs') return 'jobs';
  }
  if (sub === 'jobs') {
    if (segments.length === 6) return 'job';
    if (leaf === 'trace') return 'trace';
  }
  if (sub === 'repository' && segments[5] === 'commits') return 'commit';
  return 'other';
}

/** GitLab offset pagination: the page slice plus x-* headers and an absolute Link header. */
function paginate<T>(
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
function statusReply(status: 429 | 500 | 502 | 503, retryAfterSec?: number): Reply {
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

/** The node:http request handler of the simulator. */
export class SimulatorHandler {
  private windowStart = 0;
  private windowCount = 0;
  private requestSeq = 0;
  private readonly avatars = new Map<string, Buffer>();

  constructor(private readonly deps: HandlerDeps) {}

  /** Handles one request (never throws). */
  handle(req: IncomingMessage, res: ServerResponse): void {
    const rawUrl = req.url ?? '/';
    let url: URL;
    try {
      url = new URL(rawUrl, 'http://simulator.invalid');
    } catch {
      url = new URL('/', 'http://simulator.invalid');
    }
    const segments = url.pathname.split('/').slice(1);
    const kind = routeKind(segments);
    const pathAndQuery = url.pathname + url.search;
    const record = this.deps.stats.record(req.method ?? 'GET', pathAndQuery, kind);
    const isApi = segments[0] === 'api';
    const rate = isApi ? this.countRate() : null;
    const decision: FaultDecision = this.deps.faults.decide(pathAndQuery);
    const delay = this.deps.latencyMs + decision.delayMs;
    const respond = (): void => {
      if (res.destroyed || req.destroyed) return;
      const terminal = decision.terminal;
      if (terminal?.kind === 'reset') {
        req.socket.destroy();
        return;
      }
      let reply: Reply;
      if (terminal?.kind === 'status') reply = statusReply(terminal.status, terminal.retryAfterSec);
      else reply = this.route(req, url, segments, isApi, rate);
      if (rate) Object.assign(reply.headers, rate.headers);
      this.write(res, reply, terminal?.kind === 'truncate');
      record.status = terminal?.kind === 'truncate' ? 0 : reply.status;
    };
    if (delay > 0) setTimeout(respond, delay);
    else respond();
  }

  private countRate(): { headers: Record<string, string>; exceeded: boolean; retryAfter: number } {
    const now = this.deps.clock.now();
    const window = Math.floor(now / 60_000) * 60_000;
    if (window !== this.windowStart) {
      this.windowStart = window;
      this.windowCount = 0;
    }
    this.windowCount++;
    const limit = this.deps.rateLimitPerMinute;
    const reset = window + 60_000;
    return {
      exceeded: this.windowCount > limit,
      retryAfter: Math.max(1, Math.ceil((reset - now) / 1000)),
      headers: {
        'ratelimit-limit': String(limit),
        'ratelimit-observed': String(this.windowCount),
        'ratelimit-remaining': String(Math.max(0, limit - this.windowCount)),
        'ratelimit-reset': String(Math.floor(reset / 1000)),
        'ratelimit-resettime': new Date(reset).toUTCString(),
      },
    };
  }

  private write(res: ServerResponse, reply: Reply, truncate: boolean): void {
    const body = typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body;
    const headers: Record<string, string> = {
      'cache-control': 'max-age=0, private, must-revalidate',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'x-request-id': `01SIM${(++this.requestSeq).toString(36).toUpperCase().padStart(8, '0')}`,
      vary: 'Origin, Accept-Encoding',
      ...reply.headers,
      'content-length': String(body.length),
    };
    res.writeHead(reply.status, headers);
    if (!truncate) {
      res.end(body);
      return;
    }
    // Half the body, then a dead socket: the client sees a premature close mid-body.
    res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.socket?.destroy());
  }

  private route(
    req: IncomingMessage,
    url: URL,
    segments: string[],
    isApi: boolean,
    rate: { exceeded: boolean; retryAfter: number } | null,
  ): Reply {
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        return json(405, { error: '405 Method Not Allowed' });
      }
      if (segments[0] === 'uploads') return this.avatar(segments);
      if (!isApi || segments[1] !== 'v4') return json(404, { error: '404 Not Found' });
      const user = this.authenticate(req);
      if (!user) return json(401, { message: '401 Unauthorized' });
      if (rate?.exceeded) {
        return {
          ...statusReply(429),
          headers: { 'content-type': 'text/plain', 'retry-after': String(rate.retryAfter) },
        };
      }
      return this.api(segments.slice(2).map(decodeSegment), url, user);
    } catch (error) {
      if (error instanceof HttpError) return json(error.status, error.body);
      return json(500, { message: '500 Internal Server Error' });
    }
  }

  private authenticate(req: IncomingMessage): SimUser | undefined {
    const privateToken = req.headers['private-token'];
    if (typeof privateToken === 'string') return this.deps.tokens.get(privateToken);
    const auth = req.headers.authorization;
    if (typeof auth === 'string' && /^bearer\s+/i.test(auth)) {
      return this.deps.tokens.get(auth.replace(/^bearer\s+/i, '').trim());
    }
    return undefined;
  }

  private api(path: string[], url: URL, user: SimUser): Reply {
    const { views } = this.deps;
    const q = url.searchParams;
    const [root, id, sub, subId, leaf, ...rest] = path;
    if (root === 'user' && path.length === 1) return json(200, views.currentUser(user));
    if (root === 'version' && path.length === 1) {
      return json(200, { version: '17.2.1-ee', revision: '9882d9c7', kas: { enabled: false } });
    }
    if (root === 'groups') {
      if (id === undefined) return this.listGroups(url);
      const group = this.findGroup(id);
      if (sub === undefined) return json(200, this.groupWithProjects(group, q));
      if (path.length === 3 && sub === 'subgroups') return this.listSubgroups(group, url, false);
      if (path.length === 3 && sub === 'descendant_groups')
        return this.listSubgroups(group, url, true);
      if (path.length === 3 && sub === 'projects') return this.listGroupProjects(group, url);
    }
    if (root === 'projects' && id !== undefined) {
      const project = this.findProject(id);
      if (sub === undefined) return json(200, views.project(project, false));
      if (sub === 'pipelines') {
        if (subId === undefined) return this.listPipelines(project, url);
        const pipeline = this.findPipeline(project, subId);
        if (leaf === undefined) return json(200, views.pipeline(pipeline));
        if (leaf === 'jobs' && rest.length === 0) return this.listJobs(pipeline, url);
      }
      if (sub === 'jobs' && subId !== undefined) {
        const found = this.findJob(project, subId);
        if (leaf === undefined) return json(200, views.job(found.job, found.pipeline));
        if (leaf === 'trace' && rest.length === 0) {
          const trace = renderTrace({
            seed: this.deps.data.options.seed,
            project,
            pipeline: found.pipeline,
            job: found.job,
          });
          return {
            status: 200,
            headers: { 'content-type': 'text/plain; charset=utf-8' },
            body: trace,
          };
        }
      }
      if (sub === 'repository' && subId === 'commits' && leaf !== undefined && rest.length === 0) {
        return json(200, views.commitOf(project, this.resolveSha(project, leaf)));
      }
    }
    return json(404, { error: '404 Not Found' });
  }

  private findGroup(idOrPath: string): SimGroup {
    const { data } = this.deps;
    const group = /^\d+$/.test(idOrPath)
      ? data.groupById.get(Number(idOrPath))
      : data.groups.find((g) => g.fullPath.toLowerCase() === idOrPath.toLowerCase());
    if (!group) throw new HttpError(404, { message: '404 Group Not Found' });
    return group;
  }

  private findProject(idOrPath: string): SimProject {
    const { data } = this.deps;
    const project = /^\d+$/.test(idOrPath)
      ? data.projectById.get(Number(idOrPath))
      : (data.projectByPath.get(idOrPath) ??
        data.projects.find((p) => p.fullPath.toLowerCase() === idOrPath.toLowerCase()));
    if (!project) throw new HttpError(404, { message: '404 Project Not Found' });
    return project;
  }

  private findPipeline(project: SimProject, raw: string): SimPipeline {
    const pipeline = /^\d+$/.test(raw) ? this.deps.data.pipelineById.get(Number(raw)) : undefined;
    if (!pipeline || pipeline.projectId !== project.id)
      throw new HttpError(404, { message: '404 Not found' });
    return pipeline;
  }

  private findJob(project: SimProject, raw: string): ReturnType<Dataset['findJob']> & object {
    const found = /^\d+$/.test(raw) ? this.deps.data.findJob(Number(raw)) : null;
    if (!found || found.pipeline.projectId !== project.id)
      throw new HttpError(404, { message: '404 Not found' });
    return found;
  }

  private resolveSha(project: SimProject, ref: string): string {
    if (project.shaIndex.has(ref)) return ref;
    if (/^[0-9a-f]{7,40}$/i.test(ref)) {
      const lower = ref.toLowerCase();
      for (const sha of project.shaIndex.keys()) if (sha.startsWith(lower)) return sha;
    }
    for (let i = project.pipelines.length - 1; i >= 0; i--) {
      const p = project.pipelines[i]!;
      if (p.ref === ref || (p.refKind !== 'merge-request' && p.branch === ref)) return p.sha;
    }
    throw new HttpError(404, { message: '404 Commit Not Found' });
  }

  private groupWithProjects(group: SimGroup, q: URLSearchParams): Record<string, unknown> {
    const view: Record<string, unknown> = { ...this.deps.views.group(group) };
    if (bool(q.get('with_projects')) !== false) {
      view.projects = this.deps.data.projects
        .filter((p) => p.group === group)
        .slice(0, 100)
        .map((p) => this.deps.views.project(p, false));
      view.shared_projects = [];
    }
    return view;
  }

  private sortGroups(groups: SimGroup[], q: URLSearchParams): SimGroup[] {
    const orderBy = oneOf(q, 'order_by', GROUP_ORDER, 'name');
    const dir = sortDir(q, 'asc');
    const key = (g: SimGroup): string | number =>
      orderBy === 'id' ? g.id : orderBy === 'path' ? g.path : g.name.toLowerCase();
    return groups.sort((a, b) => dir * compare(key(a), key(b)) || a.id - b.id);
  }

  private listGroups(url: URL): Reply {
    const q = url.searchParams;
    let groups = [...this.deps.data.groups];
    if (bool(q.get('top_level_only')) === true) groups = groups.filter((g) => g.parentId === null);
    const search = q.get('search')?.toLowerCase();
    if (search)
      groups = groups.filter(
        (g) => g.name.toLowerCase().includes(search) || g.path.includes(search),
      );
    return this.pageOf(this.sortGroups(groups, q), url, (g) => this.deps.views.group(g));
  }

  private listSubgroups(group: SimGroup, url: URL, descendants: boolean): Reply {
    const q = url.searchParams;
    const prefix = `${group.fullPath}/`;
    let groups = this.deps.data.groups.filter((g) =>
      descendants ? g.fullPath.startsWith(prefix) : g.parentId === group.id,
    );
    const search = q.get('search')?.toLowerCase();
    if (search)
      groups = groups.filter(
        (g) => g.name.toLowerCase().includes(search) || g.path.includes(search),
      );
    return this.pageOf(this.sortGroups(groups, q), url, (g) => this.deps.views.group(g));
  }

  private listGroupProjects(group: SimGroup, url: URL): Reply {
    const q = url.searchParams;
    const prefix = `${group.fullPath}/`;
    const deep = bool(q.get('include_subgroups')) === true;
    let projects = this.deps.data.projects.filter((p) =>
      deep ? p.fullPath.startsWith(prefix) : p.group === group,
    );
    const archived = bool(q.get('archived'));
    if (archived !== null) projects = projects.filter((p) => p.archived === archived);
    const search = q.get('search')?.toLowerCase();
    if (search) projects = projects.filter((p) => p.name.toLowerCase().includes(search));
    const orderBy = oneOf(q, 'order_by', PROJECT_ORDER, 'created_at');
    const dir = sortDir(q, 'desc');
    const lastActivity = (p: SimProject): number =>
      Math.max(p.createdAt, p.pipelines[p.pipelines.length - 1]?.updatedAt ?? 0);
    const key = (p: SimProject): string | number => {
      switch (orderBy) {
        case 'id':
          return p.id;
        case 'name':
          return p.name.toLowerCase();
        case 'path':
          return p.path;
        case 'updated_at':
        case 'last_activity_at':
          return lastActivity(p);
        case 'star_count':
          return p.id % 17;
        default:
          return p.createdAt;
      }
    };
    projects.sort((a, b) => dir * compare(key(a), key(b)) || dir * (a.id - b.id));
    const simple = bool(q.get('simple')) === true;
    return this.pageOf(projects, url, (p) => this.deps.views.project(p, simple));
  }

  private listPipelines(project: SimProject, url: URL): Reply {
    const q = url.searchParams;
    const updatedAfter = date(q, 'updated_after');
    const updatedBefore = date(q, 'updated_before');
    const createdAfter = date(q, 'created_after');
    const createdBefore = date(q, 'created_before');
    const status = q.get('status');
    if (status && !PIPELINE_STATUSES.has(status)) {
      throw new HttpError(400, { error: 'status does not have a valid value' });
    }
    const scope = oneOf(
      q,
      'scope',
      new Set(['running', 'pending', 'finished', 'branches', 'tags']),
      '',
    );
    const orderBy = oneOf(q, 'order_by', PIPELINE_ORDER, 'id');
    const dir = sortDir(q, 'desc');
    const ref = q.get('ref');
    const sha = q.get('sha');
    const source = q.get('source');
    const name = q.get('name');
    const username = q.get('username');
    const userId = username
      ? (this.deps.data.users.find((u) => u.username === username)?.id ?? -1)
      : null;
    let pipelines = project.pipelines.filter(
      (p) =>
        (updatedAfter === null || p.updatedAt >= updatedAfter) &&
        (updatedBefore === null || p.updatedAt <= updatedBefore) &&
        (createdAfter === null || p.createdAt >= createdAfter) &&
        (createdBefore === null || p.createdAt <= createdBefore) &&
        (!status || p.status === status) &&
        (!ref || p.ref === ref) &&
        (!sha || p.sha === sha) &&
        (!source || p.source === source) &&
        (!name || p.name === name) &&
        (userId === null || p.userId === userId) &&
        (scope === '' ||
          (scope === 'running' && p.status === 'running') ||
          (scope === 'pending' && p.status === 'pending') ||
          (scope === 'finished' &&
            ['success', 'failed', 'canceled', 'skipped'].includes(p.status)) ||
          (scope === 'branches' && !p.tag && p.refKind !== 'merge-request') ||
          (scope === 'tags' && p.tag)),
    );
    if (scope === 'branches' || scope === 'tags') {
      // GitLab keeps only the newest pipeline per ref for these scopes.
      const newest = new Map<string, SimPipeline>();
      for (const p of pipelines) if ((newest.get(p.ref)?.id ?? 0) < p.id) newest.set(p.ref, p);
      pipelines = [...newest.values()];
    }
    if (orderBy === 'id' && dir === -1) pipelines.reverse();
    else if (orderBy !== 'id' || dir !== 1) {
      const key = (p: SimPipeline): string | number =>
        orderBy === 'updated_at'
          ? p.updatedAt
          : orderBy === 'status'
            ? p.status
            : orderBy === 'ref'
              ? p.ref
              : orderBy === 'user_id'
                ? p.userId
                : p.id;
      pipelines.sort((a, b) => dir * compare(key(a), key(b)) || dir * (a.id - b.id));
    }
    return this.pageOf(pipelines, url, (p) => this.deps.views.pipelineListItem(p));
  }

  private listJobs(pipeline: SimPipeline, url: URL): Reply {
    const q = url.searchParams;
    const scopes = [...q.getAll('scope'), ...q.getAll('scope[]')];
    for (const s of scopes) {
      if (!JOB_STATUSES.has(s))
        throw new HttpError(400, { error: 'scope does not have a valid value' });
    }
    let jobs = this.deps.data.jobsOf(pipeline);
    if (scopes.length > 0) jobs = jobs.filter((j) => scopes.includes(j.status));
    return this.pageOf(jobs, url, (j) => this.deps.views.job(j, pipeline));
  }

  private pageOf<T>(items: readonly T[], url: URL, view: (item: T) => unknown): Reply {
    const { page, headers } = paginate(items, url, this.deps.baseUrl());
    return json(200, page.map(view), headers);
  }

  private avatar(segments: string[]): Reply {
    // /uploads/-/system/{user|group}/avatar/:id/:file
    const [, dash, system, owner, avatar, rawId, file] = segments;
    const { data } = this.deps;
    const id = Number(rawId);
    const ok =
      dash === '-' &&
      system === 'system' &&
      avatar === 'avatar' &&
      file !== undefined &&
      segments.length === 7 &&
      ((owner === 'user' && data.userById.has(id)) ||
        (owner === 'group' && data.groupById.get(id)?.hasAvatar === true));
    if (!ok) {
      return {
        status: 404,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: 'Not Found\n',
      };
    }
    const key = `${owner}:${id}`;
    let png = this.avatars.get(key);
    if (!png) {
      png = identiconPng(key);
      this.avatars.set(key, png);
    }
    return {
      status: 200,
      headers: {
        'content-type': 'image/png',
        'cache-control': 'max-age=3600, private',
        'content-disposition': `inline; filename="${file}"`,
      },
      body: png,
    };
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
