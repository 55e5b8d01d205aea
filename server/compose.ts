import { readFileSync } from 'node:fs';
import path from 'node:path';
import { aiConfigFrom, aiRoutes, createAiService } from './ai/index.ts';
import type { JobTestFailure } from './ai/job-context.ts';
import { AnalysisStore } from './ai/store/analysis-store.ts';
import { avatarRoutes } from './avatar/routes.ts';
import type { ServeConfig } from './config.ts';
import type { VersionInfo } from './contract.ts';
import { SseHub } from './events/sse-hub.ts';
import { ccTrayRoutes, CCTRAY_PATH } from './feeds/routes.ts';
import { checkGitLab, type GitLabConnection } from './gitlab/connect.ts';
import { withCappedJobLogs } from './gitlab/job-log-stream.ts';
import { PipelineReads } from './gitlab/pipeline-reads.ts';
import { openGitLab } from './gitlab-source.ts';
import { groupRoutes } from './groups/routes.ts';
import { historyDaysFrom, openGroupHealth, type GroupHealth } from './group-health/index.ts';
import { createApp } from './http/app.ts';
import { listen } from './http/listen.ts';
import { planExposure, type Exposure } from './http/exposure.ts';
import { jobRoutes } from './jobs/routes.ts';
import { METRICS_PATH, metricsRoutes } from './metrics/routes.ts';
import { ServiceMetrics } from './metrics/service-metrics.ts';
import { FailureEvents } from './notifications/failure-events.ts';
import { readNotificationSettings } from './notifications/notification-settings.ts';
import { notificationRoutes } from './notifications/routes.ts';
import { systemClock, type Clock } from './platform/clock.ts';
import { AppError } from './platform/errors.ts';
import type { Logger } from './platform/logger.ts';
import type { SecretStore } from './platform/secret-store.ts';
import { settingsRoutes } from './settings/routes.ts';
import { FileSettingsStore } from './settings/settings-store.ts';
import { PipelineDetailsService } from './summary/pipeline-details.ts';
import { PipelinePoller, type PollerTiming } from './summary/poller.ts';
import { pipelineRoutes } from './summary/routes.ts';
import type { FailedCaseHistory } from './test-reports/index.ts';
import { openTriage, type Triage } from './triage/index.ts';
import { testLevelEvidence } from './triage/test-level-evidence.ts';
import { versionInfo } from './version.ts';

/** Edges the service is built with; tests replace the clock, timing and GitLab connection. */
export interface ServiceEdges {
  logger: Logger;
  env: NodeJS.ProcessEnv;
  /** The OS keychain (or its file fallback) holding the GitLab token and the AI key. */
  secretStore?: SecretStore;
  /** Folder of the built dashboard to serve at `/`. */
  dashboardDir?: string;
  clock?: Clock;
  timing?: Partial<PollerTiming>;
  version?: VersionInfo;
  /** A GitLab connection opened by the caller (the test harness's simulator) instead of ours. */
  connection?: GitLabConnection;
}

/** What the service is built from: `serve`'s configuration; public URLs default to none. */
export type ServiceConfig = Omit<ServeConfig, 'open' | 'publicUrls'> & { publicUrls?: string[] };

/** A running Pipeline Summary Service. */
export interface RunningService {
  url: string;
  port: number;
  poller: PipelinePoller;
  hub: SseHub;
  /** Failure events that matter to the token's user (also sent on the SSE stream). */
  failureEvents: FailureEvents;
  /** Group health over the pipeline history. */
  groupHealth: GroupHealth;
  /** Triage: failure signatures and past fixes over the same history. */
  triage: Triage;
  /** How others reach the service, and its access token when shared (see http/exposure.ts). */
  exposure: Exposure;
  /** Closes everything in the reverse order it was built; safe to call twice. */
  stop(): Promise<void>;
}

/** The simulator moves every few seconds; the demo polls it briskly so it feels alive. */
const DEMO_TIMING = { fastIntervalMs: 2_000, slowIntervalMs: 5_000 };

/**
 * The composition root: builds the service top to bottom and starts it. Misconfiguration (no group,
 * no token, a token GitLab rejects, an unknown group, a port in use) fails here with a message that
 * says what to do, after closing whatever was already open.
 */
