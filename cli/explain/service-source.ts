/**
 * `explain` through the running service: it already holds the GitLab token, the configured AI
 * provider and the stored analyses (an analysis made on the dashboard is served from there).
 * Routes: /api/settings (its GitLab), /api/pipelines/summary (project paths of the watched
 * group), /api/jobs/{projectId}/{jobId}, /api/jobtrace, /api/ai/provider and /api/ai/analyse.
 */
import type {
  AnalyseResponse,
  JobResponse,
  JobTraceResponse,
  ProviderStatus,
  SettingsResponse,
  SummaryResponse,
} from '../../server/contract.ts';
import { CliError, type CliErrorCode } from '../errors.ts';
import { ServiceError, type ServiceClient } from '../service/service-client.ts';
import { jobAnalysisOf, type JobSource } from './job-source.ts';

/** An AI answer may take a model a couple of minutes (the service's own limit is 120 s). */
const ANALYSE_TIMEOUT_MS = 180_000;

/** A service failure as the CLI reports it (a 404 is `job_not_found`); anything else as it is. */
function cliErrorOf(err: unknown): unknown {
  if (!(err instanceof ServiceError)) return err;
  const byStatus: CliErrorCode | undefined =
    err.status === 502 || err.status === 503
      ? 'network'
      : err.status === 504
        ? 'timeout'
        : undefined;
  const code: CliErrorCode =
    byStatus ??
    {
      unreachable: 'network' as const,
      timeout: 'timeout' as const,
      unauthorized: 'auth_failed' as const,
      not_found: 'job_not_found' as const,
      bad_request: 'general' as const,
      failed: 'general' as const,
    }[err.code];
  return new CliError(code, err.message, { cause: err });
}

async function mapped<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    throw cliErrorOf(err);
  }
}

/**
 * Opens the service as a job source: reads its settings first, which also proves the access
 * token (a shared service refuses everything but its liveness route without it).
 */
export async function serviceJobSource(client: ServiceClient): Promise<JobSource> {
  const settings = await mapped(client.get<SettingsResponse>('/api/settings'));
  let paths: Map<string, number> | undefined;
  return {
    kind: 'service',
    description: `the service at ${client.baseUrl}`,
    gitlabUrl: settings.forgeUrl,
    async projectId(project) {
      if (/^\d+$/.test(project)) return Number(project);
      // The service resolves no paths itself; its summary knows every project of the group.
      paths ??= new Map(
        (await mapped(client.get<SummaryResponse>('/api/pipelines/summary'))).projects
          .filter((p) => p.project_path !== undefined)
          .map((p) => [p.project_path!.toLowerCase(), p.project_id]),
      );
      const id = paths.get(project.toLowerCase());
      if (id === undefined) {
        throw new CliError(
          'job_not_found',
          `project '${project}' is not in the group the service at ${client.baseUrl} watches (${settings.group}): give the project's numeric id, or use --direct`,
        );
      }
      return id;
    },
    job: (projectId, jobId) => mapped(client.get<JobResponse>(`/api/jobs/${projectId}/${jobId}`)),
    async log(projectId, jobId) {
      const trace = await mapped(
        client.get<JobTraceResponse>('/api/jobtrace', { projectId, jobId }),
      );
      return { text: trace.trace, truncated: trace.truncated === true, bytes: trace.bytes };
    },
    async analyse(job, _log, { force }) {
      // The service reads the whole log itself (and the last green run's, as a baseline).
      const [provider, answer] = await mapped(
        Promise.all([
          client.get<ProviderStatus>('/api/ai/provider'),
          client.post<AnalyseResponse>(
            '/api/ai/analyse',
            {
              projectId: job.project_id,
              pipelineId: job.pipeline_id,
              jobId: job.id,
              jobName: job.name,
              stage: job.stage,
              ...(force ? { force: true } : {}),
            },
            ANALYSE_TIMEOUT_MS,
          ),
        ]),
      );
      return jobAnalysisOf(answer, provider);
    },
    close: async () => undefined,
  };
}
