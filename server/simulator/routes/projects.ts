import type { Dataset } from '../dataset.ts';
import { renderTrace } from '../logs/trace.ts';
import type { SimJob, SimPipeline, SimProject } from '../model.ts';
import { pipelineSuites } from '../test-reports/report.ts';
import { testReportSummaryView, testReportView } from '../test-reports/views.ts';
import { param, type HandlerDeps, type SimRouteModule } from './context.ts';
import { pageOf } from './groups.ts';
import {
  bool,
  compare,
  date,
  HttpError,
  JOB_STATUSES,
  json,
  oneOf,
  PIPELINE_STATUSES,
  sortDir,
  type Reply,
} from './reply.ts';
import { repositoryTree } from '../repository-tree.ts';

const PIPELINE_ORDER = new Set(['id', 'status', 'ref', 'updated_at', 'user_id']);

/** A project by numeric id or URL-encoded full path. */
export function findProject(deps: HandlerDeps, idOrPath: string): SimProject {
  const { data } = deps;
  const project = /^\d+$/.test(idOrPath)
    ? data.projectById.get(Number(idOrPath))
    : (data.projectByPath.get(idOrPath) ??
      data.projects.find((p) => p.fullPath.toLowerCase() === idOrPath.toLowerCase()));
  if (!project) throw new HttpError(404, { message: '404 Project Not Found' });
  return project;
}

/**
 * 403 for pipeline and job endpoints of a project whose pipelines the user may not read: CI/CD
 * disabled, or a Guest of a private project (doc/user/permissions.md; doc/api/rest/troubleshooting.md
 * "403 Forbidden": authenticated, but not allowed).
 */
export function assertPipelineAccess(project: SimProject): void {
  if (project.pipelineAccess && project.pipelineAccess !== 'enabled')
    throw new HttpError(403, { message: '403 Forbidden' });
}

/** A pipeline of the project; 404 when it belongs to another one. */
export function findPipeline(deps: HandlerDeps, project: SimProject, raw: string): SimPipeline {
  const pipeline = /^\d+$/.test(raw) ? deps.data.pipelineById.get(Number(raw)) : undefined;
  if (!pipeline || pipeline.projectId !== project.id)
    throw new HttpError(404, { message: '404 Not found' });
  return pipeline;
}

function findJob(
  deps: HandlerDeps,
  project: SimProject,
  raw: string,
): ReturnType<Dataset['findJob']> & object {
  const found = /^\d+$/.test(raw) ? deps.data.findJob(Number(raw)) : null;
  if (!found || found.pipeline.projectId !== project.id)
    throw new HttpError(404, { message: '404 Not found' });
  return found;
}

