import type { GitLabApi } from '../gitlab/api.ts';
import type { HealthService } from '../group-health/health-service.ts';
import type { SignatureTable } from '../history/failure-signatures.ts';
import type { PipelineHistory } from '../history/pipeline-history.ts';
import type { RouteModule } from '../http/app.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { MergeRequestLookup } from '../summary/merge-request-ref.ts';
import type { FailureSignaturesEvent } from './contract.ts';
import { MyMergeRequests } from './my-merge-requests.ts';
import { triageRoutes } from './routes.ts';
import { SignatureRecorder, type JobLogSource } from './signature-recorder.ts';
import type { TestEvidence } from './test-evidence.ts';
import { TriageService } from './triage-service.ts';

export { MyMergeRequests } from './my-merge-requests.ts';
export type { TestEvidence } from './test-evidence.ts';
export { TriageService } from './triage-service.ts';
export type { FailedJob } from './triage-service.ts';

/** What triage is built from. */
export interface TriageDeps {
  history: PipelineHistory;
  signatures: SignatureTable;
  /** Job logs (the GitLab client with the capped log reader). */
  logs: JobLogSource;
  clock: Clock;
  logger: Logger;
  /** The summary's current window. */
  since: () => string;
  mergeRequests: MergeRequestLookup;
  /** Job logs read per poll cycle to sign failed jobs (default 4). */
  logsPerCycle?: number;
  /** GitLab: the token's user and the group's merge requests. */
  gitlab: Pick<GitLabApi, 'getCurrentUser' | 'listGroupMergeRequests'>;
  /** The watched group. */
  group: () => string;
  /** Group health: the week's flaky jobs. */
  health: Pick<HealthService, 'health'>;
  /** Test-level evidence (the JUnit test reports, issue 26) once the service has it. */
  tests?: TestEvidence;
  /** Announces jobs signed in the background (the SSE event `failure-signatures`). */
  announce?: (event: FailureSignaturesEvent) => void;
}

/** Triage wired: the service, its routes and the poll-cycle stage that signs failed jobs. */
export interface Triage {
  service: TriageService;
  /** The token user's open merge requests with a verdict per failure. */
  mine: MyMergeRequests;
  routes: RouteModule;
  recorder: SignatureRecorder;
  /** Call once per poll cycle: signs a few failed jobs (skipped while the last call still runs). */
  cycle(): void;
  /** Resolves when the current cycle's and the requested background log reads are done (tests). */
  idle(): Promise<void>;
  stop(): void;
}

/** Builds triage over the pipeline history and its signature table. */
export function openTriage(deps: TriageDeps): Triage {
  const controller = new AbortController();
  const recorder = new SignatureRecorder({
    history: deps.history,
    table: deps.signatures,
    logs: deps.logs,
    clock: deps.clock,
    logger: deps.logger,
    perCycle: deps.logsPerCycle,
    retentionDays: deps.history.retentionDays,
    onSigned: (rows) =>
      deps.announce?.({
        event: 'failure-signatures',
        jobs: rows.map((r) => ({
          project_id: r.projectId,
          pipeline_id: r.pipelineId,
          job_id: r.jobId,
          signature: r.signature!,
        })),
        timestamp: new Date(deps.clock.now()).toISOString(),
      }),
  });
  const service = new TriageService({
    history: deps.history,
    recorder,
    clock: deps.clock,
    since: deps.since,
    mergeRequests: deps.mergeRequests,
  });
  const mine = new MyMergeRequests({
    gitlab: deps.gitlab,
    group: deps.group,
    history: deps.history,
    flakes: () => deps.health.health('7d').flakes,
    recorder,
    tests: deps.tests,
    clock: deps.clock,
    logger: deps.logger,
  });
  let running: Promise<void> | null = null;
  return {
    service,
    mine,
    recorder,
    routes: triageRoutes({ triage: service, mine }),
    cycle() {
      mine.cycle();
      if (running || controller.signal.aborted) return;
      running = recorder
        .cycle(controller.signal)
        .then(
          () => undefined,
          (err: unknown) => {
            deps.logger.debug({ err: (err as Error).message }, 'signing failed jobs failed');
          },
        )
        .finally(() => (running = null));
    },
    idle: async () => {
      await running;
      await recorder.settled();
    },
    stop: () => controller.abort(),
  };
}
