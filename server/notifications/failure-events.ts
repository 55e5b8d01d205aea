import type {
  TriageVerdict,
  FailureReason,
  NotificationSettings,
  NotificationState,
  PipelineEvent,
  PipelineEventItem,
} from '../contract.ts';
import type { GitLabApi } from '../gitlab/api.ts';
import { PipelineReads } from '../gitlab/pipeline-reads.ts';
import type { GitLabCurrentUser, GitLabJob } from '../gitlab/wire.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import { latestAttempts } from '../summary/from-gitlab.ts';
import { refInWords, type RefLabel } from '../summary/merge-request-ref.ts';
import type { PipelineRecord, Project } from '../summary/model.ts';
import type { PipelineChange } from '../summary/poller.ts';
import { inQuietHours } from './notification-settings.ts';

/** What the failure detector needs. */
export interface FailureEventsDeps {
  gitlab: GitLabApi;
  /**
   * The poller's pipeline and job reads: a failure's pipeline and jobs were read (or are being read)
   * by the poller in the same cycle, so the event costs no request of its own. Default: own reads.
   */
  reads?: PipelineReads;
  clock: Clock;
  logger: Logger;
  /** The current notification settings (read on every decision, so edits apply at once). */
  settings: () => NotificationSettings;
  /** Whether a project is still watched (after the group changes, old failures no longer count). */
  isWatched?: (projectId: number) => boolean;
  /** How a ref reads (`!406` with its MR's title); default: the ref as is. */
  refLabel?: (projectId: number, ref: string) => RefLabel;
  /** The summary's record of a pipeline (source, user, failing job), for failing refs at start. */
  pipeline?: (projectId: number, pipelineId: number) => PipelineRecord | undefined;
  /** The names of a failed pipeline's failed tests, from its JUnit report (none without one). */
  failedTests?: (
    projectId: number,
    pipelineId: number,
    jobs: readonly GitLabJob[],
  ) => Promise<string[]>;
  /** Receives every event (the SSE hub); more listeners with `onEvent`. */
  emit?: (event: PipelineEvent) => void;
  /** Failures detected within this long of the first are announced together. Default 5 s. */
  coalesceMs?: number;
  /** From this many failures in one window on, one summary event replaces the single ones. Default 4. */
  burstThreshold?: number;
  /**
   * Failure signatures of a pipeline's failed jobs (server/triage/), by job id: a burst of failures
   * that share one says so instead of guessing. Absent: bursts guess from failure reasons only.
   */
  jobSignatures?: (
    projectId: number,
    pipelineId: number,
    jobs: { id: number; name: string; failedAt: number }[],
  ) => Promise<Map<number, { signature: string; sampleLine: string }>>;
  /**
   * Verdicts of the token user's failed jobs against `targetBranch` (server/triage/), by job id:
   * a `mine` notification says whether the failure is theirs, the default branch's, or a flake.
   */
  jobVerdicts?: (
    projectId: number,
    pipelineId: number,
    jobs: { id: number; name: string }[],
    targetBranch: string,
  ) => Promise<Map<number, { verdict: TriageVerdict; evidence: { text: string } }>>;
  /** Timer edge (tests may pass their own). */
  timers?: {
    set(fn: () => void, ms: number): unknown;
    clear(handle: unknown): void;
  };
}

/** The latest finished pipeline of one ref of one project. */
interface RefState {
  pipelineId: number;
  status: string;
  item: PipelineEventItem | null;
  project: Project;
  ref: string;
  at: number;
}

// GitLab job failure_reason values that point at the runner fleet rather than the code
// (https://docs.gitlab.com/api/jobs/ — failure_reason; enum in app/models/concerns/enums/ci/commit_status.rb).
const RUNNER_REASONS = new Set([
  'runner_system_failure',
  'stuck_or_timeout_failure',
  'scheduler_failure',
  'runner_unsupported',
  'no_matching_runner',
  'api_failure',
]);

const DEFAULT_TIMERS = {
  set: (fn: () => void, ms: number) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clear: (handle: unknown) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Turns the poller's status changes into `pipeline-failed` / `pipeline-fixed` events for the failures
 * that matter to the token's user: their own (triggered by them or authored with their email), a
 * project's default branch, or a starred project. Pipelines already failed at start-up (a project's
 * first listing) never notify, a pipeline notifies at most once, and failures detected close together
 * are coalesced into one summary event.
 */