function resolveSha(project: SimProject, ref: string): string {
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

function listPipelines(deps: HandlerDeps, project: SimProject, url: URL): Reply {
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
  const userId = username ? (deps.data.users.find((u) => u.username === username)?.id ?? -1) : null;
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
        (scope === 'finished' && ['success', 'failed', 'canceled', 'skipped'].includes(p.status)) ||
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
  return pageOf(deps, pipelines, url, (p) => deps.views.pipelineListItem(p));
}

function listJobs(deps: HandlerDeps, pipeline: SimPipeline, url: URL): Reply {
  const q = url.searchParams;
  // doc/api/jobs.md: `include_retried` (default false) adds the earlier attempts of retried jobs.
  const withRetried = bool(q.get('include_retried')) === true;
  const scopes = [...q.getAll('scope'), ...q.getAll('scope[]')];
  for (const s of scopes) {
    if (!JOB_STATUSES.has(s))
      throw new HttpError(400, { error: 'scope does not have a valid value' });
  }
  let jobs = withRetried
    ? [...deps.data.jobsOf(pipeline), ...pipeline.retriedJobs]
    : deps.data.jobsOf(pipeline);
  if (scopes.length > 0) jobs = jobs.filter((j) => scopes.includes(j.status));
  return pageOf(deps, jobs, url, (j) => deps.views.job(j, pipeline));
}

/** GET /projects/:id and its pipelines, jobs, job logs and commits. */
export const projectRoutes: SimRouteModule = (router, deps) => {
  const { views } = deps;
  router.get('/projects/:id', (ctx) => {
    ctx.state.reply = json(200, views.project(findProject(deps, param(ctx.params, 'id')), false));
  });
  router.get('/projects/:id/pipelines', (ctx) => {
    const project = findProject(deps, param(ctx.params, 'id'));
    assertPipelineAccess(project);
    ctx.state.reply = listPipelines(deps, project, ctx.state.url);
  });
  router.get('/projects/:id/pipelines/:pipelineId', (ctx) => {
    const project = findProject(deps, param(ctx.params, 'id'));
    assertPipelineAccess(project);
    ctx.state.reply = json(
      200,
      views.pipeline(findPipeline(deps, project, param(ctx.params, 'pipelineId'))),
    );
  });
  router.get('/projects/:id/pipelines/:pipelineId/jobs', (ctx) => {
    const project = findProject(deps, param(ctx.params, 'id'));
    assertPipelineAccess(project);
    const pipeline = findPipeline(deps, project, param(ctx.params, 'pipelineId'));
    ctx.state.reply = listJobs(deps, pipeline, ctx.state.url);
  });
  // Trigger jobs live here, never among /jobs (doc/api/jobs.md, "List pipeline trigger jobs").
  router.get('/projects/:id/pipelines/:pipelineId/bridges', (ctx) => {
    const project = findProject(deps, param(ctx.params, 'id'));
    assertPipelineAccess(project);
    const pipeline = findPipeline(deps, project, param(ctx.params, 'pipelineId'));
    ctx.state.reply = pageOf(deps, pipeline.bridges, ctx.state.url, (b) =>
      views.bridge(b, pipeline),
    );
  });
  // doc/api/pipelines.md: the report of the latest builds' unexpired JUnit artifacts, and its
  // summary (kept in build_report_results, so it outlives the artifacts).
  router.get('/projects/:id/pipelines/:pipelineId/test_report', (ctx) => {
    const project = findProject(deps, param(ctx.params, 'id'));
    assertPipelineAccess(project);
    const pipeline = findPipeline(deps, project, param(ctx.params, 'pipelineId'));
    const suites = pipelineSuites(project, pipeline, deps.data.jobsOf(pipeline), deps.data.now());
    ctx.state.reply = json(200, testReportView(suites));
  });
  router.get('/projects/:id/pipelines/:pipelineId/test_report_summary', (ctx) => {
    const project = findProject(deps, param(ctx.params, 'id'));
    assertPipelineAccess(project);
    const pipeline = findPipeline(deps, project, param(ctx.params, 'pipelineId'));
    const suites = pipelineSuites(project, pipeline, deps.data.jobsOf(pipeline));
    ctx.state.reply = json(200, testReportSummaryView(suites));
  });
  // doc/api/jobs.md, "List project jobs": newest id first, every attempt (lib/api/ci/jobs.rb lists
  // `user_project.builds` without `.latest`), trigger jobs not (they are bridges, not builds).
  router.get('/projects/:id/jobs', (ctx) => {
    const project = findProject(deps, param(ctx.params, 'id'));
    assertPipelineAccess(project);
    const q = ctx.state.url.searchParams;
    const scopes = [...q.getAll('scope'), ...q.getAll('scope[]')];
    for (const s of scopes) {
      if (!JOB_STATUSES.has(s))
        throw new HttpError(400, { error: 'scope does not have a valid value' });
    }
    const jobs: { job: SimJob; pipeline: SimPipeline }[] = [];
    for (const pipeline of project.pipelines)
      for (const job of [...deps.data.jobsOf(pipeline), ...pipeline.retriedJobs])
        if (scopes.length === 0 || scopes.includes(job.status)) jobs.push({ job, pipeline });
    jobs.sort((a, b) => b.job.id - a.job.id);
    ctx.state.reply = pageOf(deps, jobs, ctx.state.url, (j) => views.job(j.job, j.pipeline));
  });
  router.get('/projects/:id/jobs/:jobId', (ctx) => {
    const project = findProject(deps, param(ctx.params, 'id'));
    assertPipelineAccess(project);
    const found = findJob(deps, project, param(ctx.params, 'jobId'));
    ctx.state.reply = json(200, views.job(found.job, found.pipeline));
  });
  router.get('/projects/:id/jobs/:jobId/trace', (ctx) => {
    const project = findProject(deps, param(ctx.params, 'id'));
    assertPipelineAccess(project);
    const found = findJob(deps, project, param(ctx.params, 'jobId'));
    const trace = renderTrace({
      seed: deps.data.options.seed,
      project,
      pipeline: found.pipeline,
      job: found.job,
    });
    ctx.state.reply = {
      status: 200,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: trace,
    };
  });
  // doc/api/merge_requests.md, "List project merge requests": `iids[]` picks merge requests by
  // iid, every state unless `state` says otherwise; an unknown iid is simply not listed.
  router.get('/projects/:id/merge_requests', (ctx) => {
    const project = findProject(deps, param(ctx.params, 'id'));
    const q = ctx.state.url.searchParams;
    const raw = [...q.getAll('iids[]'), ...q.getAll('iids')].flatMap((v) => v.split(','));
    if (raw.some((v) => !/^\d+$/.test(v))) throw new HttpError(400, { error: 'iids is invalid' });
    const iids = new Set(raw.map(Number));
    const mrs = [...project.mergeRequests.values()]
      .filter((mr) => iids.size === 0 || iids.has(mr.iid))
      .sort((a, b) => b.iid - a.iid);
    ctx.state.reply = pageOf(deps, mrs, ctx.state.url, (mr) => views.mergeRequest(project, mr));
  });
  // doc/api/merge_requests.md, "Get single MR": what labels a merge-request pipeline.
  router.get('/projects/:id/merge_requests/:iid', (ctx) => {
    const project = findProject(deps, param(ctx.params, 'id'));
    const raw = param(ctx.params, 'iid');
    const mr = /^\d+$/.test(raw) ? project.mergeRequests.get(Number(raw)) : undefined;
    if (!mr) throw new HttpError(404, { message: '404 Not found' });
    ctx.state.reply = json(200, views.mergeRequest(project, mr));
  });
  // doc/api/repositories.md, "List repository tree": `ref` (default branch when absent), `path`,
  // `recursive`; paged like other lists; an unknown ref is `404 Tree Not Found`.
  router.get('/projects/:id/repository/tree', (ctx) => {
    const project = findProject(deps, param(ctx.params, 'id'));
    assertPipelineAccess(project);
    const q = ctx.state.url.searchParams;
    let sha: string;
    try {
      sha = resolveSha(project, q.get('ref') ?? project.defaultBranch);
    } catch {
      throw new HttpError(404, { message: '404 Tree Not Found' });
    }
    const folder = (q.get('path') ?? '').replace(/^\/+|\/+$/g, '');
    const recursive = bool(q.get('recursive')) === true;
    const entries = repositoryTree(deps.data, project, sha).filter((e) => {
      if (folder && !e.path.startsWith(`${folder}/`)) return false;
      const rest = folder ? e.path.slice(folder.length + 1) : e.path;
      return recursive || !rest.includes('/');
    });
    ctx.state.reply = pageOf(deps, entries, ctx.state.url, (e) => e);
  });
  router.get('/projects/:id/repository/commits/:sha', (ctx) => {
    const project = findProject(deps, param(ctx.params, 'id'));
    ctx.state.reply = json(
      200,
      views.commitOf(project, resolveSha(project, param(ctx.params, 'sha'))),
    );
  });
};
