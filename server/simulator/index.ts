import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock, type Clock } from '../platform/clock.ts';
import { Dataset } from './dataset.ts';
import type { HealthScenarios } from './health-scenarios.ts';
import type { TestScenarios } from './test-reports/scenarios.ts';
import type { TriageScenarios } from './triage-scenarios.ts';
import { Faults, type FaultController } from './faults.ts';
import { LIMITS as GRAPHQL_LIMITS } from './graphql/execute.ts';
import { LiveWorld, type FailureChoice } from './live.ts';
import type { SimUser } from './model.ts';
import { createSimulatorApp } from './server.ts';
import { Stats, type SimulatorStats } from './stats.ts';
import { Views } from './views.ts';

export type { HealthScenarios } from './health-scenarios.ts';
export type { TestScenarios } from './test-reports/scenarios.ts';
export type { TriageScenarios } from './triage-scenarios.ts';
export type { FailureChoice } from './live.ts';
export type { Fault, FaultController, FaultHandle, RewritableReply } from './faults.ts';
export type { RecordedRequest, RouteKind, SimulatorStats } from './stats.ts';

/** How to start the simulator; every field has a demo-friendly default. */
export interface SimulatorOptions {
  /** Dataset seed (default 42): same seed + same clock start = same data. */
  seed?: number;
  /** Active projects in the top group (default 12; more are generated names). */
  projects?: number;
  /** Mean pipelines per project per day (default 6). */
  pipelinesPerDay?: number;
  /** Days of history (default 14). */
  days?: number;
  /** Tests in every JUnit report (default 24–90 per job); benches ask for thousands. */
  testsPerReport?: number;
  /** Share of projects whose test jobs upload JUnit reports (default: every test job does). */
  testReportShare?: number;
  /** Added to every response (default 0). */
  latencyMs?: number;
  /** Advance by itself every `tickMs` (default true: the demo wants life). Tests pass false. */
  live?: boolean;
  /** Live tick (default 3000 ms). */
  tickMs?: number;
  /** Accepted tokens (default ['demo-token']); the n-th belongs to the n-th simulated engineer. */
  tokens?: string[];
  /** The top group's full path (default 'acme'). */
  groupPath?: string;
  /** Listen host (default 127.0.0.1). */
  host?: string;
  /** Listen port (default 0 = any free port). */
  port?: number;
  /** Time source (default the system clock). */
  clock?: Clock;
  /** Requests per minute before GitLab-style 429s (default 2000, GitLab.com's authenticated limit). */
  rateLimitPerMinute?: number;
  /**
   * OAuth 2.0 access tokens, accepted only as `Authorization: Bearer` (doc/api/rest/authentication.md);
   * the n-th belongs to the n-th simulated engineer, like `tokens`.
   */
  oauthTokens?: string[];
  /**
   * The instance's time zone for non-commit timestamps, minutes east of UTC (default 0, as on
   * gitlab.com). Commit dates always carry their committer's offset.
   */
  utcOffsetMinutes?: number;
}

/** A running simulator. */
export interface GitLabSimulator {
  /** Base URL without /api/v4, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** The first accepted token. */
  readonly token: string;
  /** The top group's full path. */
  readonly groupPath: string;
  readonly faults: FaultController;
  readonly stats: SimulatorStats;
  /** Advances the world one tick (what live mode does every `tickMs`). */
  step(): void;
  /**
   * Starts a `created` pipeline (random active project when omitted); `byTokenUser` makes the first
   * token's user its author (what GET /user answers), `ref` pushes it to that branch, `yamlErrors`
   * makes its CI configuration invalid (created failed, without jobs, as GitLab does).
   */
  startPipeline(
    projectId?: number,
    options?: { byTokenUser?: boolean; ref?: string; yamlErrors?: string },
  ): { projectId: number; pipelineId: number };
  /**
   * Finishes every job of a pipeline as `status` implies and bumps `updated_at`; a failure may name
   * the job that fails (`job`) and how (`failure`, the log it ends with), else the first running
   * stage's job fails as its tool usually does.
   */
  finishPipeline(
    projectId: number,
    pipelineId: number,
    status: 'success' | 'failed',
    failure?: FailureChoice,
  ): void;
  /** GitLab's Retry: failed/canceled jobs get new attempts and the pipeline runs again. */
  retryPipeline(projectId: number, pipelineId: number): void;
  /** Deletes a pipeline (a user's delete, or GitLab's retention cleanup). */
  deletePipeline(projectId: number, pipelineId: number): void;
  /**
   * Adds a trigger job whose downstream pipeline starts in `downstreamProjectId`; with
   * `strategy: 'depend'` a failed downstream pipeline fails the trigger job and its pipeline.
   */
  addBridge(
    projectId: number,
    pipelineId: number,
    bridge: { name: string; stage: string; downstreamProjectId: number; strategy?: 'depend' },
  ): { bridgeId: number; downstreamPipelineId: number };
  /** Makes a project's pipelines unreadable (403) the way GitLab does, or readable again. */
  setPipelineAccess(projectId: number, access: 'enabled' | 'ci-disabled' | 'guest'): void;
  /** Ids of the projects in the top group (what the poller watches), oldest first. */
  projectIds(): number[];
  /** Changes the latency added to every response from now on. */
  setLatency(ms: number): void;
  /** Changes the requests per minute allowed before 429s from now on. */
  setRateLimit(perMinute: number): void;
  /**
   * Changes GraphQL's complexity, depth or query-size limit from now on (GitLab may lower them, or
   * raise what fields cost, which refuses the same queries; app/graphql/gitlab_schema.rb,
   * GraphqlController::MAX_QUERY_SIZE).
   */
  setGraphQLLimits(limits: Partial<{ complexity: number; depth: number; querySize: number }>): void;
  /** The health scenarios the dataset carries: ground truth for health detections. */
  readonly scenarios: HealthScenarios;
  /** The test-report scenarios: ground truth for failing, flaky and expired test reports. */
  readonly testScenarios: TestScenarios;
  /** Triage ground truth: the token user's MRs by verdict, the registry outage, a twice-fixed error. */
  readonly triage: TriageScenarios;
  /** Dataset totals (for logs and reports). */
  counts(): { groups: number; projects: number; pipelines: number; jobs: number; users: number };
  close(): Promise<void>;
}

