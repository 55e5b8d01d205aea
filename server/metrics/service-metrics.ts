/**
 * The service's Prometheus metrics, through prom-client. Gauges and summaries are computed at
 * scrape time from the live state (`collect()`, prom-client's README "Custom metrics"): the poller's
 * status, group health's view of the history, the SSE hub, the GitLab host budget. Counters and
 * histograms are told events through hooks the composition root wires (GitLab requests, poll
 * cycles, AI answers). Names follow prometheus.io/docs/practices/naming: one `pipeline_summary_`
 * prefix, base units (seconds), `_total` on counters, and labels from closed sets or project paths.
 */
import { Counter, Gauge, Histogram, Registry, Summary } from 'prom-client';
import type { SummaryStatus } from '../contract.ts';
import type { GroupHealth } from '../group-health/group-health.ts';
import type { RequestBudget } from '../gitlab/request-budget.ts';
import type { GitLabRequestInfo } from '../gitlab/transport.ts';
import type { PollCycle } from '../summary/poller.ts';
import { processMetrics } from './process-metrics.ts';
import { windowStats, type WindowStats } from './window-stats.ts';

/** Where the gauges read the live state from (each read at scrape time). */
export interface MetricSources {
  /** Group health over the summary window, with the whole retention read. */
  health: () => Promise<GroupHealth>;
  /** The poller's freshness and GitLab health. */
  status: () => SummaryStatus;
  /** Dashboards connected to the live stream. */
  sseSubscribers: () => number;
  /** The GitLab host's request budget, when the connection has one. */
  budget?: Pick<RequestBudget, 'host' | 'remainingInWindow' | 'lastRateLimitRemaining'> | undefined;
}

/** One AI answer as the AI service tells it (server/ai/answer-events.ts; words from closed sets). */
export interface AnalysisEvent {
  task: string;
  provider: string;
  outcome: string;
}

const PREFIX = 'pipeline_summary_';
const POLL_STATES: readonly SummaryStatus['state'][] = ['loading', 'ok', 'degraded'];
const DEFAULT_BRANCH_STATES = ['broken', 'passing', 'unknown'] as const;
/** Quantiles of the duration summaries. */
const QUANTILES = [0.5, 0.9, 0.99];

/**
 * The metrics of one service, in a registry of its own (never prom-client's global one, so two
 * services in one process, as in tests, do not share series); process metrics are merged in at
 * scrape time from the one process-wide registry. Built in two steps, as the composition root
 * builds what they read: the counters first (the poller and the AI service are given their hooks),
 * then `gaugeFrom` the live state once it exists.
 */
export class ServiceMetrics {
  /** This service's metrics (process metrics are not in it; see `scrape`). */
  readonly registry = new Registry();
  private readonly gitlabRequests: Counter<'kind' | 'code'>;
  private readonly gitlabRequestSeconds: Histogram<'kind'>;
  private readonly pollCycleSeconds: Histogram<'outcome'>;
  private readonly analyses: Counter<'provider' | 'task' | 'outcome'>;
  private gauged = false;
  private stats: { health: GroupHealth; stats: WindowStats } | null = null;