export class FailureEvents {
  private readonly coalesceMs: number;
  private readonly burstThreshold: number;
  private readonly timers: NonNullable<FailureEventsDeps['timers']>;
  private readonly reads: PipelineReads;
  /** Pipelines a failure event was decided for (announced or not): never twice. */
  private readonly decided = new Set<string>();
  private readonly refs = new Map<string, RefState>();
  private readonly history: PipelineEventItem[] = [];
  private pendingFailed: PipelineEventItem[] = [];
  private pendingFixed: PipelineEventItem[] = [];
  private timer: unknown = null;
  private inFlight = new Set<Promise<void>>();
  private me: GitLabCurrentUser | null = null;
  private meLookup: Promise<GitLabCurrentUser | null> | null = null;
  private sequence = 0;
  private readonly listeners = new Set<(event: PipelineEvent) => void>();
  private stopped = false;

  constructor(private readonly deps: FailureEventsDeps) {
    this.coalesceMs = deps.coalesceMs ?? 5_000;
    this.burstThreshold = deps.burstThreshold ?? 4;
    this.timers = deps.timers ?? DEFAULT_TIMERS;
    this.reads = deps.reads ?? new PipelineReads(deps.gitlab);
  }

  /** Subscribes to every event (the desktop tray); returns the unsubscribe function. */
  onEvent(listener: (event: PipelineEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The poller listener: one call per cycle with the pipelines whose status changed. */
  observe(changes: PipelineChange[]): void {
    if (this.stopped) return;
    for (const change of changes) {
      const { project, record } = change;
      const key = `${project.id}:${record.id}`;
      const refKey = `${project.id}:${record.ref}`;
      const finished = record.status === 'success' || record.status === 'failed';
      const before = this.refs.get(refKey);
      const newestOnRef = !before || record.id >= before.pipelineId;
      if (change.baseline) {
        // History, not news: remember what was failing, announce nothing.
        if (record.status === 'failed') this.decided.add(key);
        if (finished && newestOnRef) this.setRef(refKey, project, record, null);
        continue;
      }
      if (record.status === 'failed' && !this.decided.has(key)) {
        this.decided.add(key);
        if (newestOnRef) this.setRef(refKey, project, record, null);
        this.track(this.enrich(change, 'failed'));
      } else if (record.status === 'success' && newestOnRef) {
        const wasFailing = before?.status === 'failed';
        this.setRef(refKey, project, record, null);
        if (wasFailing) this.track(this.enrich(change, 'fixed'));
      }
    }
  }

  /** The token's user, failing refs that matter and the five most recent failures, for the tray. */
  state(): NotificationState {
    const settings = this.deps.settings();
    const watched = this.deps.isWatched ?? (() => true);
    const failing = [...this.refs.values()]
      .filter(
        (r) =>
          r.status === 'failed' &&
          watched(r.project.id) &&
          !settings.muted_projects.includes(r.project.id),
      )
      .map((r) => this.relabelled(r.item ?? this.itemFromRef(r, settings)))
      .filter((item) => item.reasons.some((reason) => settings.reasons[reason]))
      .sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
    const seen = new Set<number>();
    const recent = [...this.history.map((item) => this.relabelled(item)), ...failing]
      .filter((item) => !seen.has(item.pipeline_id) && seen.add(item.pipeline_id))
      .filter(
        (item) => watched(item.project_id) && !settings.muted_projects.includes(item.project_id),
      )
      .sort((a, b) => Date.parse(b.at) - Date.parse(a.at))
      .slice(0, 5);
    return {
      user: this.me ? { id: this.me.id, username: this.me.username } : null,
      failing,
      recent,
    };
  }

  /** Resolves when every detail lookup started so far finished and pending events went out. */
  async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
    this.flush();
  }

  /** Stops announcing (pending events are dropped with the service). */
  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
  }