/** Builds the seeded dataset and starts the GitLab REST v4 simulator on loopback. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<GitLabSimulator> {
  const clock = options.clock ?? systemClock;
  const seed = options.seed ?? 42;
  const tokens = options.tokens ?? ['demo-token'];
  const oauthTokens = options.oauthTokens ?? [];
  if (tokens.length === 0) throw new Error('The simulator needs at least one token');
  const groupPath = (options.groupPath ?? 'acme').replace(/^\/+|\/+$/g, '');
  const data = new Dataset(
    {
      seed,
      projects: Math.max(0, Math.floor(options.projects ?? 12)),
      pipelinesPerDay: Math.max(0, options.pipelinesPerDay ?? 6),
      days: Math.max(0, options.days ?? 14),
      groupPath,
      now: clock.now(),
    },
    clock,
  );
  if (options.testsPerReport !== undefined || options.testReportShare !== undefined)
    data.projects.forEach((p, i) => {
      p.junit = {
        ...(p.junit ?? { expireDays: 30, forced: new Map() }),
        testsPerReport: options.testsPerReport,
        // Every n-th project keeps its reports, so the share holds across the group.
        none:
          options.testReportShare !== undefined &&
          Math.floor((i + 1) * options.testReportShare) === Math.floor(i * options.testReportShare),
      };
    });
  const humans = data.users.filter((u) => !u.bot);
  const tokenUsers = new Map<string, SimUser>([
    ...tokens.map((t, i) => [t, humans[i % humans.length]!] as const),
    ...oauthTokens.map((t, i) => [t, humans[i % humans.length]!] as const),
  ]);
  const world = new LiveWorld(data, clock, seed);
  const faults = new Faults();
  const stats = new Stats();
  const host = options.host ?? '127.0.0.1';
  let baseUrl = '';
  const views = new Views(data, () => baseUrl, options.utcOffsetMinutes ?? 0);
  const handlerDeps = {
    data,
    views,
    faults,
    stats,
    clock,
    tokens: tokenUsers,
    oauthTokens: new Set(oauthTokens),
    latencyMs: Math.max(0, options.latencyMs ?? 0),
    rateLimitPerMinute: options.rateLimitPerMinute ?? 2000,
    graphqlLimits: {
      complexity: GRAPHQL_LIMITS.complexity,
      depth: GRAPHQL_LIMITS.depth,
      querySize: GRAPHQL_LIMITS.querySize,
    },
    baseUrl: () => baseUrl,
  };
  const app = createSimulatorApp(handlerDeps);
  const server = createServer(app.callback());
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let timer: NodeJS.Timeout | null = null;
  if (options.live ?? true) {
    timer = setInterval(() => world.step(), Math.max(10, options.tickMs ?? 3000));
    timer.unref();
  }

  return {
    url: baseUrl,
    token: tokens[0]!,
    groupPath,
    faults,
    stats,
    step: () => world.step(),
    startPipeline: (projectId, options = {}) => {
      const p = world.start(projectId, {
        userId: options.byTokenUser ? tokenUsers.get(tokens[0]!)!.id : undefined,
        ref: options.ref,
        yamlErrors: options.yamlErrors,
      });
      return { projectId: p.projectId, pipelineId: p.id };
    },
    finishPipeline: (projectId, pipelineId, status, failure) =>
      world.finish(projectId, pipelineId, status, failure),
    retryPipeline: (projectId, pipelineId) => world.retry(projectId, pipelineId),
    deletePipeline: (projectId, pipelineId) => world.delete(projectId, pipelineId),
    addBridge: (projectId, pipelineId, bridge) => world.addBridge(projectId, pipelineId, bridge),
    setPipelineAccess: (projectId, access) => {
      const project = data.projectById.get(projectId);
      if (!project) throw new Error(`The simulator has no project ${projectId}`);
      project.pipelineAccess = access;
    },
    projectIds: () => data.topProjects().map((p) => p.id),
    setLatency: (ms) => {
      handlerDeps.latencyMs = Math.max(0, ms);
    },
    setRateLimit: (perMinute) => {
      handlerDeps.rateLimitPerMinute = Math.max(1, perMinute);
    },
    setGraphQLLimits: (limits) => {
      Object.assign(handlerDeps.graphqlLimits, limits);
    },
    scenarios: data.scenarios,
    testScenarios: data.testScenarios,
    triage: data.triage,
    counts: () => data.counts(),
    close: async () => {
      if (timer) clearInterval(timer);
      faults.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