export async function composeService(
  config: ServiceConfig,
  edges: ServiceEdges,
): Promise<RunningService> {
  const { logger } = edges;
  const clock = edges.clock ?? systemClock;
  const closers: (() => unknown)[] = [];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) await close();
  };
  try {
    // Data at rest (DESIGN §5): the dir 0700 and every file in it 0600.
    const settingsStore = new FileSettingsStore(config.dataDir, (m) => logger.warn(m));
    const exposure = await planExposure(
      {
        host: config.host,
        publicUrls: config.publicUrls ?? [],
        tls: config.tls !== undefined,
        trustedProxies: config.trustedProxies,
        trustedProxyHeader: config.trustedProxyHeader,
      },
      edges.secretStore,
    );
    const connection = edges.connection ?? (await openGitLab(config, edges));
    closers.push(() => connection.close());
    if (!edges.connection && !connection.demo) await checkGitLab(connection, logger);
    const { gitlab, group } = connection;
    // One read per pipeline state for the poller, the failure events and the history alike.
    const reads = new PipelineReads(gitlab);
    // Prometheus metrics: counters hear events from here on; gauges read the live state below.
    const version = edges.version ?? versionInfo();
    const metrics = new ServiceMetrics({ version: version.version });
    const unobserve = connection.observeRequests?.((info) => metrics.countGitLabRequest(info));
    if (unobserve) closers.push(unobserve);

    // Pipeline history (history.db) for group health and a warm start.
    const groupHealth = openGroupHealth({
      dataDir: config.dataDir,
      gitlab,
      reads,
      clock,
      logger,
      since: config.since,
      retentionDays: historyDaysFrom(edges.env),
      inMemory: connection.demo,
    });
    closers.push(() => groupHealth.close());
    // Job logs for the AI and the failure signatures, read through the capped log reader.
    const jobLogs = withCappedJobLogs(gitlab, connection.jobLogs);
    const hub = new SseHub({ now: () => clock.now() });
    // Failure signatures: a few failed jobs' logs read after each poll cycle.
    const triage = openTriage({
      history: groupHealth.history,
      signatures: groupHealth.signatures,
      logs: jobLogs,
      clock,
      logger,
      since: groupHealth.window,
      mergeRequests: groupHealth.mergeRequests,
      gitlab,
      group: () => poller.target.group,
      health: groupHealth.health,
      // Issue 26's reports judge a failed job by its tests when they all point the same way.
      tests: testLevelEvidence({
        failedTests: (pipelineId, jobId) =>
          groupHealth.testReports.service.jobTestFailures(pipelineId, jobId).map(toJobTestFailure),
        defaultBranch: (projectId) => groupHealth.history.watchedProject(projectId)?.defaultBranch,
      }),
      // Signatures read in the background reach the open dashboards, which ask again.
      announce: (event) => hub.broadcast(event.event, JSON.stringify(event)),
    });
    closers.push(() => triage.stop());

    const poller = new PipelinePoller({
      gitlab,
      clock,
      logger,
      group,
      since: config.since,
      timing: edges.timing ?? (connection.demo ? DEMO_TIMING : config.cadence),
      reads,
      onChange: (summaryJson, activityJson) => hub.publish(summaryJson, activityJson),
      observer: groupHealth.observer,
      onCycle: (cycle) => {
        metrics.observePollCycle(cycle);
        triage.cycle();
      },
      mergeRequests: groupHealth.mergeRequests,
      testReportsApi: () => groupHealth.testReports.recorder.mode,
    });
    groupHealth.warmStart(poller);
    const failureEvents = new FailureEvents({
      gitlab,
      reads,
      clock,
      logger,
      settings: () => readNotificationSettings(settingsStore),
      isWatched: (projectId) => poller.projectName(projectId) !== undefined,
      refLabel: poller.refLabel,
      pipeline: poller.pipelineRecord,
      failedTests: async (_projectId, pipelineId, jobs) =>
        (await groupHealth.testReports.service.pipelineTests(pipelineId, jobs)).failed_tests.map(
          (t) => t.name,
        ),
      // Signatures already known only: an event reads nothing the poller has not read.
      jobSignatures: async (_projectId, _pipelineId, jobs) => triage.service.knownSignatures(jobs),
      jobVerdicts: (projectId, pipelineId, jobs, targetBranch) =>
        triage.mine.verdicts(projectId, pipelineId, jobs, targetBranch),
      emit: (event) => hub.broadcast(event.event, JSON.stringify(event)),
    });
    poller.onPipelineChanges((changes) => failureEvents.observe(changes));
    closers.push(() => failureEvents.stop());
    // Details ask GitLab for the pipeline each time (a deleted one leaves the summary at once);
    // unchanged ones cost only that. A finished pipeline's jobs come from the shared reads (the
    // failure just announced: no jobs read).
    const details = new PipelineDetailsService({
      gitlab,
      reads,
      projectName: poller.projectName,
      onGone: poller.pipelineGone,
      tests: (pipelineId, jobs) => groupHealth.testReports.service.pipelineTests(pipelineId, jobs),
      fixedBefore: (projectId, pipelineId, jobs) =>
        triage.service.fixedBefore(projectId, pipelineId, jobs),
    });

    const store = AnalysisStore.open(path.join(config.dataDir, 'analyses.db'), logger);
    closers.push(() => store.close());
    // The demo analyses offline unless AI_PROVIDER asks for a real provider, so it needs no key.
    const aiConfig =
      connection.demo && !edges.env.AI_PROVIDER
        ? { provider: 'offline' as const }
        : aiConfigFrom(edges.env);
    const ai = createAiService({
      gitlab: jobLogs,
      store,
      logger,
      clock,
      config: aiConfig,
      secretStore: edges.secretStore,
      projectName: poller.projectName,
      flakeHistory: groupHealth.flakeHistory,
      failedTests: async (pipelineId, jobId) =>
        groupHealth.testReports.service.jobTestFailures(pipelineId, jobId).map(toJobTestFailure),
      pastFixes: (projectId, pipelineId, jobId, jobName) =>
        triage.service.fixedBeforeInWords(projectId, pipelineId, jobId, jobName),
      storedRuns: groupHealth.history,
      onAnswer: (event) => metrics.countAnalysis(event),
    });
    // The cctray feed and the gauges read group health's current view of the whole history.
    const currentHealth = () => groupHealth.health.current();
    metrics.gaugeFrom({
      health: currentHealth,
      status: () => poller.status,
      sseSubscribers: () => hub.size,
      budget: connection.budget,
    });

    const app = createApp({
      logger,
      version,
      security: exposure.security,
      // Monitors and Prometheus may send the access token as the Basic-auth password there.
      access: exposure.access && { ...exposure.access, feedPaths: [CCTRAY_PATH, METRICS_PATH] },
      dashboardDir: edges.dashboardDir,
      routes: [
        pipelineRoutes({ poller, hub, details }),
        settingsRoutes({ poller, store: settingsStore, forgeUrl: gitlab.baseUrl, gitlab }),
        groupRoutes({ gitlab }),
        jobRoutes({ gitlab, logs: connection.jobLogs }),
        avatarRoutes({ gitlab, now: () => clock.now() }),
        notificationRoutes({ store: settingsStore, events: failureEvents }),
        aiRoutes(ai),
        groupHealth.routes,
        groupHealth.testReports.routes,
        triage.routes,
      ],
      rootRoutes: [
        ccTrayRoutes({ source: async () => (await currentHealth()).index }),
        metricsRoutes(metrics),
      ],
    });
    const server = await listen(app, {
      host: config.host,
      port: config.port,
      tls: readTls(config),
    });
    closers.push(() => server.close());
    poller.start();
    closers.push(() => poller.stop());
    closers.push(() => hub.close());

    let stopping: Promise<void> | null = null;
    return {
      url: server.url,
      port: server.port,
      poller,
      hub,
      failureEvents,
      groupHealth,
      triage,
      exposure,
      stop: () => (stopping ??= closeAll()),
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}

/** A failed test case of the reports as the AI analysis (and triage, a subset) is told it. */
function toJobTestFailure(c: FailedCaseHistory): JobTestFailure {
  return {
    suite: c.run.suite,
    classname: c.result.classname,
    name: c.result.name,
    file: c.result.file,
    status: c.result.status,
    trace: c.result.stackTrace,
    knownFailingSince:
      c.knownFailingSinceMs === null ? null : new Date(c.knownFailingSinceMs).toISOString(),
    flakes: c.recentFlakes,
    runs: c.runs,
    failures: c.failures,
  };
}

function readTls(config: Pick<ServeConfig, 'tls'>) {
  if (!config.tls) return undefined;
  try {
    return { cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile) };
  } catch (err) {
    throw new AppError(
      'bad_request',
      `Cannot read the TLS certificate or key: ${(err as Error).message}`,
    );
  }
}
