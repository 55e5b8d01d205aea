import {
  failingJob,
  type ActivityResponse,
  type BridgeDetails,
  type PipelineDetails,
  type ProjectSummary,
  type ProviderStatus,
  type RecentPipeline,
  type SummaryResponse,
} from '../../server/contract.ts';
// Tests may import server code (the production renderer may not): every number below is computed
// by the service's own functions, so the oracle cannot drift from what the API serves.
import type { GitLabJobStatus } from '../../server/gitlab/wire.ts';
import { computeActivity } from '../../server/summary/activity.ts';
import { toBridgeDetails } from '../../server/summary/from-gitlab.ts';
import type { PipelineRecord } from '../../server/summary/model.ts';
import { summarise } from '../../server/summary/summarise.ts';
import { Rng } from '../../server/simulator/random.ts';

/** A seeded stream in [0, 1) (the simulator's mulberry32): random-looking, identical every run. */
export function seeded(seed: number): () => number {
  const rng = new Rng(seed);
  return () => rng.next();
}

/** The AI provider's status out of the box (offline, no key, nothing pinned), with `over` on top. */
export function providerStatusFixture(over: Partial<ProviderStatus> = {}): ProviderStatus {
  return {
    provider: 'offline',
    model: '',
    baseUrl: '',
    apiKeySet: false,
    apiKeySource: null,
    secretStore: null,
    pinnedByEnvironment: false,
    fallbackToOffline: true,
    providers: ['offline', 'openai', 'anthropic'],
    ...over,
  };
}

const USERS = [
  { username: 'ada', name: 'Ada Lovelace' },
  { username: 'grace', name: 'Grace Hopper' },
  { username: 'linus', name: 'Linus Torvalds' },
  { username: 'margaret', name: 'Margaret Hamilton' },
];
const STATUSES = ['success', 'success', 'success', 'failed', 'running', 'canceled'];

/** A recent pipeline; fields default to a passing push on main. */
export function recentPipeline(overrides: Partial<RecentPipeline> = {}): RecentPipeline {
  return {
    pipeline_id: 1000,
    status: 'success',
    ref: 'main',
    source: 'push',
    created_at: '2026-03-10T10:00:00.000Z',
    duration: 300,
    web_url: 'http://gitlab.test/acme/api/-/pipelines/1000',
    user: { username: 'ada', name: 'Ada Lovelace', avatar_url: 'http://gitlab.test/ada.png' },
    ...overrides,
  };
}

/** The service's record of a recent pipeline, so fixtures can run the service's own rules. */
function toRecord(p: RecentPipeline, projectId: number): PipelineRecord {
  return {
    id: p.pipeline_id,
    projectId,
    status: p.status,
    ref: p.ref,
    source: p.source,
    createdAt: Date.parse(p.created_at),
    updatedAt: p.created_at,
    webUrl: p.web_url,
    duration: p.duration,
    user: p.user
      ? { id: 0, username: p.user.username, name: p.user.name, avatarUrl: p.user.avatar_url }
      : null,
    detailsFor: p.created_at,
  };
}

/** A project summary as the service computes it from exactly these pipelines (newest first). */
export function projectSummary(
  id: number,
  recent: RecentPipeline[],
  overrides: Partial<ProjectSummary> = {},
): ProjectSummary {
  const project = {
    id,
    name: `project-${id}`,
    path: `acme/project-${id}`,
    webUrl: `http://gitlab.test/acme/project-${id}`,
  };
  const records = recent.map((p) => toRecord(p, id));
  const { projects } = summarise([project], () => records, Date.now(), Infinity);
  return { ...projects[0]!, recent_pipelines: recent, ...overrides };
}

