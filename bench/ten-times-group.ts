import type { HistoryStore } from '../server/history/history-store.ts';
import type {
  JobHistoryRecord,
  PipelineHistoryRecord,
  ProjectHistoryRecord,
} from '../server/history/model.ts';
import { markRetried } from '../server/history/model.ts';
import type { SimulatorOptions } from '../server/simulator/index.ts';

const DAY_MS = 86_400_000;

/**
 * Ten times the 200-project group (issue 24 §6): 2,000 projects whose summary window (7 days) the
 * simulator serves, GitLab.com's 2,000 requests a minute and 50 ms latency. The rest of 90 days of
 * history (about a million pipelines, nine million jobs) is written into history.db directly.
 */
export const TEN_TIMES_GROUP: SimulatorOptions = {
  live: false,
  projects: 2_000,
  latencyMs: 50,
  pipelinesPerDay: 5.5,
  days: 7,
  rateLimitPerMinute: 2_000,
};

/** Days of history the large group has. */
export const HISTORY_DAYS = 90;
/** Jobs of every synthetic pipeline (plus a retried attempt in 3 % of them). */
const JOBS_PER_PIPELINE = 9;

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Writes synthetic finished pipelines with jobs for `projects` from `fromMs` to `toMs` through the
 * store's bulk write (a project's pipelines a transaction), and jobs for the stored pipelines of the
 * window that have none yet — the history of a service that has run for `HISTORY_DAYS`. Returns the
 * pipelines and jobs written.
 */
export function writeLargeHistory(
  store: HistoryStore,
  projects: readonly ProjectHistoryRecord[],
  fromMs: number,
  toMs: number,
  perDay: number,
): { pipelines: number; jobs: number } {
  const random = seeded(24);
  let pipelineId = 2_000_000_000;
  let jobId = 9_000_000_000;
  let pipelines = 0;
  let jobs = 0;
  const names = Array.from({ length: JOBS_PER_PIPELINE }, (_, i) =>
    i === 0 ? 'build' : i < 7 ? `test-${i}` : `deploy-${i}`,
  );
  const jobsOf = (p: PipelineHistoryRecord, failAt: number): JobHistoryRecord[] => {
    const attempts: JobHistoryRecord[] = [];
    names.forEach((name, i) => {
      const flaky = random() < 0.03;
      const statuses = i === failAt ? ['failed'] : flaky ? ['failed', 'success'] : ['success'];
      for (const status of statuses) {
        const duration = 60 + random() * 240;
        const id = jobId++;
        attempts.push({
          projectId: p.projectId,
          pipelineId: p.pipelineId,
          jobId: id,
          name,
          stage: i === 0 ? 'build' : i < 7 ? 'test' : 'deploy',
          status,
          retried: false,
          allowFailure: false,
          failureReason: status === 'failed' ? 'script_failure' : null,
          createdAt: p.createdAt,
          startedAt: p.createdAt + 5_000,
          finishedAt: p.createdAt + 5_000 + duration * 1000,
          duration,
          queuedDuration: 1 + random() * 20,
          webUrl: `${p.webUrl.replace(/pipelines\/\d+$/, 'jobs/')}${id}`,
        });
      }
    });
    return markRetried(attempts);
  };
  for (const project of projects) {
    const batch: PipelineHistoryRecord[] = [];
    const batchJobs = new Map<number, JobHistoryRecord[]>();
    const count = Math.round(((toMs - fromMs) / DAY_MS) * perDay * (0.5 + random()));
    for (let i = 0; i < count; i++) {
      const createdAt = fromMs + Math.floor(random() * (toMs - fromMs));
      const mr = random() < 0.4;
      const failed = random() < 0.12;
      const id = pipelineId++;
      const finished = createdAt + 600_000;
      const p: PipelineHistoryRecord = {
        projectId: project.id,
        pipelineId: id,
        ref: mr
          ? `refs/merge-requests/${1 + Math.floor(random() * 80)}/head`
          : project.defaultBranch,
        sha: `${id.toString(16)}${'0'.repeat(32)}`,
        source: mr ? 'merge_request_event' : 'push',
        status: failed ? 'failed' : 'success',
        defaultBranch: !mr,
        user: {
          id: 1 + (i % 40),
          username: `user${i % 40}`,
          name: `User ${i % 40}`,
          avatarUrl: '',
        },
        commitTitle: `Change ${id}`,
        commitAuthor: `User ${i % 40}`,
        createdAt,
        startedAt: createdAt + 5_000,
        finishedAt: finished,
        updatedAt: new Date(finished).toISOString(),
        duration: 595,
        queuedDuration: 5,
        webUrl: `${project.webUrl}/-/pipelines/${id}`,
        detailsFor: new Date(finished).toISOString(),
        jobsFor: new Date(finished).toISOString(),
      };
      batch.push(p);
      batchJobs.set(id, jobsOf(p, failed ? 1 + Math.floor(random() * 6) : -1));
    }
    store.savePipelines(batch, batchJobs);
    pipelines += batch.length;
    for (const list of batchJobs.values()) jobs += list.length;
  }
  // The window's pipelines as the service recorded them, with the jobs a long run has read.
  const window = store.load(toMs, Number.MAX_SAFE_INTEGER, false).pipelines;
  for (let i = 0; i < window.length; i += 5_000) {
    const slice = window
      .slice(i, i + 5_000)
      .filter((p) => p.status === 'success' || p.status === 'failed')
      .map((p) => ({ ...p, jobsFor: p.updatedAt }));
    const sliceJobs = new Map(
      slice.map((p) => [p.pipelineId, jobsOf(p, p.status === 'failed' ? 1 : -1)]),
    );
    store.savePipelines(slice, sliceJobs);
    pipelines += slice.length;
    for (const list of sliceJobs.values()) jobs += list.length;
  }
  return { pipelines, jobs };
}
