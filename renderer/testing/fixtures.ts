import type {
  ActivityResponse,
  ContributorActivity,
  PipelineDetails,
  ProjectSummary,
  RecentPipeline,
  SummaryResponse,
} from '../../server/contract.ts';

/** A small seeded PRNG (mulberry32) so fixtures are random-looking but identical every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
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

/** A project summary whose counts agree with its recent pipelines. */
export function projectSummary(
  id: number,
  recent: RecentPipeline[],
  overrides: Partial<ProjectSummary> = {},
): ProjectSummary {
  const successful = recent.filter((p) => p.status === 'success').length;
  const failed = recent.filter((p) => p.status === 'failed').length;
  const running = recent.filter((p) => ['running', 'pending', 'created'].includes(p.status)).length;
  const finished = successful + failed;
  return {
    project_id: id,
    project_name: `project-${id}`,
    project_path: `acme/project-${id}`,
    web_url: `http://gitlab.test/acme/project-${id}`,
    total_pipelines: recent.length,
    successful,
    failed,
    running,
    total_duration: recent.reduce((s, p) => s + (p.duration ?? 0), 0),
    success_rate: finished === 0 ? 0 : Math.round((successful / finished) * 1000) / 10,
    recent_pipelines: recent,
    ...overrides,
  };
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
  const all = projects.flatMap((p) => p.recent_pipelines);
  const successful = all.filter((p) => p.status === 'success').length;
  const failed = all.filter((p) => p.status === 'failed').length;
  return {
    projects,
    summary: {
      total_pipelines: all.length,
      successful,
      failed,
      running: projects.reduce((s, p) => s + p.running, 0),
      average_duration: Math.round(
        all.reduce((s, p) => s + (p.duration ?? 0), 0) / (all.length || 1),
      ),
      overall_success_rate:
        successful + failed === 0
          ? 0
          : Math.round((successful / (successful + failed)) * 1000) / 10,
    },
    status: {
      state: 'ok',
      last_updated: now.toISOString(),
      last_error: null,
      group: 'acme',
      since: '7d',
    },
  };
}

/** Pipeline details with a failing test job. */
export function pipelineDetails(overrides: Partial<PipelineDetails> = {}): PipelineDetails {
  return {
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
 * GET /api/pipelines/activity as the service computes it (UTC-aligned hour or day buckets over the
 * whole window) for the given pipelines; `summaryFixture`'s recent pipelines are all its pipelines.
 */
export function activityFixture(
  pipelines: readonly RecentPipeline[],
  now: Date,
  since = '7d',
  windowMs = 7 * 86_400_000,
): ActivityResponse {
  const size = windowMs <= 2 * 86_400_000 ? 3_600_000 : 86_400_000;
  const cutoff = now.getTime() - windowMs;
  const first = Math.floor(cutoff / size) * size;
  const buckets = Array.from(
    { length: Math.floor(now.getTime() / size) - Math.floor(cutoff / size) + 1 },
    (_, i) => ({
      start: new Date(first + i * size).toISOString(),
      success: 0,
      failed: 0,
      running: 0,
      other: 0,
    }),
  );
  const users = new Map<string, ContributorActivity>();
  for (const p of pipelines) {
    const t = Date.parse(p.created_at);
    if (t < cutoff) continue;
    const outcome =
      p.status === 'success' || p.status === 'failed'
        ? p.status
        : ['running', 'pending', 'created'].includes(p.status)
          ? 'running'
          : 'other';
    buckets[Math.floor((t - first) / size)]![outcome]++;
    if (!p.user) continue;
    const u = users.get(p.user.username) ?? {
      ...p.user,
      pipelines: 0,
      successful: 0,
      failed: 0,
      success_rate: 0,
    };
    users.set(p.user.username, u);
    u.pipelines++;
    if (outcome === 'success') u.successful++;
    if (outcome === 'failed') u.failed++;
  }
  const contributors = [...users.values()]
    .map((u) => ({
      ...u,
      success_rate:
        u.successful + u.failed === 0
          ? 0
          : Math.round((u.successful / (u.successful + u.failed)) * 1000) / 10,
    }))
    .sort((a, b) => b.pipelines - a.pipelines || a.name.localeCompare(b.name));
  return { since, bucket: size === 3_600_000 ? 'hour' : 'day', buckets, contributors };
}
