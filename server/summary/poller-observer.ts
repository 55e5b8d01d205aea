import type {
  GitLabJob,
  GitLabPipeline,
  GitLabPipelineListItem,
  GitLabProject,
} from '../gitlab/wire.ts';
import type { PipelineRecord, Project } from './model.ts';

/**
 * Hears what the poller learns from GitLab, so other domains (the pipeline history) build on the
 * same requests instead of making their own. Every method is optional and called synchronously;
 * an observer must not throw (the poller logs and carries on if it does).
 */
export interface PollerObserver {
  /** The group's project list was read at `at` (epoch ms). */
  projectsListed?(projects: readonly GitLabProject[], at: number): void;
  /** Pipelines that are new or changed since they were last listed. */
  pipelinesListed?(projectId: number, items: readonly GitLabPipelineListItem[]): void;
  /**
   * A new or changed pipeline's single-pipeline details arrived; with `jobs` when the poller read
   * the pipeline's jobs for this same `updated_at` (every attempt, GitLab's `include_retried=true`),
   * so the observer needs no read of its own.
   */
  pipelineDetailed?(detail: GitLabPipeline, jobs?: readonly GitLabJob[]): void;
  /** A listed pipeline is gone upstream. */
  pipelineDeleted?(projectId: number, pipelineId: number): void;
}

/** What a warm start gives the poller: the last known state, read from disk. */
export interface PollerWarmState {
  projects: Project[];
  /** Pipelines in the window, with the details known for them. */
  pipelines: PipelineRecord[];
  /** When the project list was last read (epoch ms): it is not re-read before its interval. */
  projectsReadAt: number;
}
