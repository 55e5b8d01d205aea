import type { Clock } from './platform/clock.ts';
import { systemClock } from './platform/clock.ts';
import type { VersionInfo } from './contract.ts';
import { avatarRoutes } from './avatar/routes.ts';
import { SseHub } from './events/sse-hub.ts';
import type { GitLabApi } from './gitlab/api.ts';
import { groupRoutes } from './groups/routes.ts';
import { createApp, type RouteModule } from './http/app.ts';
import { listen } from './http/listen.ts';
import type { SecurityOptions } from './http/security.ts';
import { jobRoutes } from './jobs/routes.ts';
import { FailureEvents } from './notifications/failure-events.ts';
import { readNotificationSettings } from './notifications/notification-settings.ts';
import { notificationRoutes } from './notifications/routes.ts';
import type { Logger } from './platform/logger.ts';
import { settingsRoutes } from './settings/routes.ts';
import type { SettingsStore } from './settings/settings-store.ts';
import { PipelineDetailsService } from './summary/pipeline-details.ts';
import { PipelinePoller, type PollerTiming } from './summary/poller.ts';
import { pipelineRoutes } from './summary/routes.ts';
import { versionInfo } from './version.ts';

/** Everything the service is built from; edges (GitLab, store, clock) are injected. */
export interface ServiceOptions {
  gitlab: GitLabApi;
  group: string;
  since: string;
  settingsStore: SettingsStore;
  logger: Logger;
  host: string;
  port: number;
  clock?: Clock;
  timing?: Partial<PollerTiming>;
  security?: SecurityOptions;
  dashboardDir?: string;
  version?: VersionInfo;
  /** Extra domains' routes (AI analysis), built with access to the poller. */
  extraRoutes?: (poller: PipelinePoller) => RouteModule[];
  /** Called on stop, after the HTTP server closed (e.g. to close the AI store or the simulator). */
  onStop?: () => Promise<void> | void;
}

/** A running Pipeline Summary Service. */
export interface PipelineSummaryService {
  url: string;
  port: number;
  poller: PipelinePoller;
  hub: SseHub;
  /** Failure events that matter to the token's user (also sent on the SSE stream). */
  failureEvents: FailureEvents;
  /** Graceful shutdown: SSE streams closed, poller stopped, server closed. */
  stop(): Promise<void>;
}

/** Builds and starts the service: poller, SSE hub, HTTP API (and dashboard) on host:port. */
export async function startService(options: ServiceOptions): Promise<PipelineSummaryService> {
  const clock = options.clock ?? systemClock;
  const hub = new SseHub({ now: () => clock.now() });
  const poller = new PipelinePoller({
    gitlab: options.gitlab,
    clock,
    logger: options.logger,
    group: options.group,
    since: options.since,
    timing: options.timing,
    onChange: (summaryJson, activityJson) => hub.publish(summaryJson, activityJson),
  });
  const failureEvents = new FailureEvents({
    gitlab: options.gitlab,
    clock,
    logger: options.logger,
    settings: () => readNotificationSettings(options.settingsStore),
    emit: (event) => hub.broadcast(event.event, JSON.stringify(event)),
  });
  poller.onPipelineChanges((changes) => failureEvents.observe(changes));
  const details = new PipelineDetailsService(
    options.gitlab,
    (id) => poller.projectName(id),
    200,
    poller.pipelineUpdatedAt,
  );
  const app = createApp({
    logger: options.logger,
    version: options.version ?? versionInfo(),
    security: options.security,
    dashboardDir: options.dashboardDir,
    routes: [
      pipelineRoutes({ poller, hub, details }),
      settingsRoutes({
        poller,
        store: options.settingsStore,
        forgeUrl: options.gitlab.baseUrl,
        gitlab: options.gitlab,
      }),
      groupRoutes({ gitlab: options.gitlab }),
      jobRoutes({ gitlab: options.gitlab }),
      avatarRoutes({ gitlab: options.gitlab }),
      notificationRoutes({ store: options.settingsStore, events: failureEvents }),
      ...(options.extraRoutes?.(poller) ?? []),
    ],
  });
  const server = await listen(app, { host: options.host, port: options.port });
  poller.start();
  let stopping: Promise<void> | null = null;
  return {
    url: server.url,
    port: server.port,
    poller,
    hub,
    failureEvents,
    stop: () =>
      (stopping ??= (async () => {
        failureEvents.stop();
        hub.close();
        await poller.stop();
        await server.close();
        await options.onStop?.();
      })()),
  };
}