  constructor(options: { version: string }) {
    const registers = [this.registry];
    new Gauge({
      name: `${PREFIX}build_info`,
      help: 'Always 1; the running version in the label.',
      labelNames: ['version'],
      registers,
    }).set({ version: options.version }, 1);
    this.gitlabRequests = new Counter({
      name: `${PREFIX}gitlab_requests_total`,
      help: "Requests made to GitLab, by kind of resource and HTTP status code ('none' when no answer arrived).",
      labelNames: ['kind', 'code'],
      registers,
    });
    this.gitlabRequestSeconds = new Histogram({
      name: `${PREFIX}gitlab_request_duration_seconds`,
      help: 'How long GitLab requests took, by kind of resource.',
      labelNames: ['kind'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.pollCycleSeconds = new Histogram({
      name: `${PREFIX}poll_cycle_duration_seconds`,
      help: 'How long poll cycles took, by outcome (ok, or failed when GitLab failed the cycle).',
      labelNames: ['outcome'],
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    });
    this.analyses = new Counter({
      name: `${PREFIX}ai_analyses_total`,
      help: 'AI answers (job and pipeline analyses, follow-ups) by who answered, task and outcome (answered, fallback, failed).',
      labelNames: ['provider', 'task', 'outcome'],
      registers,
    });
  }

  /** Adds the gauges and summaries computed at scrape time from `sources` (once). */
  gaugeFrom(sources: MetricSources): void {
    if (this.gauged) throw new Error('The metrics already read the live state');
    this.gauged = true;
    const registers = [this.registry];
    const window = () => this.windowStats(sources);

    // ── Computed at scrape time from the pipeline history (the summary window). ──
    new Gauge({
      name: `${PREFIX}pipelines`,
      help: 'Pipelines created in the summary window, by project path and GitLab status.',
      labelNames: ['project', 'status'],
      registers,
      async collect() {
        const { pipelines } = await window();
        this.reset();
        for (const [project, byStatus] of pipelines)
          for (const [status, count] of byStatus) this.set({ project, status }, count);
      },
    });
    new Gauge({
      name: `${PREFIX}default_branches`,
      help: 'Watched projects by default-branch state: broken, passing or unknown (group health).',
      labelNames: ['state'],
      registers,
      async collect() {
        const { defaultBranches } = await window();
        for (const state of DEFAULT_BRANCH_STATES)
          this.set({ state }, defaultBranches.filter((p) => p.state === state).length);
      },
    });
    new Gauge({
      name: `${PREFIX}default_branch_broken`,
      help: "1 while the project's default branch is broken (its newest finished pipeline failed), 0 while it passes; absent while unknown.",
      labelNames: ['project'],
      registers,
      async collect() {
        const { defaultBranches } = await window();
        this.reset();
        for (const { project, state } of defaultBranches)
          if (state !== 'unknown') this.set({ project }, state === 'broken' ? 1 : 0);
      },
    });
    new Gauge({
      name: `${PREFIX}flaky_jobs`,
      help: 'Job names that flaked in the summary window (failed and passed on one commit), by project.',
      labelNames: ['project'],
      registers,
      async collect() {
        const { flakes } = await window();
        this.reset();
        for (const [project, { jobs }] of flakes) this.set({ project }, jobs);
      },
    });
    new Gauge({
      name: `${PREFIX}job_flakes`,
      help: 'Flakes in the summary window (a job name failing and passing on one commit), by project.',
      labelNames: ['project'],
      registers,
      async collect() {
        const { flakes } = await window();
        this.reset();
        for (const [project, { flakes: count }] of flakes) this.set({ project }, count);
      },
    });
    durationSummary(
      registers,
      `${PREFIX}pipeline_duration_seconds`,
      "Durations of the summary window's finished (success or failed) pipelines, by project; recomputed from the window at each scrape.",
      async () => {
        const current = await window();
        return { key: current, durations: current.pipelineDurations };
      },
    );
    durationSummary(
      registers,
      `${PREFIX}job_duration_seconds`,
      "Durations of every finished attempt of those pipelines' jobs, by project; recomputed from the window at each scrape.",
      async () => {
        const current = await window();
        return { key: current, durations: current.jobDurations };
      },
    );

    // ── Computed at scrape time from the live service. ──
    new Gauge({
      name: `${PREFIX}poll_state`,
      help: "1 for the poller's current state (loading before the first load, ok, degraded while GitLab fails), 0 for the others.",
      labelNames: ['state'],
      registers,
      collect() {
        const current = sources.status().state;
        for (const state of POLL_STATES) this.set({ state }, state === current ? 1 : 0);
      },
    });
    new Gauge({
      name: `${PREFIX}last_update_timestamp_seconds`,
      help: 'When the summary was last read from GitLab in full (Unix time); 0 before the first read.',
      registers,
      collect() {
        const iso = sources.status().last_updated;
        this.set(iso === null ? 0 : Date.parse(iso) / 1000);
      },
    });
    new Gauge({
      name: `${PREFIX}sse_subscribers`,
      help: 'Dashboards connected to the live event stream.',
      registers,
      collect() {
        this.set(sources.sseSubscribers());
      },
    });
    new Gauge({
      name: `${PREFIX}gitlab_request_budget_remaining`,
      help: "Requests the service's own budget still allows to the GitLab host in the current minute (90% of GitLab's published limit).",
      labelNames: ['host'],
      registers,
      collect() {
        const { budget } = sources;
        if (budget) this.set({ host: budget.host }, budget.remainingInWindow());
      },
    });
    new Gauge({
      name: `${PREFIX}gitlab_rate_limit_remaining`,
      help: "GitLab's last RateLimit-Remaining header for the host; absent until GitLab sent one.",
      labelNames: ['host'],
      registers,
      collect() {
        const remaining = sources.budget?.lastRateLimitRemaining;
        this.reset();
        if (remaining !== undefined && remaining !== null)
          this.set({ host: sources.budget!.host }, remaining);
      },
    });
  }

  /** Counts one GitLab request (the connection's request hook). */
  countGitLabRequest(info: GitLabRequestInfo): void {
    const code = info.status === 0 ? 'none' : String(info.status);
    this.gitlabRequests.inc({ kind: info.kind, code });
    this.gitlabRequestSeconds.observe({ kind: info.kind }, info.durationMs / 1000);
  }

  /** Records one poll cycle (the poller's cycle hook). */
  observePollCycle(cycle: PollCycle): void {
    this.pollCycleSeconds.observe({ outcome: cycle.ok ? 'ok' : 'failed' }, cycle.durationMs / 1000);
  }

  /** Counts one AI answer (the AI service's answer hook). */
  countAnalysis(event: AnalysisEvent): void {
    this.analyses.inc({ provider: event.provider, task: event.task, outcome: event.outcome });
  }

  /** The Prometheus text exposition of this service's metrics and the process's. */
  async scrape(): Promise<string> {
    return Registry.merge([processMetrics(), this.registry]).metrics();
  }

  /** The exposition's media type (`text/plain; version=0.0.4`). */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** The window's numbers, computed once per group-health computation (scrapes read it often). */
  private async windowStats(sources: MetricSources): Promise<WindowStats> {
    const health = await sources.health();
    if (this.stats?.health !== health) this.stats = { health, stats: windowStats(health) };
    return this.stats.stats;
  }
}

/**
 * A per-project duration summary refilled from the window whenever its numbers changed: prom-client
 * summaries quantile what was observed, so the window's durations are observed again into fresh
 * series (a project with none has no series). Its `_sum` and `_count` describe the window, so they
 * can fall: read them as gauges, never with rate().
 */
function durationSummary(
  registers: Registry[],
  name: string,
  help: string,
  read: () => Promise<{ key: object; durations: Map<string, number[]> }>,
): void {
  let filledFrom: object | null = null;
  let filled: string[] = [];
  new Summary({
    name,
    help,
    labelNames: ['project'],
    percentiles: QUANTILES,
    registers,
    async collect() {
      const { key, durations } = await read();
      if (key === filledFrom) return;
      filledFrom = key;
      for (const project of filled) this.remove({ project });
      filled = [];
      for (const [project, values] of durations) {
        if (values.length === 0) continue;
        filled.push(project);
        for (const value of values) this.observe({ project }, value);
      }
    },
  });
}
