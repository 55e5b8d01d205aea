/**
 * `explain` without a running service: GitLab itself with the stored token, and the AI service
 * (server/ai) run in-process over the data dir's analysis store, so the provider chosen on the
 * dashboard (or by AI_PROVIDER) answers, the offline analyser by default, and the answer is kept
 * for the dashboard like any other analysis.
 */
import path from 'node:path';
import { aiConfigFrom, createAiService } from '../../server/ai/index.ts';
import { AnalysisStore } from '../../server/ai/store/analysis-store.ts';
import { gitlabConnection } from '../../server/gitlab/connect.ts';
import { withCappedJobLogs } from '../../server/gitlab/job-log-stream.ts';
import { GitLabTransport } from '../../server/gitlab/transport.ts';
import type { GitLabProject } from '../../server/gitlab/wire.ts';
import { projectSchema } from '../../server/gitlab/wire-schemas.ts';
import { toJobResponse } from '../../server/jobs/job-response.ts';
import { AppError, type ErrorCode } from '../../server/platform/errors.ts';
import { silentLogger } from '../../server/platform/logger.ts';
import type { SecretStore } from '../../server/platform/secret-store.ts';
import { CliError, type CliErrorCode } from '../errors.ts';
import { projectOf } from './job-ref.ts';
import { jobAnalysisOf, type JobSource } from './job-source.ts';

/** How GitLab's answers (AppErrors from the client) read to an `explain` user. */
const CLI_CODES: Readonly<Record<ErrorCode, CliErrorCode>> = {
  not_found: 'job_not_found',
  unauthorized: 'auth_failed',
  forbidden: 'auth_failed',
  upstream_unavailable: 'network',
  upstream_timeout: 'timeout',
  rate_limited: 'network',
  overloaded: 'network',
  bad_request: 'general',
  not_configured: 'general',
  payload_too_large: 'general',
  unsupported_media_type: 'general',
  internal: 'general',
};

/** GitLab's errors (their messages name the project or job) with the CLI's codes. */
async function mapped<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    throw new CliError(CLI_CODES[err.code], err.message, { cause: err });
  }
}

/** What the direct source is built from. */
export interface GitLabSourceOptions {
  /** GitLab's base URL (a relative root included). */
  baseUrl: string;
  token: string;
  /** Where analyses.db lives (the service's data dir). */
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** Holds an AI provider's key set from the dashboard. */
  secretStore?: SecretStore | undefined;
}

/** GitLab itself as a job source; the analysis store is opened only when an analysis is asked. */
export function gitlabJobSource(options: GitLabSourceOptions): JobSource {
  const connection = gitlabConnection({
    baseUrl: options.baseUrl,
    token: options.token,
    group: '',
    logger: silentLogger,
  });
  const { gitlab } = connection;
  // GitLabApi reads projects by numeric id only; GitLab's REST API also takes the URL-encoded
  // path (doc/api/rest/index.md, "Namespaced paths"), which is what a job URL gives.
  const transport = new GitLabTransport(gitlab.baseUrl, {
    token: options.token,
    logger: silentLogger,
  });
  let store: AnalysisStore | undefined;
  const projectNames = new Map<number, string>();
  return {
    kind: 'gitlab',
    description: `GitLab at ${gitlab.baseUrl}`,
    gitlabUrl: gitlab.baseUrl,
    async projectId(project) {
      if (/^\d+$/.test(project)) return Number(project);
      const found = await mapped(
        transport.getJson<GitLabProject>(
          projectSchema,
          `projects/${encodeURIComponent(project)}`,
          `Project ${project}`,
        ),
      );
      projectNames.set(found.id, found.path_with_namespace);
      return found.id;
    },
    async job(projectId, jobId) {
      const job = await mapped(gitlab.getJob(projectId, jobId).then(toJobResponse));
      // The stored analysis names its project, as the service's would (the poller knows it there).
      if (!projectNames.has(projectId) && job.web_url) {
        try {
          const ref = { kind: 'url' as const, url: new URL(job.web_url), jobId };
          projectNames.set(projectId, projectOf(ref, gitlab.baseUrl));
        } catch {
          // A link of another shape: the analysis is stored without the project's name.
        }
      }
      return job;
    },
    async log(projectId, jobId) {
      const tail = await mapped(connection.jobLogs.tail(projectId, jobId));
      return { text: tail.trace, truncated: tail.truncated, bytes: tail.bytes };
    },
    async analyse(job, log, { force }) {
      store ??= AnalysisStore.open(path.join(options.dataDir, 'analyses.db'), silentLogger);
      const ai = createAiService({
        gitlab: withCappedJobLogs(gitlab, connection.jobLogs),
        store,
        logger: silentLogger,
        config: aiConfigFrom(options.env),
        secretStore: options.secretStore,
        projectName: (id) => projectNames.get(id),
      });
      const provider = await ai.providerStatus();
      // The log read above goes with the request, so it is not downloaded twice.
      const answer = await mapped(
        ai.analyse({
          projectId: job.project_id,
          pipelineId: job.pipeline_id,
          jobId: job.id,
          jobName: job.name,
          stage: job.stage,
          log: log.text,
          force,
        }),
      );
      return jobAnalysisOf(answer, provider);
    },
    async close() {
      store?.close();
      await connection.close();
    },
  };
}
