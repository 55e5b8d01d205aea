import type {
  AnalyzedJobsResponse,
  CachedAnalysis,
  DeleteAnalysisResponse,
  HistoryResponse,
} from '../contract.ts';
import { AppError } from '../platform/errors.ts';
import type { AnalysisStore } from './store/analysis-store.ts';

/** History page sizes are clamped into this range. */
export const MAX_PAGE_SIZE = 100;

/** Reading and deleting stored analyses. */
export interface StoredAnalyses {
  analyzed(projectId: number): AnalyzedJobsResponse;
  getCached(projectId: number, jobId: number): CachedAnalysis;
  deleteCached(projectId: number, jobId: number): DeleteAnalysisResponse;
  history(page: number, pageSize: number): HistoryResponse;
}

/** Stored analyses as the API serves them; project names come from the poller when it knows them. */
export function createStoredAnalyses(
  store: AnalysisStore,
  projectName: (projectId: number) => string | undefined,
): StoredAnalyses {
  return {
    analyzed(projectId) {
      return { projectId, analyzedJobIds: store.analyzedJobIds(projectId) };
    },

    getCached(projectId, jobId) {
      const c = store.get(projectId, jobId);
      if (!c) {
        throw new AppError(
          'not_found',
          `No cached analysis for job ${jobId} of project ${projectId}`,
        );
      }
      return {
        projectId: c.projectId,
        pipelineId: c.pipelineId,
        jobId: c.jobId,
        jobName: c.jobName,
        stage: c.stage,
        analysis: c.analysis,
        conversation: c.conversation,
        timestamp: c.timestamp,
      };
    },

    deleteCached(projectId, jobId) {
      // Like GET of the same job: nothing to delete is a 404, not a 200 that says so.
      if (!store.delete(projectId, jobId))
        throw new AppError(
          'not_found',
          `No cached analysis for job ${jobId} of project ${projectId}`,
        );
      return { success: true, message: `Deleted the analysis of job ${jobId}` };
    },

    history(page, pageSize) {
      const size = Math.min(MAX_PAGE_SIZE, Math.max(1, pageSize));
      const current = Math.max(1, page);
      const { rows, totalCount } = store.history(current, size);
      return {
        analyses: rows.map((r) => ({
          ...r,
          projectName: projectName(r.projectId) || r.projectName,
        })),
        pagination: {
          currentPage: current,
          pageSize: size,
          totalPages: Math.ceil(totalCount / size),
          totalCount,
        },
      };
    },
  };
}