/** A whole summary of `count` projects with seeded random pipelines in the 7 days before `now`. */
export function summaryFixture(count: number, now: Date, seed = 42): SummaryResponse {
  const rnd = seeded(seed);
  let nextId = 5000;
  const projects = Array.from({ length: count }, (_, i) => {
    const n = 1 + Math.floor(rnd() * 8);
    const recent = Array.from({ length: n }, () => {
      const user = USERS[Math.floor(rnd() * USERS.length)]!;
      const id = nextId++;
      return recentPipeline({
        pipeline_id: id,
        status: STATUSES[Math.floor(rnd() * STATUSES.length)]!,
        ref: rnd() < 0.6 ? 'main' : `feature/${id}`,
        created_at: new Date(now.getTime() - Math.floor(rnd() * 7 * 86_400_000)).toISOString(),
        duration: 60 + Math.floor(rnd() * 900),
        web_url: `http://gitlab.test/acme/project-${i + 1}/-/pipelines/${id}`,
        user: { ...user, avatar_url: `http://gitlab.test/avatars/${user.username}.png` },
      });
    }).sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
    return projectSummary(i + 1, recent);
  });
  // The service's own summary of these pipelines (and so its order and overall numbers).
  const computed = summarise(
    projects.map((p) => ({
      id: p.project_id,
      name: p.project_name,
      path: p.project_path!,
      webUrl: p.web_url!,
    })),
    (id) => projects[id - 1]!.recent_pipelines.map((p) => toRecord(p, id)),
    now.getTime(),
    7 * 86_400_000,
  );
  return {
    ...computed,
    status: {
      state: 'ok',
      last_updated: now.toISOString(),
      last_error: null,
      group: 'acme',
      since: '7d',
    },
  };
}

/** Pipeline details with a failing test job; `failing_job_id` by the service's own rule. */
export function pipelineDetails(overrides: Partial<PipelineDetails> = {}): PipelineDetails {
  const details: PipelineDetails = {
    pipeline_id: 1000,
    project_id: 1,
    project_name: 'project-1',
    status: 'failed',
    ref: 'main',
    source: 'push',
    created_at: '2026-03-10T10:00:00.000Z',
    started_at: '2026-03-10T10:00:05.000Z',
    finished_at: '2026-03-10T10:05:05.000Z',
    duration: 300,
    web_url: 'http://gitlab.test/acme/project-1/-/pipelines/1000',
    user: {
      id: 1,
      username: 'ada',
      name: 'Ada Lovelace',
      avatar_url: 'http://gitlab.test/ada.png',
    },
    commit: {
      id: 'abcdef1234567890',
      short_id: 'abcdef12',
      title: 'Fix the flaky cache test',
      message: 'Fix the flaky cache test\n',
      author_name: 'Ada Lovelace',
      author_email: 'ada@example.test',
      created_at: '2026-03-10T09:59:00.000Z',
    },
    jobs: [
      job(11, 'build', 'build', 'success', 40),
      job(12, 'lint', 'test', 'success', 20),
      job(13, 'unit', 'test', 'failed', 95),
      job(14, 'deploy', 'deploy', 'skipped', null),
    ],
    ...overrides,
  };
  return { failing_job_id: failingJob(details.jobs)?.id ?? null, ...details };
}

function job(id: number, name: string, stage: string, status: string, duration: number | null) {
  return {
    id,
    name,
    stage,
    status,
    created_at: '2026-03-10T10:00:00.000Z',
    started_at: duration === null ? null : '2026-03-10T10:00:10.000Z',
    finished_at: duration === null ? null : '2026-03-10T10:02:00.000Z',
    duration,
    web_url: `http://gitlab.test/acme/project-1/-/jobs/${id}`,
    failure_reason: status === 'failed' ? 'script_failure' : null,
  };
}

/**
 * A trigger job of pipeline details, converted from GitLab's bridge (GET
 * /projects/:id/pipelines/:pipeline_id/bridges) by the service's own conversion; `downstream`
 * null is a trigger whose pipeline has not been created.
 */
export function bridgeDetails(
  id: number,
  name: string,
  downstream: { id: number; status: GitLabJobStatus; project: string } | null,
): BridgeDetails {
  // GitLab's bridge status follows its downstream pipeline's (doc/ci/pipelines/downstream_pipelines.md).
  const status = downstream?.status ?? 'created';
  return toBridgeDetails({
    id,
    name,
    stage: 'deploy',
    status,
    created_at: '2026-03-10T10:03:00.000Z',
    web_url: `http://gitlab.test/acme/project-1/-/jobs/${id}`,
    downstream_pipeline: downstream
      ? {
          id: downstream.id,
          status: downstream.status,
          web_url: `http://gitlab.test/acme/${downstream.project}/-/pipelines/${downstream.id}`,
        }
      : null,
  });
}

/**
 * GET /api/pipelines/activity as the service computes it (UTC-aligned hour or day buckets over the
 * whole window) for the given pipelines; `summaryFixture`'s recent pipelines are all its pipelines.
 */
export function activityFixture(
  pipelines: readonly RecentPipeline[],
  now: Date,
  since = '7d',
  windowMs = 7 * 86_400_000,
): ActivityResponse {
  return computeActivity(
    pipelines.map((p) => toRecord(p, 0)),
    now.getTime(),
    windowMs,
    since,
  );
}
