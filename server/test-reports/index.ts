import type { GitLabApi } from '../gitlab/api.ts';
import type { HistoryStore } from '../history/history-store.ts';
import type { PipelineHistory } from '../history/pipeline-history.ts';
import type { RouteModule } from '../http/app.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import { TestReportRecorder } from './recorder.ts';
import { testReportRoutes } from './routes.ts';
import { TestReportStore } from './store.ts';
import { TestReportService } from './test-report-service.ts';

export { TestReportService } from './test-report-service.ts';
export type { FailedCaseHistory, PipelineTests } from './test-report-service.ts';

/** What the test reports are built from: the history and its database, GitLab, a clock. */
export interface TestReportsDeps {
  store: HistoryStore;
  history: PipelineHistory;
  gitlab: Pick<GitLabApi, 'getTestReportSummary' | 'getTestReport' | 'bulk'>;
  clock: Clock;
  logger: Logger;
  /** The summary's window, the default window of every answer. */
  since: () => string;
}

/** The test reports wired: the recorder the history feeds, the answers and their routes. */
export interface TestReports {
  recorder: TestReportRecorder;
  service: TestReportService;
  routes: RouteModule;
}

/** Builds the test reports on the history database (its tables come with the history's migrations). */
export function openTestReports(deps: TestReportsDeps): TestReports {
  const store = new TestReportStore(deps.store.database());
  const recorder = new TestReportRecorder({
    gitlab: deps.gitlab,
    store,
    pipeline: (id) => deps.history.pipeline(id),
    projectPath: (id) => deps.history.watchedProject(id)?.path,
    flush: () => deps.history.flush(),
    clock: deps.clock,
    logger: deps.logger,
  });
  const service = new TestReportService({
    store,
    recorder,
    clock: deps.clock,
    projects: () => deps.history.watchedProjects(),
    pipeline: (id) => deps.history.pipeline(id),
    since: deps.since,
    retentionDays: deps.store.retentionDays,
  });
  return { recorder, service, routes: testReportRoutes({ tests: service }) };
}