  private setRef(key: string, project: Project, record: PipelineChange['record'], item: null) {
    this.refs.set(key, {
      pipelineId: record.id,
      status: record.status,
      item,
      project,
      ref: record.ref,
      at: Date.parse(record.updatedAt) || this.deps.clock.now(),
    });
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  private async currentUser(): Promise<GitLabCurrentUser | null> {
    if (this.me) return this.me;
    this.meLookup ??= this.deps.gitlab.getCurrentUser().then(
      (user) => (this.me = user),
      (err: unknown) => {
        // Retried with the next failure; until then nothing is `mine`.
        this.deps.logger.warn({ err: (err as Error).message }, 'GET /user failed');
        this.meLookup = null;
        return null;
      },
    );
    return this.meLookup;
  }

  /** Looks up who and what (user, commit, failed jobs), decides the reasons, queues the event. */
  private async enrich(change: PipelineChange, kind: 'failed' | 'fixed'): Promise<void> {
    const { project, record } = change;
    // For the updated_at of this change: the poller reads the same pipeline state, and its reads
    // (every job attempt, narrowed to the latest as GitLab's default list would give) are shared.
    const [me, pipeline, jobs] = await Promise.all([
      this.currentUser(),
      this.reads.pipeline(project.id, record.id, record.updatedAt).catch(() => null),
      this.reads
        .jobs(project.id, record.id, record.updatedAt)
        .then(latestAttempts, () => [] as GitLabJob[]),
    ]);
    if (this.stopped) return;
    const failedTests =
      kind === 'failed' && this.deps.failedTests
        ? await this.deps.failedTests(project.id, record.id, jobs).catch(() => [])
        : [];
    if (this.stopped) return;
    const user = pipeline?.user ?? null;
    const commit = jobs.find((j) => j.commit)?.commit ?? null;
    const myEmails = new Set(
      [me?.email, me?.public_email, me?.commit_email]
        .filter((e): e is string => typeof e === 'string' && e !== '')
        .map((e) => e.toLowerCase()),
    );
    const settings = this.deps.settings();
    const reasons: FailureReason[] = [];
    if (
      me &&
      ((user && user.id === me.id) ||
        (commit?.author_email && myEmails.has(commit.author_email.toLowerCase())))
    )
      reasons.push('mine');
    if (project.defaultBranch && record.ref === project.defaultBranch)
      reasons.push('default-branch');
    if (settings.starred_projects.includes(project.id)) reasons.push('watched');
    const item: PipelineEventItem = {
      project_id: project.id,
      project_name: project.name,
      project_path: project.path,
      pipeline_id: record.id,
      web_url: record.webUrl,
      ref: record.ref,
      ...this.label(project.id, record.ref),
      source: record.source,
      user: user
        ? { username: user.username, name: user.name, avatar_url: user.avatar_url ?? '' }
        : null,
      commit_title: commit?.title ?? null,
      failed_jobs:
        kind === 'failed'
          ? jobs
              .filter((j) => j.status === 'failed')
              .sort((a, b) => a.id - b.id)
              .map((j) => ({
                id: j.id,
                name: j.name,
                stage: j.stage,
                failure_reason: j.failure_reason ?? null,
              }))
          : [],
      ...(failedTests.length > 0 ? { failed_tests: failedTests } : {}),
      reasons,
      at: new Date(this.deps.clock.now()).toISOString(),
    };
    const ref = this.refs.get(`${project.id}:${record.ref}`);
    if (ref && ref.pipelineId === record.id) ref.item = item;
    // Reasons the user switched off, and muted projects, are not news for them.
    const wanted = reasons.some((r) => settings.reasons[r]);
    if (!wanted || settings.muted_projects.includes(project.id)) return;
    if (kind === 'failed') await this.addSignatures(item, jobs);
    if (kind === 'failed' && reasons.includes('mine'))
      await this.addVerdicts(item, project.defaultBranch ?? '');
    if (this.stopped) return;
    if (kind === 'failed') {
      this.history.unshift(item);
      this.history.length = Math.min(this.history.length, 20);
      this.pendingFailed.push(item);
    } else {
      this.pendingFixed.push(item);
    }
    this.timer ??= this.timers.set(() => {
      this.timer = null;
      this.flush();
    }, this.coalesceMs);
  }

  /** Names each failed job's failure signature (one log read each, shared with triage's). */
  private async addSignatures(item: PipelineEventItem, jobs: readonly GitLabJob[]): Promise<void> {
    if (!this.deps.jobSignatures || item.failed_jobs.length === 0) return;
    const failedAt = (id: number) => {
      const job = jobs.find((j) => j.id === id);
      return Date.parse(job?.finished_at ?? job?.created_at ?? '') || this.deps.clock.now();
    };
    try {
      const signatures = await this.deps.jobSignatures(
        item.project_id,
        item.pipeline_id,
        item.failed_jobs.map((j) => ({ id: j.id, name: j.name, failedAt: failedAt(j.id) })),
      );
      item.failed_jobs = item.failed_jobs.map((j) => {
        const s = signatures.get(j.id);
        return { ...j, signature: s?.signature ?? null, sample_line: s?.sampleLine ?? null };
      });
    } catch (err) {
      this.deps.logger.debug({ err: (err as Error).message }, 'failure signatures unavailable');
    }
  }

  /** Judges the user's own failed jobs: theirs (`new`), the default branch's, or a flake. */
  private async addVerdicts(item: PipelineEventItem, targetBranch: string): Promise<void> {
    if (!this.deps.jobVerdicts || item.failed_jobs.length === 0 || !targetBranch) return;
    try {
      const verdicts = await this.deps.jobVerdicts(
        item.project_id,
        item.pipeline_id,
        item.failed_jobs.map((j) => ({ id: j.id, name: j.name })),
        targetBranch,
      );
      item.failed_jobs = item.failed_jobs.map((j) => {
        const v = verdicts.get(j.id);
        // The evidence names the job first ("`test` failed and passed …"): the event lists it already.
        const words = v?.evidence.text.replace(/^`[^`]*` /, '') ?? null;
        return { ...j, verdict: v?.verdict ?? null, verdict_evidence: words };
      });
    } catch (err) {
      this.deps.logger.debug({ err: (err as Error).message }, 'failure verdicts unavailable');
    }
  }

  private flush(): void {
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
    const failed = this.pendingFailed;
    const fixed = this.pendingFixed;
    this.pendingFailed = [];
    this.pendingFixed = [];
    if (this.stopped) return;
    const notify = !inQuietHours(this.deps.settings().quiet_hours, this.deps.clock.now());
    if (failed.length >= this.burstThreshold) this.emit('pipeline-failed', failed, notify);
    else for (const item of failed) this.emit('pipeline-failed', [item], notify);
    if (fixed.length >= this.burstThreshold) this.emit('pipeline-fixed', fixed, notify);
    else for (const item of fixed) this.emit('pipeline-fixed', [item], notify);
  }

  private emit(event: PipelineEvent['event'], items: PipelineEventItem[], notify: boolean): void {
    const { title, body } = describeEvent(event, items);
    const payload: PipelineEvent = {
      event,
      id: `${this.deps.clock.now().toString(36)}-${++this.sequence}`,
      title,
      body,
      coalesced: items.length > 1,
      notify,
      pipelines: items,
      timestamp: new Date(this.deps.clock.now()).toISOString(),
    };
    this.deps.emit?.(payload);
    for (const listener of this.listeners) {
      try {
        listener(payload);
      } catch (err) {
        this.deps.logger.warn({ err: (err as Error).message }, 'a failure-event listener failed');
      }
    }
  }

  private label(projectId: number, ref: string): RefLabel {
    return this.deps.refLabel?.(projectId, ref) ?? { ref_label: ref, merge_request: null };
  }

  /** The item with its ref labelled now: an MR's title arrives after the event went out. */
  private relabelled(item: PipelineEventItem): PipelineEventItem {
    return { ...item, ...this.label(item.project_id, item.ref) };
  }

  /**
   * A failing ref nobody was notified of (failing when the service started): what the summary
   * knows of its pipeline — source, user, commit title and failing job.
   */
  private itemFromRef(ref: RefState, settings: NotificationSettings): PipelineEventItem {
    const reasons: FailureReason[] = [];
    if (ref.project.defaultBranch && ref.ref === ref.project.defaultBranch)
      reasons.push('default-branch');
    if (settings.starred_projects.includes(ref.project.id)) reasons.push('watched');
    const record = this.deps.pipeline?.(ref.project.id, ref.pipelineId);
    const failure = record?.failure;
    const user = record?.user ?? null;
    return {
      project_id: ref.project.id,
      project_name: ref.project.name,
      project_path: ref.project.path,
      pipeline_id: ref.pipelineId,
      web_url: record?.webUrl ?? `${ref.project.webUrl}/-/pipelines/${ref.pipelineId}`,
      ref: ref.ref,
      ...this.label(ref.project.id, ref.ref),
      source: record?.source ?? '',
      user: user && { username: user.username, name: user.name, avatar_url: user.avatarUrl },
      commit_title: failure?.commitTitle ?? null,
      failed_jobs:
        failure?.job && failure.jobId !== null
          ? [
              {
                id: failure.jobId,
                name: failure.job.name,
                stage: failure.job.stage,
                failure_reason: failure.job.failureReason,
              },
            ]
          : [],
      reasons,
      at: new Date(ref.at).toISOString(),
    };
  }
}

const REASON_WORDS: Record<FailureReason, string> = {
  mine: 'yours',
  'default-branch': 'default branch',
  watched: 'starred project',
};

/** Longest decisive line quoted in a burst's title. */
const MAX_SHARED_LINE = 100;

/**
 * The failure signature most of a burst's pipelines share (at least two, and at least half of
 * them), with its line as printed; null when no signature is that common.
 */
function sharedError(items: PipelineEventItem[]): { pipelines: number; line: string } | null {
  const pipelinesBySignature = new Map<string, { pipelines: Set<number>; line: string }>();
  for (const item of items)
    for (const job of item.failed_jobs) {
      if (!job.signature) continue;
      let entry = pipelinesBySignature.get(job.signature);
      if (!entry)
        pipelinesBySignature.set(
          job.signature,
          (entry = { pipelines: new Set(), line: job.sample_line ?? job.signature }),
        );
      entry.pipelines.add(item.pipeline_id);
    }
  let best: { pipelines: number; line: string } | null = null;
  for (const { pipelines, line } of pipelinesBySignature.values())
    if (!best || pipelines.size > best.pipelines) best = { pipelines: pipelines.size, line };
  if (!best || best.pipelines < 2 || best.pipelines * 2 < items.length) return null;
  const line =
    best.line.length > MAX_SHARED_LINE ? `${best.line.slice(0, MAX_SHARED_LINE - 1)}…` : best.line;
  return { pipelines: best.pipelines, line };
}

/** The words of a notification: one pipeline in detail, a burst as counts with a likely cause. */
export function describeEvent(
  event: PipelineEvent['event'],
  items: PipelineEventItem[],
): { title: string; body: string } {
  const verb = event === 'pipeline-failed' ? 'failed' : 'fixed';
  if (items.length === 1) {
    const item = items[0]!;
    const jobs = item.failed_jobs.map((j) =>
      j.verdict
        ? `${j.name} (${j.verdict}${j.verdict_evidence ? ` — ${j.verdict_evidence}` : ''})`
        : j.name,
    );
    const tests = item.failed_tests ?? [];
    const why = item.reasons.map((r) => REASON_WORDS[r]).join(', ');
    const ref = refInWords({
      ref_label: item.ref_label ?? item.ref,
      merge_request: item.merge_request ?? null,
    });
    const title =
      event === 'pipeline-failed'
        ? `${item.project_name}: pipeline #${item.pipeline_id} failed on ${ref}`
        : `${item.project_name}: ${ref} is green again (#${item.pipeline_id})`;
    const parts = [
      item.commit_title,
      jobs.length > 0
        ? `Failed: ${jobs.slice(0, 3).join(', ')}${jobs.length > 3 ? '…' : ''}`
        : null,
      tests.length > 0
        ? `${tests.length} test${tests.length === 1 ? '' : 's'}: ${tests.slice(0, 2).join(', ')}${tests.length > 2 ? '…' : ''}`
        : null,
      why ? `(${why})` : null,
    ].filter(Boolean);
    return { title, body: parts.join(' — ') };
  }
  const projects = [...new Set(items.map((i) => i.project_name))];
  const jobs = items.flatMap((i) => i.failed_jobs);
  const shared = event === 'pipeline-failed' ? sharedError(items) : null;
  const runnerLike =
    jobs.length > 0 &&
    jobs.filter((j) => j.failure_reason && RUNNER_REASONS.has(j.failure_reason)).length * 2 >=
      jobs.length;
  const title =
    `${items.length} pipelines ${verb} in ${projects.length} project${projects.length === 1 ? '' : 's'}` +
    (shared
      ? ` — ${shared.pipelines === items.length ? 'all with' : `${shared.pipelines} with`} the same error: ${shared.line}`
      : event === 'pipeline-failed' && runnerLike
        ? ' — runner unavailable?'
        : '');
  const shown = projects.slice(0, 4).join(', ');
  return { title, body: projects.length > 4 ? `${shown} and ${projects.length - 4} more` : shown };
}
